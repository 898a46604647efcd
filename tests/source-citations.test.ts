import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..");
const AREAS = ["app", "server", "domain", "db", "content", "i18n", "tests"];
const SKIPPED_DIRS = new Set(["node_modules", "build", ".react-router"]);
const EXTENSIONS = [".ts", ".tsx", ".js", ".json", ".sql", ".md", ".css"];

/**
 * A citation of the tracker or the specification: "issue" and a number, or the specification's
 * numbered points. Built from pieces so that this file does not cite itself.
 */
const CITATION = new RegExp(String.raw`\b${"iss" + "ue"} \d+|${["spec", "point"].join(" ")}`, "i");

/** Every file under `dir` with one of EXTENSIONS, skipping dependencies and generated output. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return SKIPPED_DIRS.has(entry.name) ? [] : sources(path);
    return EXTENSIONS.some((extension) => entry.name.endsWith(extension)) ? [path] : [];
  });
}

/**
 * A comment, a test title or a string says why the code is as it is: a new maintainer has
 * neither the tracker's numbers nor the specification's points, and the history is in git.
 */
it("names no tracker issue or numbered point of the specification in the sources", () => {
  const files = AREAS.flatMap((area) => sources(join(ROOT, area)));
  const citations: string[] = [];
  for (const file of files)
    for (const [index, line] of readFileSync(file, "utf8").split("\n").entries())
      if (CITATION.test(line))
        citations.push(`${relative(ROOT, file)}:${index + 1}: ${line.trim()}`);
  expect(citations).toEqual([]);
  expect(files.length).toBeGreaterThan(300);
});

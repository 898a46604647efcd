import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";

/** Every .tsx file under app/, with its path. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith(".tsx") && !entry.name.endsWith(".test.tsx") ? [path] : [];
  });
}

/**
 * A form sent before its script runs (slow network, script blocked) must not put what was
 * typed (a message, a password) into the address, where history, logs and referrers keep it:
 * every form is a POST, which the server answers with a quiet 405 until the script takes over.
 */
it("declares method=post on every form of the app", () => {
  const missing: string[] = [];
  for (const file of sources(join(import.meta.dirname)))
    for (const match of readFileSync(file, "utf8").matchAll(/<form\b[^]*?[^=]>/g))
      if (!/\bmethod="post"/.test(match[0])) missing.push(`${file}: ${match[0].slice(0, 60)}`);
  expect(missing).toEqual([]);
  expect(sources(join(import.meta.dirname)).length).toBeGreaterThan(50);
});

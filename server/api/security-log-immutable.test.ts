import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { API_OPERATIONS } from "./operations.ts";

/**
 * "The app has no path to change or delete an entry": no API operation but the two
 * reads touches the log, and no module outside domain/security writes to its table. The
 * database's triggers refuse it besides (domain/security/security-log.test.ts).
 */
describe("the security log cannot be changed through the app", () => {
  it("has no API operation on security events but the list and the export, both GETs", () => {
    const touching = API_OPERATIONS.filter((operation) =>
      /security[-_]?events?|security-log/i.test(operation.path),
    );
    expect(touching.map((operation) => [operation.method, operation.path])).toEqual([
      ["get", "/api/admin/security-events"],
      ["get", "/api/admin/security-events/export.csv"],
    ]);
  });

  it("has no update or delete of securityEvents outside domain/security", () => {
    const root = join(import.meta.dirname, "../..");
    const sources: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$|\.spec\.ts$/.test(name))
          sources.push(path);
      }
    };
    for (const dir of ["app", "server", "domain", "db", "content", "scripts"])
      walk(join(root, dir));
    // Sanity: the walk reads the sources, the writer among them.
    expect(sources.map((path) => relative(root, path))).toContain(
      "domain/security/security-log.ts",
    );
    const writes = [
      /\.(update|delete)\(\s*securityEvents\b/,
      /\b(update|delete\s+from|truncate)\s+(table\s+)?"?security_events\b/i,
    ];
    const offenders = sources
      .map((path) => relative(root, path))
      .filter((path) => !path.startsWith("domain/security/"))
      .filter((path) => {
        const text = readFileSync(join(root, path), "utf8");
        return writes.some((pattern) => pattern.test(text));
      });
    expect(offenders).toEqual([]);
    // And the patterns do catch the one write that is allowed, the retention prune.
    const writer = readFileSync(join(root, "domain/security/security-log.ts"), "utf8");
    expect(writes.some((pattern) => pattern.test(writer))).toBe(true);
  });
});

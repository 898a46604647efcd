import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "#db/client.ts";
import { parseCatalogueCsv, csvFieldName } from "#domain/catalogue/catalogue-csv.ts";
import { validateCatalogue } from "#domain/catalogue/property-content.schema.ts";
import { seedCatalogue } from "#domain/catalogue/seed-catalogue.ts";
import { spawnCli } from "#tests/setup/cli.ts";
import { DEMO_CATALOGUE } from "#tests/setup/database.ts";

const CLI = join(import.meta.dirname, "catalogue-cli.ts");

// What only a process of its own shows: the exit codes, the files written where the user said,
// and the lock that keeps a second process out of PGlite's files. Every command's behaviour is
// in catalogue-cli.test.ts, which runs them in-process on both backends.
describe("npm run catalogue as a user runs it (embedded database)", { timeout: 180_000 }, () => {
  const dataDir = mkdtempSync(join(tmpdir(), "castellum-catalogue-"));
  const files = mkdtempSync(join(tmpdir(), "castellum-catalogue-files-"));
  const file = (name: string) => join(files, name);
  const catalogue = (args: string[]) =>
    spawnCli(CLI, args, { DATA_DIR: dataDir, NODE_ENV: "test" });

  beforeAll(async () => {
    const database = await openDatabase({ dataDir });
    try {
      await database.migrate();
      await seedCatalogue({ db: database.db, log: pino({ level: "silent" }) }, DEMO_CATALOGUE);
    } finally {
      await database.close();
    }
  });
  afterAll(() => {
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(files, { recursive: true, force: true });
  });

  it("exports the catalogue to a CSV file and imports it back, changing nothing", async () => {
    const exported = await catalogue(["export", file("catalogue.csv")]);
    expect(exported).toEqual({
      code: 0,
      stdout: `Exported 42 estates to ${file("catalogue.csv")}.\n`,
      stderr: "",
    });
    const { entries, problems } = parseCatalogueCsv(readFileSync(file("catalogue.csv"), "utf8"));
    expect(problems).toEqual([]);
    expect(validateCatalogue(entries, csvFieldName).catalogue).toEqual(DEMO_CATALOGUE);

    const imported = await catalogue(["import", file("catalogue.csv")]);
    expect(imported.stderr).toBe("");
    expect(imported.code).toBe(0);
    expect(imported.stdout).toContain("Created 0, updated 42 estates");
  });

  it("says what to do when the server holds the embedded database, and exits 1", async () => {
    const held = await openDatabase({ dataDir });
    try {
      for (const args of [
        ["export", file("again.json")],
        ["import", file("catalogue.csv")],
      ]) {
        const run = await catalogue(args);
        expect(run.code).toBe(1);
        expect(run.stdout).toBe("");
        expect(run.stderr).toMatch(
          /^Error: The embedded database in .+ is open in another process \(pid \d+\), most likely the running server\. PGlite admits one process at a time: stop the server, run this command, then start the server again\./,
        );
      }
    } finally {
      await held.close();
    }
    const again = await catalogue(["export", file("again.json")]);
    expect(again.code).toBe(0);
    expect(JSON.parse(readFileSync(file("again.json"), "utf8"))).toEqual(DEMO_CATALOGUE);
  });

  it("exits 2 on a usage mistake", async () => {
    const none = await catalogue([]);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(
      /^Error: no command given\n\nUsage: npm run catalogue -- <command>\n/,
    );
  });
});

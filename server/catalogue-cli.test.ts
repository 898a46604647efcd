import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  properties,
  propertyFieldEdits,
  propertyTranslations,
  securityEvents,
} from "#db/schema/index.ts";
import {
  csvFieldName,
  formatCatalogueCsv,
  parseCatalogueCsv,
} from "#domain/catalogue/catalogue-csv.ts";
import { exportCatalogue } from "#domain/catalogue/export-catalogue.ts";
import {
  type PropertyContent,
  validateCatalogue,
} from "#domain/catalogue/property-content.schema.ts";
import type { Deps } from "#domain/deps.ts";
import { runInProcess } from "#tests/setup/cli.ts";
import { DEMO_CATALOGUE, describeEachBackend } from "#tests/setup/database.ts";
import { demoEstate } from "#tests/factories/demo-estates.ts";
import { runCatalogueCli } from "./catalogue-cli.ts";

const GORDON = demoEstate("gordon-castle");

async function translation(deps: Deps, propertyId: number, lang: string) {
  const [row] = await deps.db
    .select()
    .from(propertyTranslations)
    .where(
      and(eq(propertyTranslations.propertyId, propertyId), eq(propertyTranslations.lang, lang)),
    );
  return row;
}

const imagesOf = (catalogue: PropertyContent[]) =>
  catalogue.reduce((n, estate) => n + estate.illustration.imageCount, 0);

/** A new estate, made from the first demo estate, under an id and name of its own. */
function newEstate(): PropertyContent {
  const estate = structuredClone(DEMO_CATALOGUE[0]!);
  estate.id = 43;
  for (const lang of ["en", "fr", "it", "zh"] as const)
    estate.content[lang].name = `Castello Nuovo ${lang}`;
  return estate;
}

// Each command runs in this process on the suite's database, seeded with the demo catalogue;
// catalogue-cli.process.test.ts runs the command as a user does, a process of its own on the
// embedded database's files.
describeEachBackend("npm run catalogue", (database) => {
  const catalogue = (args: string[]) =>
    runInProcess((io) => runCatalogueCli(args, io), database().handle, { NODE_ENV: "test" });
  /** The suite's database, as the command leaves it. */
  const withDatabase = <T>(work: (deps: Deps) => Promise<T>) => work(database().deps);
  const files = mkdtempSync(join(tmpdir(), "castellum-catalogue-files-"));
  const file = (name: string) => join(files, name);
  const OWNER_TEXT =
    "Il testo scritto dal proprietario: una descrizione della tenuta che nessuna importazione deve sovrascrivere.";

  afterAll(() => rmSync(files, { recursive: true, force: true }));

  it("exports the catalogue as JSON and as CSV, each reading back as the demo catalogue", async () => {
    const json = await catalogue(["export", file("catalogue.json")]);
    expect(json).toEqual({
      code: 0,
      stdout: `Exported 42 estates to ${file("catalogue.json")}.\n`,
      stderr: "",
    });
    expect(JSON.parse(readFileSync(file("catalogue.json"), "utf8"))).toEqual(DEMO_CATALOGUE);

    const csv = await catalogue(["export", file("catalogue.csv")]);
    expect(csv).toEqual({
      code: 0,
      stdout: `Exported 42 estates to ${file("catalogue.csv")}.\n`,
      stderr: "",
    });
    // Both exports are in the security log.
    const logged = await withDatabase((deps) =>
      deps.db
        .select({
          type: securityEvents.type,
          actorKind: securityEvents.actorKind,
          data: securityEvents.data,
        })
        .from(securityEvents)
        .orderBy(securityEvents.id),
    );
    expect(logged).toEqual(
      (["json", "csv"] as const).map((format) => ({
        type: "export.csv",
        actorKind: "system",
        data: { export: "catalogue", format, via: "cli", estates: 42 },
      })),
    );
    const { entries, problems } = parseCatalogueCsv(readFileSync(file("catalogue.csv"), "utf8"));
    expect(problems).toEqual([]);
    expect(validateCatalogue(entries, csvFieldName)).toEqual({
      catalogue: DEMO_CATALOGUE,
      problems: [],
    });
  });

  it("imports its own export and changes nothing", async () => {
    const run = await catalogue(["import", file("catalogue.csv")]);
    expect(run).toEqual({
      code: 0,
      stdout: [
        `Checked 42 estates in ${file("catalogue.csv")}: no problems.`,
        `Created 0, updated 42 estates (${imagesOf(DEMO_CATALOGUE)} images).`,
        "",
      ].join("\n"),
      stderr: "",
    });
    expect(await withDatabase(exportCatalogue)).toEqual(DEMO_CATALOGUE);
  });

  it("lists every problem of a CSV file by line and column, and writes nothing", async () => {
    const text = formatCatalogueCsv([...DEMO_CATALOGUE.slice(0, 3), newEstate()]);
    const lines = text.split("\n");
    const lineOf = (id: number) => lines.findIndex((line) => line.startsWith(`"${id}",`)) + 1;
    const [first, second, third] = DEMO_CATALOGUE as [
      PropertyContent,
      PropertyContent,
      PropertyContent,
    ];
    const broken = text
      .replace(`\n"${second.id}","${second.region}",`, `\n"${second.id}","atlantis",`)
      .replace(third.content.fr.summary.replaceAll('"', '""'), "Trop court.")
      .replace(`\n"43",`, `\n"${first.id}",`);
    writeFileSync(file("broken.csv"), broken);

    const run = await catalogue(["import", file("broken.csv")]);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toBe(
      [
        `Error: ${file("broken.csv")} has 3 problems; nothing was written.`,
        `line ${lineOf(second.id)}, field region: "atlantis" is not one of france, italy, spain, uk, germany, switzerland, portugal, austria`,
        `line ${lineOf(third.id)}, field summary_fr: 11 characters; at least 80`,
        `line ${lineOf(43)}, field id: id ${first.id} is also on line 2`,
        "",
      ].join("\n"),
    );
    // The valid new estate in the same file was not written either.
    expect(await withDatabase(exportCatalogue)).toEqual(DEMO_CATALOGUE);
  });

  it("lists the problems of a JSON file by place in the array and estate", async () => {
    const second = structuredClone(DEMO_CATALOGUE[1]!) as Partial<PropertyContent>;
    delete second.ownerEmail;
    second.content!.it.amenities = ["Piscina"];
    writeFileSync(
      file("broken.json"),
      JSON.stringify([newEstate(), second, { ...DEMO_CATALOGUE[2], bedrooms: "tre" }]),
    );
    const run = await catalogue(["import", file("broken.json")]);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      [
        `Error: ${file("broken.json")} has 3 problems; nothing was written.`,
        `line 2 (estate ${second.id}), field ownerEmail: missing`,
        `line 2 (estate ${second.id}), field content.it.amenities: 1 item; at least 4`,
        `line 3 (estate ${DEMO_CATALOGUE[2]!.id}), field bedrooms: "tre" is not a whole number`,
        "",
      ].join("\n"),
    );
    const written = await withDatabase((deps) =>
      deps.db.select().from(properties).where(eq(properties.id, 43)),
    );
    expect(written).toEqual([]);
  });

  describe("an edited file", () => {
    const edited = [...structuredClone(DEMO_CATALOGUE), newEstate()];
    const seven = edited.find((estate) => estate.id === 7)!;
    seven.content.fr.name = "Côte amalfitaine, villa Sospesa";
    seven.guestCapacity = 18;
    edited.find((estate) => estate.id === GORDON.id)!.content.it.summary =
      "Un nuovo testo dal file importato, che non deve prendere il posto di quello scritto dal proprietario.";

    beforeAll(async () => {
      writeFileSync(file("edited.csv"), formatCatalogueCsv(edited));
      // The owner of the estate has rewritten its Italian description on the dashboard.
      await withDatabase(async (deps) => {
        await deps.db
          .update(propertyTranslations)
          .set({ summary: OWNER_TEXT })
          .where(
            and(
              eq(propertyTranslations.propertyId, GORDON.id),
              eq(propertyTranslations.lang, "it"),
            ),
          );
        await deps.db.insert(propertyFieldEdits).values({
          propertyId: GORDON.id,
          field: "description",
          lang: "it",
          editedByRole: "owner",
          editedBy: GORDON.email,
        });
      });
    });

    const report = (verb: { create: string; update: string; keep: string }) => [
      `Checked 43 estates in ${file("edited.csv")}: no problems.`,
      `${verb.create} 1, ${verb.update} 42 estates (${imagesOf(edited)} images).`,
      `${verb.keep} 1 field that an owner or staff edited:`,
      `  estate ${GORDON.id}: description (it) kept — edited by owner`,
    ];

    it("is only reported with --dry-run", async () => {
      const run = await catalogue(["import", file("edited.csv"), "--dry-run"]);
      expect(run).toEqual({
        code: 0,
        stdout: [
          ...report({ create: "Would create", update: "update", keep: "Would keep" }),
          "Dry run: nothing was written.",
          "",
        ].join("\n"),
        stderr: "",
      });
      await withDatabase(async (deps) => {
        expect(await deps.db.select().from(properties).where(eq(properties.id, 43))).toEqual([]);
        expect((await translation(deps, 7, "fr"))?.name).toBe("Côte amalfitaine");
        expect((await translation(deps, GORDON.id, "it"))?.summary).toBe(OWNER_TEXT);
      });
    });

    it("is written, keeping the owner's text", async () => {
      const run = await catalogue(["import", file("edited.csv")]);
      expect(run).toEqual({
        code: 0,
        stdout: [...report({ create: "Created", update: "updated", keep: "Kept" }), ""].join("\n"),
        stderr: "",
      });
      await withDatabase(async (deps) => {
        const [estate] = await deps.db.select().from(properties).where(eq(properties.id, 7));
        expect(estate?.guestCapacity).toBe(18);
        expect((await translation(deps, 7, "fr"))?.name).toBe("Côte amalfitaine, villa Sospesa");
        expect((await translation(deps, GORDON.id, "it"))?.summary).toBe(OWNER_TEXT);
        const exported = await exportCatalogue(deps);
        const expected = structuredClone(edited);
        expected.find((e) => e.id === GORDON.id)!.content.it.summary = OWNER_TEXT;
        expect(exported).toEqual(expected);
      });
    });
  });

  it("explains usage mistakes with exit 2 and a missing file with exit 1", async () => {
    const none = await catalogue([]);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(
      /^Error: no command given\n\nUsage: npm run catalogue -- <command>\n/,
    );
    const cases: [string[], string][] = [
      [["export"], "export needs a file"],
      [
        ["import", file("catalogue.txt")],
        `the file must end in .json or .csv: ${file("catalogue.txt")}`,
      ],
      [["export", file("x.json"), "--dry-run"], "--dry-run is for import only"],
      [["publish", file("x.json")], "unknown command: publish"],
      [["import", file("a.csv"), file("b.csv")], `unexpected argument: ${file("b.csv")}`],
    ];
    for (const [args, message] of cases) {
      const run = await catalogue(args);
      expect(run.code, args.join(" ")).toBe(2);
      expect(run.stderr.split("\n")[0]).toBe(`Error: ${message}`);
    }
    const unknownOption = await catalogue(["import", file("x.csv"), "--force"]);
    expect(unknownOption.code).toBe(2);
    expect(unknownOption.stderr).toContain("Unknown option '--force'");

    const missing = await catalogue(["import", file("missing.csv")]);
    expect(missing).toEqual({
      code: 1,
      stdout: "",
      stderr: `Error: cannot read ${file("missing.csv")}: no such file\n`,
    });
  });
});

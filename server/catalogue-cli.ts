/**
 * `npm run catalogue -- <command>`: the catalogue to and from a file.
 *
 *   export <file.json|file.csv>
 *   import <file.json|file.csv> [--dry-run]
 *
 * An import first checks every estate in the file and lists each problem with its line; if
 * there is any, nothing is written. Otherwise the whole file is written in one transaction,
 * keeping every field an owner or staff edited. Exits 0 on success, 1 on a refused command
 * (problems in the file, a busy database), 2 on usage.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { extname, resolve } from "node:path";
import type { WriteStream } from "node:tty";
import { inspect, parseArgs } from "node:util";
import pino from "pino";
import { DatabaseBusyError, type DatabaseHandle } from "#db/client.ts";
import { type DatabaseEnv, loadDotEnv, openDatabaseFromEnv } from "#db/open-from-env.ts";
import {
  csvFieldName,
  formatCatalogueCsv,
  parseCatalogueCsv,
} from "#domain/catalogue/catalogue-csv.ts";
import { recordSecurityEvent } from "#domain/security/security-log.ts";
import { exportCatalogue } from "#domain/catalogue/export-catalogue.ts";
import {
  type CatalogueEntry,
  type CatalogueProblem,
  jsonFieldName,
  validateCatalogue,
} from "#domain/catalogue/property-content.schema.ts";
import { type SeedReport, seedCatalogue } from "#domain/catalogue/seed-catalogue.ts";
import type { Deps } from "#domain/deps.ts";
import { EnvError, parseEnv } from "./env.ts";

const USAGE = `Usage: npm run catalogue -- <command>
  export <file.json|file.csv>              write the whole catalogue to the file
  import <file.json|file.csv> [--dry-run]  check the file, then write it to the database
An import writes nothing unless every estate in the file is valid, and never overwrites a
field an owner or staff edited. With --dry-run it says what it would do and writes nothing.`;

class UsageError extends Error {}
class RefusedError extends Error {}

type Format = "json" | "csv";

/** What a run of the command reads and writes: the process's own, or a test's. */
export interface CatalogueCliIo {
  env: Record<string, string | undefined>;
  stdout: { write(text: string): unknown };
  /** A progress bar is drawn on it while an import runs, when it is a terminal. */
  stderr: { write(text: string): unknown; isTTY?: boolean };
  /** Opens the database `env` names (the default); a test hands in one it already holds. */
  openDatabase?: (env: DatabaseEnv) => Promise<DatabaseHandle>;
}

/**
 * Runs one command, as `npm run catalogue -- <argv>` does, and answers its exit code: 0 done,
 * 1 refused (a message on stderr), 2 a usage mistake.
 */
export async function runCatalogueCli(argv: string[], io: CatalogueCliIo): Promise<number> {
  try {
    await main(argv, io);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(`Error: ${error.message}\n\n${USAGE}\n`);
      return 2;
    }
    if (
      error instanceof RefusedError ||
      error instanceof DatabaseBusyError ||
      error instanceof EnvError
    )
      io.stderr.write(`Error: ${error.message}\n`);
    else io.stderr.write(`${inspect(error)}\n`);
    return 1;
  }
}

function parseArguments(argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        "dry-run": { type: "boolean", default: false },
        help: { type: "boolean", short: "h", default: false },
      },
    });
  } catch (error) {
    // node:util says which option it does not know; that is a usage mistake, not a crash.
    if (String((error as NodeJS.ErrnoException).code).startsWith("ERR_PARSE_ARGS"))
      throw new UsageError((error as Error).message);
    throw error;
  }
}

async function main(argv: string[], io: CatalogueCliIo): Promise<void> {
  const print = (text: string) => void io.stdout.write(`${text}\n`);
  const withDatabase = (work: (deps: Deps) => Promise<void>) => withDatabaseOf(io, work);
  const { values, positionals } = parseArguments(argv);
  const [command, file, ...extra] = positionals;
  if (values.help) return print(USAGE);
  if (!command) throw new UsageError("no command given");
  if (command !== "export" && command !== "import")
    throw new UsageError(`unknown command: ${command}`);
  if (!file) throw new UsageError(`${command} needs a file`);
  if (extra.length > 0) throw new UsageError(`unexpected argument: ${extra[0]}`);
  if (command === "export" && values["dry-run"])
    throw new UsageError("--dry-run is for import only");
  const format = formatOf(file);
  // npm runs scripts in the project's folder; a relative path means the caller's folder.
  const path = resolve(io.env.INIT_CWD ?? process.cwd(), file);

  if (command === "export") {
    await withDatabase(async (deps) => {
      const catalogue = await exportCatalogue(deps);
      const text =
        format === "csv"
          ? formatCatalogueCsv(catalogue)
          : `${JSON.stringify(catalogue, null, 2)}\n`;
      try {
        writeFileSync(path, text);
      } catch (error) {
        throw new RefusedError(`cannot write ${file}: ${(error as Error).message}`);
      }
      // Data leaving the system is in the security log, whichever the format.
      await recordSecurityEvent(deps.db, {
        type: "export.csv",
        actor: { kind: "system" },
        data: { export: "catalogue", format, via: "cli", estates: catalogue.length },
      });
      print(`Exported ${estates(catalogue.length)} to ${file}.`);
    });
    return;
  }

  // Check the whole file before the database is even opened.
  const { entries, problems: fileProblems } = readEntries(path, file, format);
  const { catalogue, problems } = validateCatalogue(
    entries,
    format === "csv" ? csvFieldName : jsonFieldName,
  );
  const allProblems = [...fileProblems, ...problems].sort((a, b) => a.line - b.line);
  if (allProblems.length > 0) {
    const count = allProblems.length;
    throw new RefusedError(
      [
        `${file} has ${count} problem${count === 1 ? "" : "s"}; nothing was written.`,
        ...allProblems.map((problem) => formatProblem(problem, format)),
      ].join("\n"),
    );
  }
  if (catalogue.length === 0) throw new RefusedError(`${file} holds no estates.`);

  const dryRun = values["dry-run"];
  await withDatabase(async (deps) => {
    const progress = progressBar(io.stderr);
    let report;
    try {
      report = await seedCatalogue(deps, catalogue, { dryRun, onProgress: progress.update });
    } catch (error) {
      throw new RefusedError(
        `the import stopped and nothing was written: ${(error as Error).message}`,
      );
    } finally {
      progress.end();
    }
    const images = `${report.images} image${report.images === 1 ? "" : "s"}`;
    const lines = [
      `Checked ${estates(catalogue.length)} in ${file}: no problems.`,
      `${dryRun ? "Would create" : "Created"} ${report.created}, ${dryRun ? "update" : "updated"} ${estates(report.updated)} (${images}).`,
    ];
    if (report.skipped.length > 0) {
      const n = report.skipped.length;
      lines.push(
        `${dryRun ? "Would keep" : "Kept"} ${n} field${n === 1 ? "" : "s"} that an owner or staff edited:`,
        ...report.skipped.map((kept) => `  ${formatKept(kept)}`),
      );
    }
    if (dryRun) lines.push("Dry run: nothing was written.");
    print(lines.join("\n"));
  });
}

function formatOf(file: string): Format {
  const extension = extname(file).toLowerCase();
  if (extension === ".json") return "json";
  if (extension === ".csv") return "csv";
  throw new UsageError(`the file must end in .json or .csv: ${file}`);
}

function estates(n: number): string {
  return `${n} estate${n === 1 ? "" : "s"}`;
}

/** The file's estates with their lines; in a JSON array, an estate's line is its place in it. */
function readEntries(
  path: string,
  file: string,
  format: Format,
): { entries: CatalogueEntry[]; problems: CatalogueProblem[] } {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new RefusedError(
      `cannot read ${file}: ${code === "ENOENT" ? "no such file" : (error as Error).message}`,
    );
  }
  if (format === "csv") return parseCatalogueCsv(text);
  let value: unknown;
  try {
    value = JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch (error) {
    throw new RefusedError(`${file} is not valid JSON: ${(error as Error).message}`);
  }
  // One estate on its own (a file of content/properties) is a catalogue of one.
  const list: unknown[] | null = Array.isArray(value)
    ? value
    : value !== null && typeof value === "object"
      ? [value]
      : null;
  if (!list)
    throw new RefusedError(`${file} must hold an array of estates, as the export writes it.`);
  return { entries: list.map((item, index) => ({ line: index + 1, value: item })), problems: [] };
}

/** `line 5, field summary_fr: …`; JSON lines (places in the array) also name the estate. */
function formatProblem(problem: CatalogueProblem, format: Format): string {
  const where =
    format === "json" && problem.id !== undefined
      ? `line ${problem.line} (estate ${problem.id})`
      : `line ${problem.line}`;
  return `${where}${problem.field ? `, field ${problem.field}` : ""}: ${problem.message}`;
}

/** `estate 15: description (it) kept — edited by owner`. */
function formatKept(kept: SeedReport["skipped"][number]): string {
  const field = kept.lang === "*" ? kept.field : `${kept.field} (${kept.lang})`;
  return `estate ${kept.propertyId}: ${field} kept — edited by ${kept.editedByRole}`;
}

/** A bar redrawn in place on a terminal; nothing at all when stderr is a file or a pipe. */
function progressBar(output: CatalogueCliIo["stderr"]): {
  update: (done: number, total: number) => void;
  end: () => void;
} {
  if (!output.isTTY) return { update: () => {}, end: () => {} };
  const stream = output as WriteStream;
  const width = 30;
  let drawn = false;
  return {
    update(done, total) {
      const filled = total === 0 ? width : Math.round((done / total) * width);
      stream.write(
        `\r[${"#".repeat(filled)}${"-".repeat(width - filled)}] ${done}/${total} estates`,
      );
      drawn = true;
    },
    end() {
      if (!drawn) return;
      stream.clearLine(0);
      stream.cursorTo(0);
    },
  };
}

/** Opens the configured database, migrates it, runs `work` and always closes it again. */
async function withDatabaseOf(
  io: CatalogueCliIo,
  work: (deps: Deps) => Promise<void>,
): Promise<void> {
  const database = await (io.openDatabase ?? openDatabaseFromEnv)(parseEnv(io.env));
  try {
    await database.migrate();
    await work({ db: database.db, log: pino({ level: "silent" }) });
  } finally {
    await database.close();
  }
}

if (import.meta.main) {
  loadDotEnv();
  process.exitCode = await runCatalogueCli(process.argv.slice(2), {
    env: process.env,
    stdout: process.stdout,
    stderr: process.stderr,
  });
}

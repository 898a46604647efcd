/**
 * The database a process opens from its environment: PostgreSQL when DATABASE_URL is set, else
 * the embedded PGlite under DATA_DIR. The server (server/env.ts, server/deps.ts) and every
 * command-line tool (db:migrate, db:seed, staff, catalogue) read these two variables and open
 * the database through here, so they always agree on where the data is.
 */
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { z } from "zod";
import { type DatabaseHandle, MIGRATIONS_FOLDER, openDatabase } from "./client.ts";

/** The project folder, where `.env` and `./data` are found from source. */
const PROJECT_ROOT = resolve(import.meta.dirname, "..");

/** The database's environment variables, as the server's schema (server/env.ts) has them too. */
export const DATABASE_ENV_SHAPE = {
  /** Where PGlite keeps its files (and, by default, mail and other local files). */
  DATA_DIR: z.string().min(1).default("./data"),
  /** PostgreSQL connection string; when set, it replaces the embedded PGlite. */
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }).optional(),
};

/** Where the database is: DATA_DIR is an absolute path. */
export interface DatabaseEnv {
  DATA_DIR: string;
  DATABASE_URL?: string | undefined;
}

/** A database variable is invalid; the message names each bad one. */
export class DatabaseEnvError extends Error {
  override name = "DatabaseEnvError";
}

/** Loads the project's `.env` into process.env when there is one; set variables win. */
export function loadDotEnv(rootDir: string = PROJECT_ROOT): void {
  const file = join(rootDir, ".env");
  if (existsSync(file)) process.loadEnvFile(file);
}

/**
 * DATA_DIR and DATABASE_URL from `source`, for a tool that needs nothing else. Empty strings
 * count as unset, as in the server's parseEnv.
 * @throws DatabaseEnvError naming each bad variable.
 */
export function parseDatabaseEnv(
  source: Record<string, string | undefined> = process.env,
): DatabaseEnv {
  const parsed = z.object(DATABASE_ENV_SHAPE).safeParse({
    DATA_DIR: source.DATA_DIR || undefined,
    DATABASE_URL: source.DATABASE_URL || undefined,
  });
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => {
      const name = String(issue.path[0]);
      return `  ${name}=${JSON.stringify(source[name] ?? "")}: ${issue.message}`;
    });
    throw new DatabaseEnvError(
      `Invalid environment configuration:\n${lines.join("\n")}\nSee .env.example.`,
    );
  }
  return { ...parsed.data, DATA_DIR: resolve(parsed.data.DATA_DIR) };
}

export interface OpenFromEnvOptions {
  /** The committed migrations; the bundled server passes its own folder. */
  migrationsFolder?: string;
  /** PostgreSQL: told when an idle pooled connection dies (see openDatabase). */
  onIdleError?: (error: Error) => void;
  /** PostgreSQL: its streaming replicas, for public reads (DATABASE_REPLICA_URLS). */
  replicaUrls?: string[];
}

/**
 * Opens the database `env` names (not yet migrated: call `migrate()`).
 * @throws DatabaseBusyError when another process holds the embedded database.
 */
export function openDatabaseFromEnv(
  env: DatabaseEnv,
  options: OpenFromEnvOptions = {},
): Promise<DatabaseHandle> {
  return openDatabase(
    env.DATABASE_URL
      ? {
          databaseUrl: env.DATABASE_URL,
          onIdleError: options.onIdleError,
          replicaUrls: options.replicaUrls,
        }
      : { dataDir: env.DATA_DIR },
    options.migrationsFolder ?? MIGRATIONS_FOLDER,
  );
}

import { resolve } from "node:path";
import { z } from "zod";

const booleanFlag = z
  .enum(["true", "false", "1", "0"])
  .transform((value) => value === "true" || value === "1");

/**
 * Every environment variable the server reads. `.env.example` documents each one; the defaults
 * let a fresh clone run with nothing configured (PGlite under ./data, port 3000).
 */
export const EnvSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  HOST: z.string().min(1).default("0.0.0.0"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  /** Public origin used in canonical links and hreflang alternates. */
  PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
  /** Where PGlite keeps its files (and, later, mail and uploads). */
  DATA_DIR: z.string().min(1).default("./data"),
  /** PostgreSQL connection string; when set, it replaces the embedded PGlite. */
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }).optional(),
  /** Seed the demo catalogue into an empty database at start. */
  SEED_DEMO_CATALOGUE: booleanFlag.default(true),
  /** An external whitepaper PDF; by default the site serves the one it makes from its content. */
  WHITEPAPER_URL: z.url({ protocol: /^https?$/ }).optional(),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
});

export type Env = z.infer<typeof EnvSchema> & { DATA_DIR: string; PUBLIC_URL: string };

/** Thrown when the environment is invalid; the message names each bad variable. */
export class EnvError extends Error {
  override name = "EnvError";
}

/** Parses the environment; empty strings count as unset so `.env` files can leave blanks. */
export function parseEnv(source: Record<string, string | undefined> = process.env): Env {
  const cleaned = Object.fromEntries(
    Object.keys(EnvSchema.shape).map((key) => [key, source[key] === "" ? undefined : source[key]]),
  );
  const parsed = EnvSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => {
      const name = String(issue.path[0]);
      return `  ${name}=${JSON.stringify(source[name] ?? "")}: ${issue.message}`;
    });
    throw new EnvError(
      `Invalid environment configuration:\n${lines.join("\n")}\nSee .env.example.`,
    );
  }
  const env = parsed.data;
  return {
    ...env,
    DATA_DIR: resolve(env.DATA_DIR),
    PUBLIC_URL: (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, ""),
  };
}

import type { Logger } from "pino";
import type { Database } from "#db/client.ts";
import type { Clock } from "./clock.ts";
import type { FactsIndex } from "./catalogue/facts-index.ts";
import type { PasswordCost } from "./staff/passwords.ts";

/** What every domain function may use. Handed in by the server; never a module singleton. */
export interface Deps {
  db: Database;
  log: Logger;
  /**
   * The catalogue's facts in memory (facts-index.ts): searches with filters alone ask it
   * first. The server's instance has one; without it every search is SQL.
   */
  factsIndex?: FactsIndex;
  /**
   * APP_SECRETS_KEY: a key kept outside the database that seals what the database must not
   * hold in the clear (TOTP secrets), so a copy of the database alone opens none of them.
   * Without it, a key the application keeps in the database does (domain/app-secrets.ts).
   */
  secretsKey?: string;
  /**
   * The cost of new password hashes; STANDARD_PASSWORD_COST unless set. The server never sets
   * it. The test suites set a light one: they make and sign in to hundreds of accounts, and at
   * the standard cost hashing alone took minutes of every run.
   */
  passwordCost?: PasswordCost;
  /** The time domain code reads (clock.ts); the system clock unless set. */
  clock?: Clock;
}

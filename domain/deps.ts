import type { Logger } from "pino";
import type { Database } from "../db/client.ts";

/** What every domain function may use. Handed in by the server; never a module singleton. */
export interface Deps {
  db: Database;
  log: Logger;
}

import { inject } from "vitest";

/** A server the global setup started for the files of one worker (global-setup.ts). */
export interface SharedServer {
  baseURL: string;
  /** Where the in-process SMTP server writes each mail it receives, as an .eml file. */
  mailDir: string;
  /** The one-time first-admin link the server printed at start. */
  setupUrl: string;
}

/** Data directories to start a journey's own server from (server.ts, copyDataDir). */
export interface DataTemplates {
  /** Migrated, no catalogue: for a server with SEED_DEMO_CATALOGUE=false. */
  migrated: string;
  /** Migrated and seeded with the demo catalogue, as a server's first start leaves it. */
  seeded: string;
}

/**
 * The shared server of this file's worker. Two files run at once, each in its own worker
 * (VITEST_POOL_ID, 1 to maxWorkers, is unique among the workers running), so a file never
 * shares a server with the file running beside it; files one after the other in a worker
 * share it, as all of them shared one server when they ran one at a time.
 */
export function sharedServer(): SharedServer {
  const servers = inject("sharedServers");
  const index = Number(process.env.VITEST_POOL_ID ?? "1") - 1;
  const server = servers[index];
  if (!server) throw new Error(`No shared server for worker ${index + 1} of ${servers.length}`);
  return server;
}

/** The data directory a journey's own server starts from a copy of. */
export function dataTemplate(kind: keyof DataTemplates): string {
  return inject("dataTemplates")[kind];
}

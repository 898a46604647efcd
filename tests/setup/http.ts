import type { AddressInfo } from "node:net";
import type { Express } from "express";
import { afterAll, beforeAll } from "vitest";
import type { Deps } from "#domain/deps.ts";
import { createExpressApp } from "#server/app.ts";

/**
 * Serves the Express app (API, media, redirects; no pages) on a free port for the current
 * suite and returns a function giving its base URL.
 */
export function serveApp(deps: () => Deps): () => string {
  let baseUrl = "";
  let close: () => Promise<void> = async () => {};
  beforeAll(async () => {
    const app = createExpressApp({
      deps: deps(),
      env: { NODE_ENV: "test", PUBLIC_URL: "http://localhost" },
    });
    ({ baseUrl, close } = await listenOnFreePort(app));
  });
  afterAll(() => close());
  return () => baseUrl;
}

/** Listens on a free loopback port; `close` ends open connections and stops the server. */
export async function listenOnFreePort(
  app: Express,
): Promise<{ baseUrl: string; close(): Promise<void> }> {
  const server = app.listen(0, "127.0.0.1");
  // A client keeps its connection between calls, however long a suite pauses between them (a
  // server closing an idle one as the client reuses it is a reset, not an answer).
  server.keepAliveTimeout = 600_000;
  await new Promise<void>((resolve) => server.once("listening", resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

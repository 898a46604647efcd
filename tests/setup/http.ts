import type { AddressInfo } from "node:net";
import { afterAll, beforeAll } from "vitest";
import type { Deps } from "../../domain/deps.ts";
import { createExpressApp } from "../../server/app.ts";

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
    const server = app.listen(0, "127.0.0.1");
    await new Promise<void>((resolve) => server.once("listening", resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = () => new Promise((resolve) => server.close(() => resolve()));
  });
  afterAll(() => close());
  return () => baseUrl;
}

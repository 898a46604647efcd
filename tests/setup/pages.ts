import { join } from "node:path";
import type { ServerBuild } from "react-router";
import { createServer, type ViteDevServer } from "vite";
import { afterAll, beforeAll } from "vitest";
import type { Deps } from "#domain/deps.ts";
import type { AppOptions, createExpressApp as CreateExpressApp } from "#server/app.ts";
import { createServices, type Services, type ServicesEnv } from "#server/services.ts";
import { listenOnFreePort } from "./http.ts";
import { testServicesEnv } from "./intake.ts";

export interface PageServer {
  /** `createExpressApp` loaded beside the pages, so both share one module graph. */
  createExpressApp: typeof CreateExpressApp;
  build: () => Promise<ServerBuild>;
  close(): Promise<void>;
}

/**
 * The React Router pages for integration tests, compiled on demand by Vite as `npm run dev`
 * does (no production build needed). The Express app comes from the same Vite module graph:
 * the pages' request context keys must be the very objects the app sets.
 *
 * One Vite server per test worker, shared by the files it runs: compiling the app's module
 * graph took each page suite 5 to 8 s, most of its time. Sharing it is safe for the reason the
 * workers keep their modules (vitest.config.ts): a suite's state lives in the app, services and
 * database it creates, never in a module. `close()` is therefore a no-op; the server ends with
 * its worker.
 */
let shared: Promise<PageServer> | undefined;

export function loadPages(): Promise<PageServer> {
  shared ??= startPages();
  // A failed start is tried again by the next suite, not reused.
  shared.catch(() => (shared = undefined));
  return shared;
}

async function startPages(): Promise<PageServer> {
  const vite: ViteDevServer = await createServer({
    root: join(import.meta.dirname, "../.."),
    // No HMR WebSocket: it would listen on Vite's fixed port 24678, which a second worker
    // loading pages at the same time (or another process) holds; a clash logs an error.
    server: { middlewareMode: true, hmr: false, ws: false, watch: null },
    appType: "custom",
    logLevel: "error",
  });
  const { createExpressApp } = (await vite.ssrLoadModule("/server/app.ts")) as {
    createExpressApp: typeof CreateExpressApp;
  };
  return {
    createExpressApp,
    build: () => vite.ssrLoadModule("virtual:react-router/server-build") as Promise<ServerBuild>,
    close: async () => {},
  };
}

export interface ServePagesOptions {
  /** The app's settings beside the test defaults (e.g. `WHITEPAPER_URL`). */
  env?: Partial<Omit<AppOptions["env"], "NODE_ENV" | "PUBLIC_URL">>;
  /** The services' settings beside `testServicesEnv`'s (e.g. `RESPONSE_CACHE_MB: 0`). */
  servicesEnv?: Partial<ServicesEnv>;
  /** The deps the app is given, made from the suite's (a query counter's, for instance). */
  appDeps?: (deps: Deps) => Deps;
}

/**
 * Serves the whole site (pages through Vite, API, services) on the suite's database on a free
 * port for the current suite: its base URL and its services, once started.
 */
export function servePages(
  deps: () => Deps,
  options: ServePagesOptions = {},
): { url: () => string; services: () => Services } {
  let pages: PageServer | undefined;
  let services: Services | undefined;
  let baseUrl = "";
  let close: () => Promise<void> = async () => {};
  beforeAll(async () => {
    pages = await loadPages();
    services = await createServices(
      deps(),
      testServicesEnv({ MAIL_POLL_MS: 60_000, ...options.servicesEnv }),
    );
    const app = pages.createExpressApp({
      deps: options.appDeps ? options.appDeps(deps()) : deps(),
      env: { NODE_ENV: "test", PUBLIC_URL: "http://localhost", ...options.env },
      services,
      build: pages.build,
    });
    ({ baseUrl, close } = await listenOnFreePort(app));
  }, 120_000);
  afterAll(async () => {
    await close();
    await services?.close();
    await pages?.close();
  });
  return {
    url: () => baseUrl,
    services: () => {
      if (!services) throw new Error("the site is not started");
      return services;
    },
  };
}

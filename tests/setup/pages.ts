import { join } from "node:path";
import type { ServerBuild } from "react-router";
import { createServer, type ViteDevServer } from "vite";
import type { createExpressApp as CreateExpressApp } from "../../server/app.ts";

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
 */
export async function loadPages(): Promise<PageServer> {
  const vite: ViteDevServer = await createServer({
    root: join(import.meta.dirname, "../.."),
    // No HMR WebSocket: it would listen on Vite's fixed port 24678, which a second suite
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
    close: () => vite.close(),
  };
}

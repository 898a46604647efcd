/**
 * The process: reads the environment, serves static files, loads the app (built in production,
 * through Vite in development) and listens. Run by Node 24 directly (type stripping).
 */
import { existsSync, realpathSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import compression from "compression";
import express from "express";
import { type Env, EnvError, parseEnv } from "./env.ts";
import { staticAssetHeaders } from "./middleware/security-headers.ts";

const rootDir = resolve(import.meta.dirname, "..");
if (existsSync(join(rootDir, ".env"))) process.loadEnvFile(join(rootDir, ".env"));

let env: Env;
try {
  env = parseEnv();
} catch (error) {
  if (!(error instanceof EnvError)) throw error;
  console.error(error.message);
  process.exit(1);
}

const server = express();
server.disable("x-powered-by");
// HTML, JS, CSS and JSON travel compressed; images are already. Answers from the response
// cache come compressed once, when stored: they are never compressed again.
server.use(
  compression({
    filter: (req, res) =>
      !(res as express.Response).locals.answeredFromCache && compression.filter(req, res),
  }),
);
type Entry = typeof import("./entry.ts");
let entry: Entry;
if (env.NODE_ENV === "production") {
  const buildEntry = join(rootDir, "build/server/index.js");
  if (!existsSync(buildEntry)) {
    console.error("No production build found: run `npm run build` first.");
    process.exit(1);
  }
  // Fingerprinted assets never change; everything else in build/client may. Both carry the
  // app's security headers (nosniff, the strict policy), as every other answer does.
  const setHeaders = staticAssetHeaders({ hsts: env.PUBLIC_URL.startsWith("https://") });
  server.use(
    "/assets",
    express.static(join(rootDir, "build/client/assets"), {
      immutable: true,
      maxAge: "1y",
      setHeaders,
    }),
  );
  server.use(
    express.static(join(rootDir, "build/client"), { maxAge: "1h", index: false, setHeaders }),
  );
  entry = (await import(pathToFileURL(buildEntry).href)) as Entry;
} else {
  const vite = await import("vite").then(({ createServer }) =>
    createServer({ server: { middlewareMode: true } }),
  );
  // Vite resolves the app's `react-router` with the development condition; packages Node
  // loads itself (@react-router/express) get whichever copy Node's own conditions pick. Two
  // copies make every page a 500 ("Invalid `context` value"), so refuse to start instead.
  const viteCopy = await vite.environments.ssr.pluginContainer.resolveId(
    "react-router",
    join(rootDir, "server/app.ts"),
  );
  const nodeCopy = fileURLToPath(import.meta.resolve("react-router"));
  if (!viteCopy || realpathSync(viteCopy.id) !== realpathSync(nodeCopy)) {
    console.error(
      `NODE_ENV=${env.NODE_ENV} needs Node's development condition, or every page fails: ` +
        "run `npm run dev` (node --conditions=development server/index.ts), " +
        "or `npm start` for production.",
    );
    await vite.close();
    process.exit(1);
  }
  server.use(vite.middlewares);
  entry = (await vite.ssrLoadModule("./server/entry.ts")) as Entry;
}

const { app, log, ops, close } = await entry.createApp(env, rootDir);
server.use(app);

const listener = server.listen(env.PORT, env.HOST, (error?: Error) => {
  if (error) throw error;
  const address = listener.address();
  const port = typeof address === "object" && address ? address.port : env.PORT;
  log.info({ port, url: `http://localhost:${port}` }, "Castellum is listening");
});

/** After the drain, closing the database, Redis and the mail worker may take at most this. */
const CLOSE_TIMEOUT_MS = 10_000;

/**
 * SIGTERM (or SIGINT): stop accepting connections, let in-flight requests finish for up to
 * SHUTDOWN_GRACE_SECONDS while /readyz answers 503 on connections still open, then close the
 * services and the database and exit 0. When the grace period runs out (or a second signal
 * comes), the remaining connections are cut and the process exits 1: a request was lost, and
 * the exit code says so. See docs/deployment.md.
 */
let exitCode: number | undefined;
async function shutDown(signal: NodeJS.Signals) {
  ops.startDraining();
  const graceMs = env.SHUTDOWN_GRACE_SECONDS * 1000;
  log.info(
    { signal, graceSeconds: env.SHUTDOWN_GRACE_SECONDS },
    "shutting down: draining requests",
  );
  const closed = new Promise<void>((resolve) => listener.close(() => resolve()));
  // Keep-alive sockets with no request in flight go now; the others go as their answer ends.
  listener.closeIdleConnections();
  const sweep = setInterval(() => listener.closeIdleConnections(), 100);
  let timer: NodeJS.Timeout | undefined;
  const isDrained = await Promise.race([
    closed.then(() => true),
    new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), graceMs);
    }),
    new Promise<false>((resolve) => process.once(signal, () => resolve(false))),
  ]);
  clearInterval(sweep);
  clearTimeout(timer);
  exitCode = isDrained ? 0 : 1;
  if (!isDrained) {
    log.warn("grace period over: closing the connections still open");
    listener.closeAllConnections();
    await closed;
  }
  const forceExit = setTimeout(() => {
    log.error("services did not close in time; exiting");
    process.exit(1);
  }, CLOSE_TIMEOUT_MS);
  forceExit.unref();
  try {
    await close();
  } catch (error) {
    log.error({ err: error }, "closing the services failed");
    exitCode = 1;
  }
  log.info({ exitCode }, "stopped");
  process.exit(exitCode);
}

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => void shutDown(signal));
}

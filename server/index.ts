/**
 * The process: reads the environment, serves static files, loads the app (built in production,
 * through Vite in development) and listens. Run by Node 24 directly (type stripping).
 */
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import compression from "compression";
import express from "express";
import { EnvError, parseEnv } from "./env.ts";

const rootDir = resolve(import.meta.dirname, "..");
if (existsSync(join(rootDir, ".env"))) process.loadEnvFile(join(rootDir, ".env"));

let env;
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
  // Fingerprinted assets never change; everything else in build/client may.
  server.use(
    "/assets",
    express.static(join(rootDir, "build/client/assets"), { immutable: true, maxAge: "1y" }),
  );
  server.use(express.static(join(rootDir, "build/client"), { maxAge: "1h", index: false }));
  entry = (await import(pathToFileURL(buildEntry).href)) as Entry;
} else {
  const vite = await import("vite").then(({ createServer }) =>
    createServer({ server: { middlewareMode: true } }),
  );
  server.use(vite.middlewares);
  entry = (await vite.ssrLoadModule("./server/entry.ts")) as Entry;
}

const { app, log, close } = await entry.createApp(env, rootDir);
server.use(app);

const listener = server.listen(env.PORT, env.HOST, (error?: Error) => {
  if (error) throw error;
  const address = listener.address();
  const port = typeof address === "object" && address ? address.port : env.PORT;
  log.info({ port, url: `http://localhost:${port}` }, "Castellum is listening");
});

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    listener.close(() => void close().finally(() => process.exit(0)));
    listener.closeAllConnections();
  });
}

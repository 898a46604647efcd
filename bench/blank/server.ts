/** Serves the blank baseline app's production build: `node bench/blank/server.ts <port>`. */
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { createRequestHandler } from "@react-router/express";
import compression from "compression";
import express from "express";
import type { ServerBuild } from "react-router";

const dir = import.meta.dirname;
const port = Number(process.argv[2] ?? 3100);
const build = (await import(pathToFileURL(join(dir, "build/server/index.js")).href)) as ServerBuild;
const app = express();
// As the real server: compressed text, and no router error logs for crawler probes.
app.use(compression());
app.get(["/robots.txt", "/favicon.ico"], (_req, res) => res.status(404).end());
app.use(
  "/assets",
  express.static(join(dir, "build/client/assets"), { immutable: true, maxAge: "1y" }),
);
app.use(express.static(join(dir, "build/client")));
app.use(createRequestHandler({ build, mode: "production" }));
app.listen(port, "127.0.0.1", (error?: Error) => {
  if (error) throw error;
});

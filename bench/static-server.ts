/**
 * The physical limit for bench:speed: a minimal node:http server that answers each path with
 * bytes captured once from the real server (status, headers and the body exactly as sent,
 * already compressed), from memory, doing no other work.
 *
 * `startStaticServer(responses)` runs it as a child process (`node bench/static-server.ts
 * <responses.json>`), so it has a core of its own like the server it stands in for.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type OutgoingHttpHeaders, request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { RunningServer } from "./servers.ts";

/** One captured answer: what a client sending `requestHeaders` to `path` received. */
export interface CapturedResponse {
  path: string;
  status: number;
  headers: OutgoingHttpHeaders;
  body: Buffer;
}

/** Headers about this connection or this moment, which the static server sets itself. */
const HOP_BY_HOP = new Set(["connection", "keep-alive", "transfer-encoding", "date"]);

/**
 * GETs `path` from `base` with `requestHeaders` and keeps the answer as it came over the wire
 * (no decompression, unlike fetch), with headers minus the hop-by-hop ones.
 */
export function captureResponse(
  base: string,
  path: string,
  requestHeaders: Record<string, string>,
): Promise<CapturedResponse> {
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, base), { headers: requestHeaders }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("error", reject);
      res.on("end", () => {
        const body = Buffer.concat(chunks);
        const headers: OutgoingHttpHeaders = {};
        for (const [name, value] of Object.entries(res.headers)) {
          if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = value;
        }
        headers["content-length"] = body.length;
        resolve({ path, status: res.statusCode ?? 0, headers, body });
      });
    });
    req.on("error", reject);
    req.end();
  });
}

interface StoredResponse {
  path: string;
  status: number;
  headers: OutgoingHttpHeaders;
  body: string;
}

/** Starts the static server on a free port with `responses`, keyed by path and query. */
export async function startStaticServer(responses: CapturedResponse[]): Promise<RunningServer> {
  const dir = mkdtempSync(join(tmpdir(), "castellum-static-"));
  const file = join(dir, "responses.json");
  const stored: StoredResponse[] = responses.map((r) => ({
    ...r,
    body: r.body.toString("base64"),
  }));
  writeFileSync(file, JSON.stringify(stored));
  const started = performance.now();
  const child = spawn(process.execPath, [import.meta.filename, file], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  try {
    // The child prints its port once listening.
    const port = await new Promise<number>((resolve, reject) => {
      let out = "";
      child.stdout.on("data", (chunk: Buffer) => {
        out += chunk.toString();
        const line = out.split("\n")[0];
        if (out.includes("\n") && line) resolve(Number(line));
      });
      child.once("exit", (code) => reject(new Error(`static server exited (${code})`)));
      child.once("error", reject);
    });
    return {
      url: `http://127.0.0.1:${port}`,
      readyMs: performance.now() - started,
      stop: () =>
        new Promise<void>((resolve) => {
          rmSync(dir, { recursive: true, force: true });
          if (child.exitCode !== null) return resolve();
          child.once("exit", () => resolve());
          child.kill("SIGTERM");
        }),
    };
  } catch (error) {
    child.kill("SIGTERM");
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

function serve(file: string) {
  const byPath = new Map<string, { status: number; headers: OutgoingHttpHeaders; body: Buffer }>();
  for (const r of JSON.parse(readFileSync(file, "utf8")) as StoredResponse[]) {
    byPath.set(r.path, {
      status: r.status,
      headers: r.headers,
      body: Buffer.from(r.body, "base64"),
    });
  }
  const server = createServer((req, res) => {
    const found = byPath.get(req.url ?? "");
    if (!found) {
      res.writeHead(404, { "content-length": 0 }).end();
      return;
    }
    res.writeHead(found.status, found.headers).end(found.body);
  });
  server.listen(0, "127.0.0.1", () => {
    const address = server.address();
    process.stdout.write(`${typeof address === "object" && address ? address.port : 0}\n`);
  });
  process.once("SIGTERM", () => {
    server.close();
    server.closeAllConnections();
  });
}

if (import.meta.main) {
  const file = process.argv[2];
  if (!file) throw new Error("usage: node bench/static-server.ts <responses.json>");
  serve(file);
}

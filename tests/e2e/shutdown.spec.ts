/**
 * SIGTERM on the real production process (server/index.ts on the build): it stops accepting
 * connections, lets the request in flight finish, closes its services and exits 0; when the
 * grace period runs out it cuts what is left and exits 1.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { freePort, ROOT } from "./server.ts";

interface Instance {
  port: number;
  process: ChildProcess;
  exited: Promise<number | null>;
}

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

async function startInstance(env: Record<string, string>): Promise<Instance> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), "castellum-shutdown-"));
  const child = spawn(process.execPath, ["server/index.ts"], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DATA_DIR: dataDir,
      DATABASE_URL: "",
      REDIS_URL: "",
      SEED_DEMO_CATALOGUE: "false",
      LOG_LEVEL: "warn",
      ...env,
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
  const exited = new Promise<number | null>((resolve) =>
    child.once("exit", (code) => resolve(code)),
  );
  cleanups.push(() => {
    if (child.exitCode === null) child.kill("SIGKILL");
    rmSync(dataDir, { recursive: true, force: true });
  });
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok)
        return { port, process: child, exited };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error("the server did not answer within 90 s");
}

/**
 * Starts `POST /api/property-owners/verify-email` and sends only the first bytes of its body:
 * the server holds a request in flight until `finish` sends the rest, slowly.
 */
async function startSlowPost(port: number) {
  const body = Buffer.from(JSON.stringify({ email: "nobody-here@unknown-estate.example" }));
  const req = request({
    host: "127.0.0.1",
    port,
    method: "POST",
    path: "/api/property-owners/verify-email",
    agent: false,
    headers: { "content-type": "application/json", "content-length": String(body.length) },
  });
  const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
    req.once("error", reject);
    req.once("response", (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (text += chunk));
      res.once("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
      res.once("error", reject);
    });
  });
  response.catch(() => {});
  await new Promise<void>((resolve) => req.write(body.subarray(0, 5), () => resolve()));
  // The write callback says the bytes left this process; give the server's event loop a
  // moment to accept the connection and parse the headers (there is no event to await for it).
  await new Promise((resolve) => setTimeout(resolve, 300));
  return {
    response,
    /** Sends the rest of the body over about `ms`, a few bytes at a time. */
    async finish(ms: number) {
      const rest = body.subarray(5);
      const step = Math.ceil(rest.length / 5);
      for (let offset = 0; offset < rest.length; offset += step) {
        await new Promise((resolve) => setTimeout(resolve, ms / 5));
        req.write(rest.subarray(offset, offset + step));
      }
      req.end();
    },
  };
}

/** Resolves once a new connection to the port is refused. */
async function refusedSoon(port: number): Promise<string> {
  const deadline = Date.now() + 5000;
  while (Date.now() < deadline) {
    try {
      await fetch(`http://127.0.0.1:${port}/healthz`, { headers: { connection: "close" } });
    } catch (error) {
      return String((error as { cause?: { code?: string } }).cause?.code);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return "still accepting";
}

describe("SIGTERM", () => {
  it("finishes the request in flight, refuses new connections and exits 0", async () => {
    const instance = await startInstance({ SHUTDOWN_GRACE_SECONDS: "10" });
    const slow = await startSlowPost(instance.port);
    instance.process.kill("SIGTERM");

    expect(await refusedSoon(instance.port)).toBe("ECONNREFUSED");
    expect(instance.process.exitCode).toBeNull();

    await slow.finish(1500);
    const answer = await slow.response;
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ propertyFound: false });
    expect(await instance.exited).toBe(0);
  });

  it("cuts what is still in flight when the grace period runs out, and exits 1", async () => {
    const instance = await startInstance({ SHUTDOWN_GRACE_SECONDS: "1" });
    const slow = await startSlowPost(instance.port);
    const started = Date.now();
    instance.process.kill("SIGTERM");

    expect(await instance.exited).toBe(1);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    await expect(slow.response).rejects.toThrow();
  });
});

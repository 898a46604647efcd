/**
 * SIGTERM on the real production process (server/index.ts on the build): it stops accepting
 * connections, lets the request in flight finish, closes its services and exits 0; when the
 * grace period runs out it cuts what is left and exits 1.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { request } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { dataTemplate } from "./harness.ts";
import { copyDataDir, freePort, ROOT } from "./server.ts";

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
  const dataDir = copyDataDir("shutdown", dataTemplate("migrated"));
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
      // Info, for the line that says the server listens (read from its standard output).
      LOG_LEVEL: "info",
      ...env,
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const exited = new Promise<number | null>((resolve) =>
    child.once("exit", (code) => resolve(code)),
  );
  cleanups.push(() => {
    if (child.exitCode === null) child.kill("SIGKILL");
    rmSync(dataDir, { recursive: true, force: true });
  });
  // Listening is an event the server logs; exiting first is a failure, and so is silence.
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    new Promise<void>((resolve) => {
      let output = "";
      child.stdout!.on("data", (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('"msg":"Castellum is listening"')) resolve();
      });
    }),
    exited.then((code) => {
      throw new Error(`the server exited with ${code}`);
    }),
    new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error("the server did not listen within 90 s")), 90_000);
    }),
  ]).finally(() => clearTimeout(timer));
  return { port, process: child, exited };
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
    headers: {
      "content-type": "application/json",
      "content-length": String(body.length),
      // The server answers 100 Continue once it has parsed the headers: the request is then
      // in flight there, which is the moment the test needs.
      expect: "100-continue",
    },
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
  req.flushHeaders();
  await new Promise<void>((resolve) => req.once("continue", resolve));
  await new Promise<void>((resolve) => req.write(body.subarray(0, 5), () => resolve()));
  return {
    response,
    /** Sends the rest of the body: until then the server waits for it. */
    finish() {
      req.end(body.subarray(5));
    },
  };
}

/** How a new connection to the port fares: "accepted", or the error's code. */
async function connect(port: number): Promise<string> {
  try {
    await fetch(`http://127.0.0.1:${port}/healthz`, { headers: { connection: "close" } });
    return "accepted";
  } catch (error) {
    return String((error as { cause?: { code?: string } }).cause?.code);
  }
}

describe("SIGTERM", () => {
  it("finishes the request in flight, refuses new connections and exits 0", async () => {
    const instance = await startInstance({ SHUTDOWN_GRACE_SECONDS: "10" });
    const slow = await startSlowPost(instance.port);
    instance.process.kill("SIGTERM");

    await expect.poll(() => connect(instance.port)).toBe("ECONNREFUSED");
    expect(instance.process.exitCode).toBeNull();

    slow.finish();
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

import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:net";
import { join } from "node:path";

export const ROOT = join(import.meta.dirname, "../..");

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

export interface RunningServer {
  baseURL: string;
  /** What the server logged so far (stdout), for lines such as the first-admin link. */
  log(): string;
  stop(): Promise<void>;
}

/**
 * Starts the production build (`server/index.ts`, NODE_ENV=production) on a free port with
 * `env` on top of the journeys' defaults, and waits until it answers. Stops it on failure.
 */
export async function startServer(env: Record<string, string>): Promise<RunningServer> {
  const port = await freePort();
  const baseURL = `http://127.0.0.1:${port}`;
  const server: ChildProcess = spawn(process.execPath, ["server/index.ts"], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      PUBLIC_URL: baseURL,
      DATABASE_URL: "",
      LOG_LEVEL: "warn",
      // A light proof of work and a quick mail worker keep the journeys fast; every journey
      // comes from 127.0.0.1, so the form limit is raised (limits have their own tests).
      ALTCHA_COST: "10",
      MAIL_POLL_MS: "200",
      RATE_LIMIT_FORMS_MAX: "1000",
      RATE_LIMIT_CHALLENGE_MAX: "1000",
      REDIS_URL: "",
      // Every /api answer is checked against its contract, as in the API suites: a route that
      // answers what its schema does not say fails the journey with a 500 naming it.
      API_CHECK_ANSWERS: "1",
      ...env,
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  let output = "";
  server.stdout?.on("data", (chunk: Buffer) => {
    process.stdout.write(chunk);
    output = (output + chunk.toString("utf8")).slice(-65_536);
  });
  const exited = new Promise<never>((_, reject) =>
    server.once("exit", (code) => reject(new Error(`The server exited early with code ${code}`))),
  );
  const stop = async () => {
    if (server.exitCode !== null) return;
    server.removeAllListeners("exit");
    const gone = new Promise((resolve) => server.once("exit", resolve));
    server.kill("SIGTERM");
    await gone;
  };
  const deadline = Date.now() + 90_000;
  const ready = (async () => {
    while (Date.now() < deadline) {
      try {
        if ((await fetch(`${baseURL}/api/castles`)).ok) return;
      } catch {
        // not listening yet
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    throw new Error("The server did not answer within 90 s");
  })();
  try {
    await Promise.race([ready, exited]);
  } catch (error) {
    await stop();
    throw error;
  }
  return { baseURL, log: () => output, stop };
}

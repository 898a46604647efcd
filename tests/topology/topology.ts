/**
 * Several real instances of the production server behind a real load balancer, without
 * containers: N processes of `server/index.ts` (NODE_ENV=production, the build in `build/`) on
 * one fresh PostgreSQL database and one Redis, with Debian's nginx in front (round robin; a
 * request that could not reach an instance goes to the next one only when that is safe).
 * Used by the browser journey `tests/e2e/topology.spec.ts` and by `npm run bench:faults`.
 *
 *   const topology = await startTopology({ instances: 2 });
 *   await fetch(`${topology.url}/api/castles`);       // through nginx
 *   await topology.instances[1]!.kill("SIGKILL");     // a fault
 *   await topology.instances[1]!.restart();
 *   await topology.stop();
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import {
  createWriteStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { freePort, ROOT } from "../e2e/server.ts";

/** Where PostgreSQL is when neither the caller nor TEST_DATABASE_URL says. */
export const DEFAULT_POSTGRES_URL = "postgres://postgres@127.0.0.1:5432/postgres";
export const NGINX_PATH = process.env.NGINX_PATH ?? "/usr/sbin/nginx";
export const REDIS_SERVER_PATH = process.env.REDIS_SERVER_PATH ?? "/usr/bin/redis-server";

export interface TopologyOptions {
  /** How many app instances (at least 1). */
  instances: number;
  /**
   * A PostgreSQL server to make the topology's database on (any database of it): a fresh
   * database is created there and dropped by stop(). Default: TEST_DATABASE_URL's server,
   * else DEFAULT_POSTGRES_URL.
   */
  databaseUrl?: string;
  /**
   * A streaming replica of `databaseUrl`'s server (its URL, any database): every instance reads
   * the topology's database on it too (DATABASE_REPLICA_URLS).
   */
  replicaUrl?: string;
  /**
   * Redis for every instance. Default: a redis-server of the topology's own on a free port
   * (no persistence, stopped by stop()), so no state is shared with other runs; without the
   * redis-server binary, TEST_REDIS_URL or redis://127.0.0.1:6379.
   */
  redisUrl?: string;
  /** Extra environment for every instance (SMTP_URL, limits, ...), on top of the defaults. */
  env?: Record<string, string>;
  /** Print the instances' and nginx's output (default: only kept in the log files). */
  verbose?: boolean;
}

export interface Instance {
  /** 1-based, as in "instance 1". */
  readonly index: number;
  /** Its own origin, bypassing the load balancer. */
  readonly url: string;
  readonly port: number;
  /** The current process's id (a new one after restart()); undefined while stopped. */
  readonly pid: number | undefined;
  readonly running: boolean;
  /** What the current process printed (stdout and stderr, the last 64 KiB). */
  log(): string;
  /**
   * Sends `signal` (default SIGTERM) and waits for the process to exit (at most `timeoutMs`,
   * then SIGKILL). Answers its exit code, or the signal that ended it.
   */
  kill(
    signal?: NodeJS.Signals,
    timeoutMs?: number,
  ): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Starts the process again on the same port (stopping it first if it runs); waits until ready. */
  restart(): Promise<void>;
}

export interface Topology {
  /** The load balancer's origin: the site's PUBLIC_URL. */
  readonly url: string;
  readonly instances: Instance[];
  /** The fresh database every instance uses. */
  readonly databaseUrl: string;
  readonly redisUrl: string;
  /** The Redis process the topology runs, if it runs its own. */
  readonly redisPid: number | undefined;
  /** Where the config, logs and the instances' DATA_DIRs are. */
  readonly dir: string;
  /** A query on the topology's database (its own short-lived connection). */
  query<Row extends Record<string, unknown>>(text: string, values?: unknown[]): Promise<Row[]>;
  /** Stops the instances (SIGTERM), nginx and the own Redis; drops the database. */
  stop(): Promise<void>;
}

/**
 * Every process a topology started and that still runs: if this process exits without stop()
 * (an interrupted run), each is sent SIGTERM rather than left behind.
 */
const children = new Set<ChildProcess>();
let exitHookInstalled = false;
function track(child: ChildProcess): ChildProcess {
  children.add(child);
  child.once("exit", () => children.delete(child));
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once("exit", () => {
      for (const running of children) running.kill("SIGTERM");
    });
  }
  return child;
}

/** How long an instance may take to answer after its start (migrations, the demo seed). */
const READY_TIMEOUT_MS = 90_000;
const LOG_TAIL = 65_536;

export function nginxAvailable(): boolean {
  return existsSync(NGINX_PATH);
}

/**
 * The load balancer's configuration: round robin over the instances; a request whose instance
 * could not be reached (connection refused or reset before an answer, or a connect timeout)
 * goes to the next one. nginx never passes a POST or PATCH on once it was sent to an instance
 * (no `non_idempotent`), so a write is never made twice by the balancer; clients retry those
 * with their Idempotency-Key.
 */
export function nginxConfig(options: { dir: string; port: number; upstreams: number[] }): string {
  const { dir, port, upstreams } = options;
  const servers = upstreams
    .map((upstream) => `    server 127.0.0.1:${upstream} max_fails=1 fail_timeout=2s;`)
    .join("\n");
  return `daemon off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/nginx-error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${dir}/nginx-body;
  proxy_temp_path ${dir}/nginx-proxy;
  fastcgi_temp_path ${dir}/nginx-fastcgi;
  uwsgi_temp_path ${dir}/nginx-uwsgi;
  scgi_temp_path ${dir}/nginx-scgi;
  upstream castellum {
${servers}
    keepalive 32;
  }
  server {
    listen 127.0.0.1:${port};
    client_max_body_size 25m;
    location / {
      proxy_pass http://castellum;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_next_upstream error timeout;
      proxy_next_upstream_tries ${upstreams.length};
      proxy_connect_timeout 2s;
      proxy_read_timeout 60s;
      proxy_buffering off;
    }
  }
}
`;
}

async function waitUntil(check: () => Promise<boolean>, timeoutMs: number, what: string) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${what} did not happen within ${Math.round(timeoutMs / 1000)} s`);
}

async function answers(url: string): Promise<boolean> {
  const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
  await response.body?.cancel();
  return response.ok;
}

async function withClient<T>(url: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

function exitOf(
  child: ChildProcess,
): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (child.exitCode !== null || child.signalCode !== null)
    return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  return new Promise((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
}

async function stopProcess(child: ChildProcess, signal: NodeJS.Signals, timeoutMs: number) {
  const exited = exitOf(child);
  if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
  try {
    return await exited;
  } finally {
    clearTimeout(timer);
  }
}

class AppInstance implements Instance {
  private child: ChildProcess | undefined;
  private output = "";
  readonly index: number;
  readonly port: number;
  private readonly env: Record<string, string>;
  private readonly logFile: string;
  private readonly verbose: boolean;

  constructor(
    index: number,
    port: number,
    env: Record<string, string>,
    logFile: string,
    verbose: boolean,
  ) {
    this.index = index;
    this.port = port;
    this.env = env;
    this.logFile = logFile;
    this.verbose = verbose;
  }

  get url() {
    return `http://127.0.0.1:${this.port}`;
  }

  get pid() {
    return this.running ? this.child?.pid : undefined;
  }

  get running() {
    return Boolean(this.child && this.child.exitCode === null && this.child.signalCode === null);
  }

  log() {
    return this.output;
  }

  /**
   * Starts the process and waits until it is ready. A development checkout's `build/` may be
   * in the middle of a rebuild (another `npm run build`): a start that found no build is tried
   * again, for up to two minutes.
   */
  async start(): Promise<void> {
    const deadline = Date.now() + 120_000;
    for (;;) {
      try {
        return await this.startOnce();
      } catch (error) {
        if (!this.output.includes("No production build found") || Date.now() > deadline)
          throw error;
        await new Promise((resolve) => setTimeout(resolve, 2000));
      }
    }
  }

  private async startOnce(): Promise<void> {
    this.output = "";
    const child = track(
      spawn(process.execPath, ["server/index.ts"], {
        cwd: ROOT,
        env: { ...process.env, ...this.env, PORT: String(this.port) },
        stdio: ["ignore", "pipe", "pipe"],
      }),
    );
    this.child = child;
    const file = createWriteStream(this.logFile, { flags: "a" });
    file.write(`--- instance ${this.index} started, pid ${child.pid}\n`);
    const keep = (chunk: Buffer) => {
      file.write(chunk);
      if (this.verbose) process.stdout.write(`[instance ${this.index}] ${chunk.toString("utf8")}`);
      this.output = (this.output + chunk.toString("utf8")).slice(-LOG_TAIL);
    };
    child.stdout?.on("data", keep);
    child.stderr?.on("data", keep);
    child.once("exit", () => file.end());
    const exitedEarly = exitOf(child).then(() => {
      // Let the last output arrive before it is quoted.
      return new Promise<never>((_, reject) =>
        setTimeout(
          () =>
            reject(
              new Error(`instance ${this.index} exited at start:\n${this.output.slice(-4000)}`),
            ),
          100,
        ),
      );
    });
    try {
      await Promise.race([
        waitUntil(
          () => answers(`${this.url}/readyz`),
          READY_TIMEOUT_MS,
          `instance ${this.index} answering /readyz`,
        ),
        exitedEarly,
      ]);
    } catch (error) {
      child.kill("SIGKILL");
      throw error;
    } finally {
      exitedEarly.catch(() => {});
    }
  }

  async kill(signal: NodeJS.Signals = "SIGTERM", timeoutMs = 30_000) {
    const child = this.child;
    if (!child) return { code: null, signal: null };
    return stopProcess(child, signal, timeoutMs);
  }

  async restart() {
    if (this.running) await this.kill("SIGTERM");
    await this.start();
  }
}

/** Starts the topology; on any failure, stops what it had started and throws. */
export async function startTopology(options: TopologyOptions): Promise<Topology> {
  if (options.instances < 1) throw new Error("a topology needs at least one instance");
  // A missing build may be one being rebuilt (another `npm run build`): wait a little for it.
  await waitUntil(
    async () => existsSync(join(ROOT, "build/server/index.js")),
    30_000,
    "a production build in build/ (run `npm run build` first)",
  );
  if (!nginxAvailable())
    throw new Error(
      `nginx is not installed at ${NGINX_PATH}: apt-get install -y nginx-light (or set NGINX_PATH).`,
    );

  const dir = mkdtempSync(join(tmpdir(), "castellum-topology-"));
  const cleanups: (() => Promise<void>)[] = [];
  const cleanUp = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
    rmSync(dir, { recursive: true, force: true });
  };

  try {
    // The database: a fresh one on the PostgreSQL server (PGlite admits one process).
    const serverUrl = options.databaseUrl ?? process.env.TEST_DATABASE_URL ?? DEFAULT_POSTGRES_URL;
    const name = `castellum_topology_${randomBytes(5).toString("hex")}`;
    await withClient(serverUrl, (client) => client.query(`create database ${name}`)).catch(
      (error: unknown) => {
        throw new Error(
          `The topology needs PostgreSQL: could not create a database on ${serverUrl} (${String(error)}). ` +
            "Set TEST_DATABASE_URL to a server where it may create databases.",
        );
      },
    );
    const database = new URL(serverUrl);
    database.pathname = `/${name}`;
    const databaseUrl = database.toString();
    const replica = options.replicaUrl ? new URL(options.replicaUrl) : null;
    if (replica) replica.pathname = `/${name}`;
    const replicaUrl = replica?.toString();
    cleanups.push(() =>
      withClient(serverUrl, (client) =>
        client.query(`drop database if exists ${name} with (force)`),
      ).then(() => {}),
    );

    // Redis: its own, unless told otherwise.
    let redisUrl = options.redisUrl;
    let redisPid: number | undefined;
    if (!redisUrl && existsSync(REDIS_SERVER_PATH)) {
      const redisPort = await freePort();
      const redis = track(
        spawn(
          REDIS_SERVER_PATH,
          ["--port", String(redisPort), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
          { cwd: dir, stdio: ["ignore", "ignore", "inherit"] },
        ),
      );
      cleanups.push(() => stopProcess(redis, "SIGTERM", 5000).then(() => {}));
      redisPid = redis.pid;
      redisUrl = `redis://127.0.0.1:${redisPort}`;
      await waitUntil(
        () =>
          new Promise<boolean>((resolve) => {
            const ping = spawn("redis-cli", ["-p", String(redisPort), "ping"], { stdio: "ignore" });
            ping.once("exit", (code) => resolve(code === 0));
            ping.once("error", () => resolve(false));
          }),
        10_000,
        "redis-server answering",
      );
    }
    redisUrl ??= process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

    const lbPort = await freePort();
    const url = `http://127.0.0.1:${lbPort}`;
    const ports: number[] = [];
    for (let i = 0; i < options.instances; i += 1) {
      let port = await freePort();
      while (ports.includes(port) || port === lbPort) port = await freePort();
      ports.push(port);
    }

    const instances = ports.map((port, i) => {
      const dataDir = join(dir, `instance-${i + 1}`);
      mkdirSync(dataDir, { recursive: true });
      return new AppInstance(
        i + 1,
        port,
        {
          NODE_ENV: "production",
          HOST: "127.0.0.1",
          PUBLIC_URL: url,
          DATA_DIR: dataDir,
          DATABASE_URL: databaseUrl,
          ...(replicaUrl ? { DATABASE_REPLICA_URLS: replicaUrl } : {}),
          REDIS_URL: redisUrl,
          LOG_LEVEL: "warn",
          // A light proof of work and a quick mail worker keep runs short; every client is
          // 127.0.0.1, so the per-IP form limits are raised (the limits have their own tests).
          ALTCHA_COST: "10",
          MAIL_POLL_MS: "200",
          RATE_LIMIT_FORMS_MAX: "100000",
          RATE_LIMIT_CHALLENGE_MAX: "100000",
          SMTP_URL: "",
          // Journeys sign in with a password alone; the second factor has its own tests.
          STAFF_MFA_REQUIRED: "false",
          ...options.env,
        },
        join(dir, `instance-${i + 1}.log`),
        options.verbose ?? false,
      );
    });
    cleanups.push(async () => {
      await Promise.all(instances.map((instance) => instance.kill("SIGTERM", 20_000)));
    });

    // Instance 1 first: it migrates the database, seeds the catalogue and makes the shared
    // secrets; the others then start on a ready database, as a rolling deployment would.
    await instances[0]!.start();
    await Promise.all(instances.slice(1).map((instance) => instance.start()));

    // nginx with a generated configuration, in the foreground, as a child of this process.
    const confFile = join(dir, "nginx.conf");
    writeFileSync(confFile, nginxConfig({ dir, port: lbPort, upstreams: ports }));
    execFileSync(NGINX_PATH, ["-t", "-q", "-p", dir, "-c", confFile], { stdio: "pipe" });
    const nginx = track(
      spawn(NGINX_PATH, ["-p", dir, "-c", confFile], {
        stdio: ["ignore", options.verbose ? "inherit" : "ignore", "inherit"],
      }),
    );
    // SIGQUIT: nginx's graceful stop.
    cleanups.push(() => stopProcess(nginx, "SIGQUIT", 5000).then(() => {}));
    await waitUntil(() => answers(`${url}/healthz`), 10_000, "nginx answering");

    let stopped = false;
    return {
      url,
      instances,
      databaseUrl,
      redisUrl,
      redisPid,
      dir,
      query: async <Row extends Record<string, unknown>>(text: string, values?: unknown[]) =>
        withClient(databaseUrl, async (client) => (await client.query<Row>(text, values)).rows),
      stop: async () => {
        if (stopped) return;
        stopped = true;
        await cleanUp();
      },
    };
  } catch (error) {
    await cleanUp();
    throw error;
  }
}

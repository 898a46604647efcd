import { execFileSync } from "node:child_process";
import { appendFileSync, chmodSync, chownSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * A PostgreSQL primary and a streaming replica of it, made for one test: `initdb`, then
 * `pg_basebackup -R` from the primary, each started with `pg_ctl` on a free port under a folder
 * of its own, as the `postgres` user when the test runs as root (PostgreSQL refuses root). The
 * machine's own PostgreSQL is not touched: replication needs settings it may not have.
 */
export interface ReplicaCluster {
  primaryUrl: string;
  /** The first replica's URL (of the `postgres` database: change the path for another). */
  replicaUrl: string;
  /** Every replica's, in order. */
  replicaUrls: string[];
  /** Runs SQL on the replica as a superuser (pause or resume its replay). */
  onReplica(sql: string): string;
  stopReplica(): void;
  close(): void;
}

const BIN = (() => {
  try {
    const dir = execFileSync("pg_config", ["--bindir"], { encoding: "utf8" }).trim();
    return (name: string) => join(dir, name);
  } catch {
    return (name: string) => `/usr/lib/postgresql/15/bin/${name}`;
  }
})();

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

export async function startReplicaCluster(
  options: { replicas?: number } = {},
): Promise<ReplicaCluster> {
  const count = options.replicas ?? 1;
  const root = mkdtempSync(join(tmpdir(), "castellum-replica-"));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    chmodSync(root, 0o755);
    const uid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim());
    const gid = Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }).trim());
    chownSync(root, uid, gid);
  }
  const run = (tool: string, args: string[]) =>
    asRoot
      ? execFileSync("runuser", ["-u", "postgres", "--", BIN(tool), ...args], {
          encoding: "utf8",
          stdio: ["ignore", "pipe", "pipe"],
        })
      : execFileSync(BIN(tool), args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  const primaryDir = join(root, "primary");
  const replicaDirs = Array.from({ length: count }, (_, i) => join(root, `replica-${i + 1}`));
  const primaryPort = await freePort();
  const replicaPorts: number[] = [];
  for (let i = 0; i < count; i += 1) replicaPorts.push(await freePort());
  const settings = (port: number) =>
    [
      `port = ${port}`,
      "listen_addresses = '127.0.0.1'",
      `unix_socket_directories = '${root}'`,
      "wal_level = replica",
      "max_wal_senders = 4",
      "hot_standby = on",
      "fsync = off",
      "full_page_writes = off",
      "shared_buffers = 16MB",
      "wal_receiver_status_interval = 1s",
      "",
    ].join("\n");
  const started: string[] = [];
  const stop = (dir: string) => {
    try {
      run("pg_ctl", ["-D", dir, "-m", "immediate", "-w", "stop"]);
    } catch {
      // Already stopped.
    }
  };
  try {
    run("initdb", ["-D", primaryDir, "-A", "trust", "-U", "postgres", "--no-sync"]);
    appendFileSync(join(primaryDir, "postgresql.conf"), settings(primaryPort));
    appendFileSync(
      join(primaryDir, "pg_hba.conf"),
      "host replication all 127.0.0.1/32 trust\nhost all all 127.0.0.1/32 trust\n",
    );
    run("pg_ctl", ["-D", primaryDir, "-l", join(root, "primary.log"), "-w", "start"]);
    started.push(primaryDir);
    for (const [i, replicaDir] of replicaDirs.entries()) {
      run("pg_basebackup", [
        "-h",
        "127.0.0.1",
        "-p",
        String(primaryPort),
        "-U",
        "postgres",
        "-D",
        replicaDir,
        "-R",
        "-X",
        "stream",
        "--no-sync",
      ]);
      appendFileSync(join(replicaDir, "postgresql.conf"), settings(replicaPorts[i]!));
      run("pg_ctl", ["-D", replicaDir, "-l", join(root, `replica-${i + 1}.log`), "-w", "start"]);
      started.push(replicaDir);
    }
  } catch (error) {
    for (const dir of started.reverse()) stop(dir);
    rmSync(root, { recursive: true, force: true });
    throw error;
  }
  const replicaUrls = replicaPorts.map((port) => `postgres://postgres@127.0.0.1:${port}/postgres`);
  return {
    primaryUrl: `postgres://postgres@127.0.0.1:${primaryPort}/postgres`,
    replicaUrl: replicaUrls[0]!,
    replicaUrls,
    onReplica: (sql) =>
      run("psql", [
        "-h",
        "127.0.0.1",
        "-p",
        String(replicaPorts[0]),
        "-U",
        "postgres",
        "-Atc",
        sql,
      ]),
    stopReplica: () => stop(replicaDirs[0]!),
    close() {
      for (const replicaDir of replicaDirs) stop(replicaDir);
      stop(primaryDir);
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/**
 * `npm run bench:intake`: sustained POST /api/booking-requests on the production server, on
 * PGlite and on PostgreSQL, with the real bot check (ALTCHA at the configured cost), the mail
 * outbox and idempotency. One request in ten is a retry of an earlier one (same
 * Idempotency-Key and body). Afterwards the database is counted: every 201 must name a request
 * stored exactly once, and retries must have stored nothing. The baseline of the same run is
 * GET /api/castles/{slug} on the same server.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import autocannon from "autocannon";
import { createChallenge, solveChallenge } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/pbkdf2";
import pg from "pg";
import { openDatabase } from "#db/client.ts";
import { guestRequests } from "#db/schema/index.ts";
import { validBookingRequest } from "#tests/setup/intake.ts";
import { ensureBuilds, startCastellum } from "./servers.ts";

const REQUESTS = Number(process.env.BENCH_INTAKE_REQUESTS ?? 2000);
const CONNECTIONS = Number(process.env.BENCH_INTAKE_CONNECTIONS ?? 10);
const ALTCHA_COST = Number(process.env.ALTCHA_COST ?? 5000);
const POSTGRES_URL =
  process.env.BENCH_DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  "postgres://postgres@127.0.0.1:5432/test";

/**
 * Tokens as the widget would send them. Each challenge is made with a known counter (ALTCHA's
 * deterministic mode), so the bench solves it at once; the server still verifies each one at
 * the full cost, which is what is measured.
 */
async function makeTokens(secret: string, count: number): Promise<string[]> {
  const tokens: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const challenge = await createChallenge({
      algorithm: "PBKDF2/SHA-256",
      cost: ALTCHA_COST,
      counter: 0,
      deriveKey,
      hmacSignatureSecret: secret,
      expiresAt: new Date(Date.now() + 3_600_000),
    });
    const solution = await solveChallenge({ challenge, deriveKey });
    tokens.push(Buffer.from(JSON.stringify({ challenge, solution })).toString("base64"));
  }
  return tokens;
}

interface Sent {
  key: string;
  body: string;
}

async function run(backend: "pglite" | "postgres") {
  const secret = randomBytes(32).toString("hex");
  const dataDir = mkdtempSync(join(tmpdir(), "castellum-intake-"));
  let databaseUrl = "";
  let dropDatabase = async () => {};
  if (backend === "postgres") {
    const name = `castellum_bench_${randomBytes(4).toString("hex")}`;
    const admin = new pg.Client({ connectionString: POSTGRES_URL });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const url = new URL(POSTGRES_URL);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
    dropDatabase = async () => {
      const client = new pg.Client({ connectionString: POSTGRES_URL });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    };
  }
  const server = await startCastellum(dataDir, {
    DATABASE_URL: databaseUrl,
    ALTCHA_HMAC_SECRET: secret,
    ALTCHA_COST: String(ALTCHA_COST),
    RATE_LIMIT_FORMS_MAX: "1000000",
    MAIL_POLL_MS: "1000",
  });

  const fresh = Math.ceil(REQUESTS * 0.9);
  const tokens = await makeTokens(secret, fresh);
  const sent: Sent[] = [];
  const created = new Map<string, number>();
  let replays = 0;
  let next = 0;

  const baseline = await autocannon({
    url: `${server.url}/api/castles/gordon-castle?lang=en`,
    connections: CONNECTIONS,
    duration: 5,
  });

  const started = performance.now();
  const result = await autocannon({
    url: server.url,
    connections: CONNECTIONS,
    amount: REQUESTS,
    requests: [
      {
        method: "POST",
        path: "/api/booking-requests",
        setupRequest(request) {
          const n = next++;
          // Every tenth request retries an earlier one: same key, same body.
          if (n % 10 === 9 && sent.length > 0) {
            replays += 1;
            const earlier = sent[Math.floor(Math.random() * sent.length)]!;
            return {
              ...request,
              headers: { "content-type": "application/json", "idempotency-key": earlier.key },
              body: earlier.body,
            };
          }
          const token = tokens.pop();
          if (!token) throw new Error("ran out of tokens");
          const key = randomUUID();
          const body = JSON.stringify({
            ...validBookingRequest({ email: `bench-${n}@example.com` }),
            turnstileToken: token,
          });
          sent.push({ key, body });
          return {
            ...request,
            headers: { "content-type": "application/json", "idempotency-key": key },
            body,
          };
        },
        onResponse(status, body) {
          if (status !== 201) return;
          const id = (JSON.parse(body) as { id: string }).id;
          created.set(id, (created.get(id) ?? 0) + 1);
        },
      },
    ],
  });
  const seconds = (performance.now() - started) / 1000;
  await server.stop();

  // Count what was stored, with the server stopped (PGlite is one process's).
  const handle = await openDatabase(databaseUrl ? { databaseUrl } : { dataDir });
  const rows = await handle.db.select({ id: guestRequests.id }).from(guestRequests);
  await handle.close();
  await dropDatabase();

  const stored = new Set(rows.map((row) => row.id));
  const answered201 = [...created.values()].reduce((sum, n) => sum + n, 0);
  const everyAnswerStored = [...created.keys()].every((id) => stored.has(id));
  const storedOnce = rows.length === stored.size && stored.size === created.size;
  const rate = result.requests.average;
  console.log(
    `${backend.padEnd(8)} ${String(Math.round(answered201 / seconds)).padStart(5)} 201/s sustained ` +
      `(autocannon avg ${Math.round(rate)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms); ` +
      `baseline GET /api/castles/gordon-castle ${Math.round(baseline.requests.average)} req/s ` +
      `(intake = x${(rate / baseline.requests.average).toFixed(2)})`,
  );
  console.log(
    `         ${REQUESTS} requests (${replays} retries): ${answered201} answered 201, ` +
      `${result.non2xx} other; ${created.size} distinct ids, ${rows.length} rows stored; ` +
      `every 201 stored exactly once: ${everyAnswerStored && storedOnce ? "yes" : "NO"}`,
  );
  if (!(everyAnswerStored && storedOnce) || result.non2xx > 0 || result.errors > 0) {
    process.exitCode = 1;
  }
}

ensureBuilds();
console.log(
  `bench:intake: POST /api/booking-requests, ${CONNECTIONS} connections, ALTCHA cost ${ALTCHA_COST}`,
);
await run("pglite");
await run("postgres");

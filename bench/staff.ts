/**
 * `npm run bench:staff`: the staff area on a full table. Guest requests are inserted straight
 * into a migrated database (100,000 on PostgreSQL, 10,000 on in-memory PGlite), then measured
 * through the real HTTP API with a signed-in admin: inbox pages (first, status filter, search,
 * a deep keyset page), the CSV export with this process's memory sampled, and sign-in (hashing
 * cost, equal timing for known and unknown emails, the per-account limit).
 *
 * The app runs in this process, as in the tests, so the RSS figures are the server's (plus the
 * small load generator's). Sizes: BENCH_STAFF_ROWS, BENCH_STAFF_PGLITE_ROWS; seconds per page
 * run: BENCH_STAFF_SECONDS; BENCH_STAFF_KEEP_DATABASE=1 leaves the PostgreSQL database in place
 * (for EXPLAIN ANALYZE) and prints its URL.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import autocannon from "autocannon";
import { sql } from "drizzle-orm";
import pg from "pg";
import pino from "pino";
import { loadPropertyContent } from "#content/load-properties.ts";
import { type Database, type DatabaseBackend, openDatabase } from "#db/client.ts";
import { guestRequests } from "#db/schema/index.ts";
import { slugify } from "#domain/catalogue/slug.ts";
import type { Deps } from "#domain/deps.ts";
import { hashStatusToken } from "#domain/requests/intake/reference.ts";
import {
  AMENITY_KEYS,
  BOOKING_TYPES,
  CASTELLUM_STATUSES,
  EXPERIENCE_STYLES,
  GENDERS,
  HEARD_ABOUT,
  INTERESTS,
  MEMBER_STATUSES,
  PAYMENT_METHODS,
  REGIONS,
  REQUEST_KINDS,
  REQUESTED_SERVICES,
  type RequestKind,
  type RequestStatus,
  statusesOf,
  TITLES,
} from "#domain/requests/options.ts";
import { hashPassword, verifyPassword } from "#domain/staff/passwords.ts";
import { STAFF_COLLECTIONS } from "#domain/staff/collections.ts";
import { createExpressApp } from "#server/app.ts";
import { createServices } from "#server/services.ts";
import { listenOnFreePort } from "#tests/setup/http.ts";
import {
  testServicesEnv,
  validBookingRequest,
  validMembership,
  validPropertyBooking,
} from "#tests/setup/intake.ts";
import { createTestStaff, signIn, STAFF_PASSWORD } from "#tests/setup/staff.ts";
import { ROOT } from "./servers.ts";

function sizeFromEnv(name: string, fallback: number): number {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer`);
  return value;
}

const POSTGRES_ROWS = sizeFromEnv("BENCH_STAFF_ROWS", 100_000);
const PGLITE_ROWS = sizeFromEnv("BENCH_STAFF_PGLITE_ROWS", 10_000);
const SECONDS = sizeFromEnv("BENCH_STAFF_SECONDS", 5);
const KEEP_DATABASE = process.env.BENCH_STAFF_KEEP_DATABASE === "1";
const POSTGRES_URL =
  process.env.BENCH_DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  "postgres://postgres@127.0.0.1:5432/test";

const CONNECTIONS = 4;
const INSERT_BATCH = 1000;
/** How many pages the deep keyset page lies behind the first one. */
const DEEP_PAGES = 20;
const ADMIN_EMAIL_DOMAIN = "castellum.test";
const LOGIN_MAX_PER_ACCOUNT = 10;
const LOGIN_WINDOW_MINUTES = 15;
const LOGIN_SAMPLES = 10;
const FLOOD_TRIES = 2000;

const TARGET_PAGE_P95_MS = 30;
const TARGET_EXPORT_GROWTH_MB = 100;
const TARGET_HASH_MS = [50, 250] as const;
/** Known and unknown emails are "the same" when their medians differ by less than this. */
const TARGET_TIMING_RATIO = [0.8, 1.25] as const;

/** One email domain in a hundred: the search benchmark looks for it (a few hundred rows). */
const SEARCH_FRAGMENT = "hartwell";

const DAY_MS = 86_400_000;
const MB = 1024 * 1024;

// ---------------------------------------------------------------- data

/** A small seeded generator (mulberry32), so every run inserts the same mix of values. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Random = () => number;

const between = (random: Random, min: number, max: number) =>
  min + Math.floor(random() * (max - min + 1));

function pick<T>(random: Random, list: readonly T[]): T {
  return list[Math.floor(random() * list.length)]!;
}

function weighted<T>(random: Random, shares: readonly (readonly [T, number])[]): T {
  let left = random() * shares.reduce((sum, [, share]) => sum + share, 0);
  for (const [value, share] of shares) {
    left -= share;
    if (left < 0) return value;
  }
  return shares.at(-1)![0];
}

/** `min` to `max` distinct entries of `list`, in the list's order (as a form sends them). */
function some<T>(random: Random, list: readonly T[], min: number, max: number): T[] {
  const wanted = between(random, min, max);
  const chosen = new Set<T>();
  while (chosen.size < wanted) chosen.add(pick(random, list));
  return list.filter((entry) => chosen.has(entry));
}

const isoDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);

const KIND_SHARES = [
  ["booking_request", 50],
  ["property_booking", 35],
  ["membership", 15],
] as const;
/** Shares of each kind's statuses, in workflow order: most requests are New or Contacted. */
const STATUS_SHARES = [30, 25, 20, 15, 10];
const LANGUAGE_SHARES = [
  ["en", 55],
  ["fr", 20],
  ["it", 15],
  ["zh", 10],
] as const;
type Language = (typeof LANGUAGE_SHARES)[number][0];

// prettier-ignore
const FIRST_NAMES = [
  "Ada", "Oliver", "Amelia", "George", "Isla", "Harry", "Charlotte", "Hélène", "Étienne",
  "Camille", "Aurélien", "Margaux", "François", "Giulia", "Lorenzo", "Chiara", "Matteo",
  "Francesca", "Niccolò", "Wei", "Li", "Mei", "Jun", "Xiaoling", "Haruto", "Sofía", "Mateo",
  "Ingrid", "Lars", "Zoë", "Chloé", "Anaïs", "Raphaël", "Søren", "Émile", "Priya", "Arjun",
  "Amara", "Kwame", "Eleanor",
];
// prettier-ignore
const LAST_NAMES = [
  "Lovelace", "Brunel", "Hopper", "Fitzwilliam", "Ashcombe", "Montague", "Beaumont",
  "de la Roche", "Dubois", "Lefèvre", "Rossi", "Bianchi", "Esposito", "Colonna", "Zhang", "Wang",
  "Chen", "Liu", "Yamamoto", "García", "O'Brien", "MacLeod", "van der Berg", "Nakamura", "Okafor",
  "Mensah", "Sharma", "Lindqvist", "Müller", "Schäfer", "Fontaine", "Ricci", "Moretti", "Greco",
  "Smith-Jones", "Carrington", "Pembroke", "Harcourt", "Devereux", "Sinclair",
];
const EMAIL_DOMAINS = [
  ["gmail.com", 30],
  ["outlook.com", 14],
  ["icloud.com", 10],
  ["yahoo.co.uk", 8],
  ["orange.fr", 8],
  ["libero.it", 7],
  ["qq.com", 6],
  ["proton.me", 5],
  ["gmx.de", 4],
  ["bluewin.ch", 4],
  ["wanadoo.fr", 3],
  [`${SEARCH_FRAGMENT}-estates.co.uk`, 1],
] as const;
const COUNTRIES = ["GB", "FR", "IT", "CN", "US", "CH", "DE", "HK", "SG", "AE", "ES", "NL"];
const BOOKING_GOALS = [
  "A wedding weekend for our two families.",
  "My parents' fortieth anniversary, with the grandchildren.",
  "A quiet week of walking and reading, far from the office.",
  "An offsite for our leadership team, with room to work and to eat well.",
  "A week of hunting and fishing with old friends from university.",
  "Somewhere magical to propose; she does not know yet.",
  "Our annual family reunion: three generations under one roof.",
  "A birthday dinner in a great hall, then a long lazy weekend.",
];
const SPECIAL_REQUESTS = [
  "",
  "",
  "",
  "Gluten-free menu for two guests, please.",
  "We travel with a small dog; is that possible?",
  "Arriving late on the first evening.\nCould someone leave the gate open?",
  "Step-free rooms for my grandmother.",
  "Quotes in euros, please.",
];
const REASONS_TO_JOIN = [
  "I restore old buildings and would love to meet people who care for them as much as I do.",
  "We host friends every summer and are looking for houses with history and a good kitchen.",
  "A friend who is a member spoke of the evenings in the library; I would like to join them.",
  "I collect wine and like to share it in places that have seen a few centuries of dinners.",
];

function asciiOf(name: string): string {
  return name
    .normalize("NFKD")
    .replace(/\p{Mn}/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]/g, "");
}

function phoneOf(random: Random, language: Language): string {
  const digits = (n: number) => Array.from({ length: n }, () => between(random, 0, 9)).join("");
  if (language === "fr") return `+33 6 ${digits(2)} ${digits(2)} ${digits(2)} ${digits(2)}`;
  if (language === "it") return `+39 3${digits(2)} ${digits(3)} ${digits(4)}`;
  if (language === "zh") return `+86 13${digits(1)} ${digits(4)} ${digits(4)}`;
  return random() < 0.5 ? `+44 20 7946 ${digits(4)}` : `+44 7700 ${digits(6)}`;
}

/** Crockford's base32, as the intake's references; uniqueness is checked against `taken`. */
const REFERENCE_ALPHABET = [..."0123456789ABCDEFGHJKMNPQRSTVWXYZ"];
const REFERENCE_PREFIX: Record<RequestKind, string> = {
  booking_request: "BR",
  property_booking: "PB",
  membership: "MA",
};

function referenceOf(random: Random, kind: RequestKind, taken: Set<string>): string {
  for (;;) {
    let code = "";
    for (let i = 0; i < 8; i++) code += pick(random, REFERENCE_ALPHABET);
    const reference = `${REFERENCE_PREFIX[kind]}-${code.slice(0, 4)}-${code.slice(4)}`;
    if (!taken.has(reference)) {
      taken.add(reference);
      return reference;
    }
  }
}

interface Estate {
  id: number;
  names: Record<Language, string>;
  slug: string;
  capacity: number;
}

function loadEstates(): Estate[] {
  return loadPropertyContent(join(ROOT, "content/properties")).map((property) => ({
    id: property.id,
    names: {
      en: property.content.en.name,
      fr: property.content.fr.name,
      it: property.content.it.name,
      zh: property.content.zh.name,
    },
    slug: slugify(property.content.en.name),
    capacity: property.guestCapacity,
  }));
}

type NewGuestRequest = typeof guestRequests.$inferInsert;

/** One stored request as the intake would have written it, with its form in `details`. */
function makeRequest(
  random: Random,
  now: number,
  estates: Estate[],
  taken: Set<string>,
): NewGuestRequest {
  const kind: RequestKind = weighted(random, KIND_SHARES);
  const language: Language = weighted(random, LANGUAGE_SHARES);
  const statuses = statusesOf(kind);
  const status: RequestStatus = weighted(
    random,
    statuses.map((value, i) => [value, STATUS_SHARES[i] ?? 1] as const),
  );
  const firstName = pick(random, FIRST_NAMES);
  const lastName = pick(random, LAST_NAMES);
  const suffix = random() < 0.6 ? String(between(random, 1, 99)) : "";
  const email = `${asciiOf(firstName)}.${asciiOf(lastName)}${suffix}@${weighted(random, EMAIL_DOMAINS)}`;
  const created = now - Math.floor(random() * 182 * DAY_MS);
  const updated =
    status === "New" ? created : Math.min(now, created + Math.floor(random() * 14 * DAY_MS));
  const start = created + between(random, 14, 300) * DAY_MS;
  const end = start + between(random, 2, 10) * DAY_MS;
  const specialRequests = pick(random, SPECIAL_REQUESTS);
  const row = {
    id: randomUUID(),
    kind,
    reference: referenceOf(random, kind, taken),
    status,
    version: status === "New" ? 1 : between(random, 2, 4),
    language,
    email,
    firstName,
    lastName,
    statusTokenHash: hashStatusToken(randomBytes(24).toString("base64url")),
    createdAt: new Date(created),
    updatedAt: new Date(updated),
  } satisfies Partial<NewGuestRequest>;

  if (kind === "booking_request") {
    const phone = phoneOf(random, language);
    const memberStatus = pick(random, MEMBER_STATUSES);
    const adults = between(random, 1, 24);
    const children = between(random, 0, 6);
    const details = validBookingRequest({
      firstName,
      lastName,
      email,
      phoneNumber: phone,
      memberStatus,
      countryOfResidence: pick(random, COUNTRIES),
      bookingType: some(random, BOOKING_TYPES, 1, 3),
      checkInDate: isoDate(start),
      checkOutDate: isoDate(end),
      flexibleDates: random() < 0.4,
      estimatedGuests: adults + children,
      adults,
      children,
      bedroomsRequired: Math.ceil((adults + children) / 2),
      preferredRegion: some(random, REGIONS, 1, 3),
      preferredAmenities: some(random, AMENITY_KEYS, 0, 4),
      requestedServices: some(random, REQUESTED_SERVICES, 0, 3),
      experienceStyle: some(random, EXPERIENCE_STYLES, 1, 2),
      privacyPriority: random() < 0.5,
      fullExclusivityNeeded: random() < 0.2,
      bookingGoal: pick(random, BOOKING_GOALS),
      heardAboutCastellum: pick(random, HEARD_ABOUT),
      specialRequests,
    });
    return { ...row, phone, memberStatus, propertyId: null, details };
  }
  if (kind === "property_booking") {
    const estate = pick(random, estates);
    const phone = phoneOf(random, language);
    const dateMode = random() < 0.6 ? "exact" : "flexible";
    const details = validPropertyBooking({
      propertyId: estate.id,
      // The intake names the estate in the guest's language and keeps its slug.
      propertyName: estate.names[language],
      propertySlug: estate.slug,
      firstName,
      lastName,
      email,
      phone,
      dateMode,
      startDate: isoDate(start),
      endDate: isoDate(end),
      flexibilityDays: dateMode === "flexible" ? between(random, 1, 14) : 0,
      numberOfGuests: between(random, 1, estate.capacity),
      castellumStatus: pick(random, CASTELLUM_STATUSES),
      paymentMethod: pick(random, PAYMENT_METHODS),
      specialRequests,
    });
    return { ...row, phone, memberStatus: null, propertyId: estate.id, details };
  }
  const handle = `${asciiOf(firstName)}${asciiOf(lastName)}`;
  const details = validMembership({
    title: pick(random, TITLES),
    firstName,
    lastName,
    gender: pick(random, GENDERS),
    email,
    otherClubMemberships: random() < 0.3 ? "Soho House, The Arts Club" : "",
    linkedinProfile: random() < 0.5 ? `https://www.linkedin.com/in/${handle}` : "",
    instagramHandle: random() < 0.4 ? `@${handle}` : "",
    xHandle: random() < 0.2 ? `@${handle}` : "",
    interests: some(random, INTERESTS, 1, 5),
    reasonToJoin: pick(random, REASONS_TO_JOIN),
  });
  return { ...row, phone: "", memberStatus: null, propertyId: null, details };
}

/** Inserts `total` requests in multi-row batches, then VACUUM ANALYZE; returns rows per kind. */
async function insertRequests(db: Database, total: number) {
  const random = seededRandom(20_240_611);
  const estates = loadEstates();
  const taken = new Set<string>();
  const now = Date.now();
  const perKind = Object.fromEntries(REQUEST_KINDS.map((kind) => [kind, 0])) as Record<
    RequestKind,
    number
  >;
  const started = performance.now();
  for (let done = 0; done < total; done += INSERT_BATCH) {
    const rows: NewGuestRequest[] = [];
    for (let i = done; i < Math.min(total, done + INSERT_BATCH); i++) {
      const row = makeRequest(random, now, estates, taken);
      perKind[row.kind] += 1;
      rows.push(row);
    }
    await db.insert(guestRequests).values(rows);
  }
  const insertMs = performance.now() - started;
  // A table that has lived six months has been vacuumed by autovacuum (visibility map set,
  // so counts are index-only scans); doing it now keeps autovacuum from landing mid-run.
  const analyzeStarted = performance.now();
  await db.execute(sql`vacuum analyze guest_requests`);
  const analyzeMs = performance.now() - analyzeStarted;
  const sizeResult = (await db.execute(
    sql`select pg_total_relation_size('guest_requests')::float8 as bytes`,
  )) as unknown as { rows: { bytes: number }[] };
  return { perKind, insertMs, analyzeMs, tableBytes: Number(sizeResult.rows[0]?.bytes ?? 0) };
}

// ---------------------------------------------------------------- figures

function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!;
}

const ms = (value: number) => (value >= 100 ? value.toFixed(0) : value.toFixed(1));
const mb = (bytes: number) => `${(bytes / MB).toFixed(1)} MB`;
const thousands = (n: number) => n.toLocaleString("en-GB");

interface SummaryRow {
  backend: string;
  measure: string;
  figure: string;
  target: string;
  verdict: "ok" | "OVER" | "MISS" | "";
}

const summary: SummaryRow[] = [];

function record(row: SummaryRow) {
  summary.push(row);
}

function printSummary() {
  const headers = ["backend", "measure", "figure", "target", ""];
  const cells = summary.map((row) => [
    row.backend,
    row.measure,
    row.figure,
    row.target,
    row.verdict,
  ]);
  const widths = headers.map((header, i) =>
    Math.max(header.length, ...cells.map((line) => line[i]!.length)),
  );
  const line = (values: string[]) =>
    values
      .map((value, i) => value.padEnd(widths[i]!))
      .join("  ")
      .trimEnd();
  console.log("\nsummary");
  console.log(line(headers));
  console.log(line(widths.map((width) => "-".repeat(width))));
  for (const row of cells) console.log(line(row));
}

// ---------------------------------------------------------------- server

interface StaffServer {
  url: string;
  cookie: string;
  deps: Deps;
  close(): Promise<void>;
}

/**
 * The Express app with its services, as the tests serve it, on a free port, and an admin at
 * ADMIN_EMAIL_DOMAIN signed in through POST /api/admin/login. Errors are logged (a 500 is
 * never hidden); the limiter's warnings are not, there are thousands of them by design.
 */
async function serveStaff(db: Database): Promise<StaffServer> {
  const deps: Deps = { db, log: pino({ level: "error" }, pino.destination(2)) };
  const dataDir = mkdtempSync(join(tmpdir(), "castellum-staff-"));
  const env = testServicesEnv({
    DATA_DIR: dataDir,
    MAIL_POLL_MS: 60_000,
    ADMIN_EMAIL_DOMAIN,
    LOGIN_MAX_PER_ACCOUNT,
    // Only the per-account limit is measured; the per-IP one would cut in first on loopback.
    LOGIN_MAX_PER_IP: 100_000,
    LOGIN_WINDOW_MINUTES,
  });
  const services = await createServices(deps, env);
  const app = createExpressApp({
    deps,
    env: { NODE_ENV: "test", PUBLIC_URL: env.PUBLIC_URL },
    services,
  });
  const server = await listenOnFreePort(app);
  const admin = `admin@${ADMIN_EMAIL_DOMAIN}`;
  await createTestStaff(deps, admin, { isAdmin: true });
  const cookie = await signIn(server.baseUrl, admin);
  return {
    url: server.baseUrl,
    cookie,
    deps,
    async close() {
      await server.close();
      await services.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

// ---------------------------------------------------------------- inbox pages

interface Probe {
  items: {
    status: string;
    email: string;
    firstName: string;
    lastName: string;
    createdAt: string;
  }[];
  total: number;
  next: string | null;
}

async function probe(server: StaffServer, path: string): Promise<Probe> {
  const response = await fetch(`${server.url}${path}`, { headers: { cookie: server.cookie } });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`GET ${path}: ${response.status} ${text}`);
  const link = /<([^>]+)>;\s*rel="next"/.exec(response.headers.get("link") ?? "");
  const next = link ? new URL(link[1]!) : null;
  return {
    items: JSON.parse(text) as Probe["items"],
    total: Number(response.headers.get("x-total-count")),
    next: next ? `${next.pathname}${next.search}` : null,
  };
}

interface LoadFigures {
  p50: number;
  p95: number;
  p99: number;
  rps: number;
  requests: number;
  statuses: Map<number, number>;
  errors: number;
}

/** autocannon at CONNECTIONS connections; percentiles from every response's own time. */
async function load(options: autocannon.Options): Promise<LoadFigures> {
  const latencies: number[] = [];
  const statuses = new Map<number, number>();
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon({ connections: CONNECTIONS, ...options }, (error, done) =>
      error ? reject(error) : resolve(done),
    );
    instance.on("response", (_client, status, _bytes, time) => {
      latencies.push(time);
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    });
  });
  return {
    p50: percentile(latencies, 0.5),
    p95: percentile(latencies, 0.95),
    p99: percentile(latencies, 0.99),
    rps: latencies.length / result.duration,
    requests: latencies.length,
    statuses,
    errors: result.errors + result.timeouts,
  };
}

const statusText = (statuses: Map<number, number>) =>
  [...statuses]
    .sort(([a], [b]) => a - b)
    .map(([status, n]) => `${status}×${thousands(n)}`)
    .join(" ");

async function benchPage(
  backend: DatabaseBackend,
  server: StaffServer,
  label: string,
  path: string,
  check: (page: Probe) => string | null,
) {
  const page = await probe(server, path);
  const problem = check(page);
  if (problem) throw new Error(`${label} (${path}): ${problem}`);
  await load({ url: `${server.url}${path}`, duration: 1, headers: { cookie: server.cookie } });
  const figures = await load({
    url: `${server.url}${path}`,
    duration: SECONDS,
    headers: { cookie: server.cookie },
  });
  const non2xx = [...figures.statuses].filter(([status]) => status < 200 || status > 299);
  const verdict = figures.p95 <= TARGET_PAGE_P95_MS ? "ok" : "OVER";
  console.log(
    `  ${label.padEnd(14)} p50 ${ms(figures.p50).padStart(5)} ms  p95 ${ms(figures.p95).padStart(5)} ms` +
      `  p99 ${ms(figures.p99).padStart(5)} ms  ${Math.round(figures.rps).toString().padStart(5)} req/s` +
      `  (${thousands(page.total)} rows match; target p95 <= ${TARGET_PAGE_P95_MS} ms: ${verdict})` +
      `  ${path}`,
  );
  record({
    backend,
    measure: `page: ${label}`,
    figure: `p50 ${ms(figures.p50)} / p95 ${ms(figures.p95)} / p99 ${ms(figures.p99)} ms, ${Math.round(figures.rps)} req/s`,
    target: `p95 <= ${TARGET_PAGE_P95_MS} ms`,
    verdict,
  });
  if (non2xx.length > 0 || figures.errors > 0)
    throw new Error(
      `${label}: ${statusText(figures.statuses)}, ${figures.errors} connection errors or timeouts`,
    );
}

async function benchPages(backend: DatabaseBackend, server: StaffServer, perKind: number) {
  const path = STAFF_COLLECTIONS.booking_request;
  console.log(
    `inbox pages (${CONNECTIONS} connections, ${SECONDS} s each after 1 s of warm-up, in-process server):`,
  );
  await benchPage(backend, server, "first page", `/api${path}`, (page) =>
    page.total !== perKind
      ? `X-Total-Count ${page.total}, expected ${perKind}`
      : page.items.length === 0
        ? "no rows"
        : null,
  );
  await benchPage(backend, server, "status filter", `/api${path}?status=Contacted`, (page) =>
    page.items.length === 0 || page.items.some((item) => item.status !== "Contacted")
      ? "not only Contacted rows"
      : null,
  );
  await benchPage(backend, server, "search", `/api${path}?q=${SEARCH_FRAGMENT}`, (page) =>
    page.items.length === 0 || page.items.some((item) => !item.email.includes(SEARCH_FRAGMENT))
      ? "rows that do not match the search"
      : null,
  );
  // Follow the Link header as the inbox's "next" button does.
  const first = await probe(server, `/api${path}`);
  let deep = first;
  let deepPath = `/api${path}`;
  let hops = 0;
  while (hops < DEEP_PAGES && deep.next) {
    deepPath = deep.next;
    deep = await probe(server, deepPath);
    hops += 1;
  }
  if (hops === 0)
    throw new Error("the first page has no next page: too few rows for keyset paging");
  await benchPage(backend, server, `page ${hops + 1}`, deepPath, (page) =>
    page.items.length === 0 || page.items[0]!.createdAt > first.items.at(-1)!.createdAt
      ? "the deep page is not older than the first"
      : null,
  );
}

// ---------------------------------------------------------------- CSV export

// A full collection before and after a measurement tells memory still held from garbage V8
// has not collected yet (it grows the heap lazily). Benchmark only: the flag is set at run time.
setFlagsFromString("--expose-gc");
const collectGarbage = runInNewContext("gc") as () => void;

/** Samples this process's memory every 50 ms until stopped (after a full collection). */
function watchMemory() {
  collectGarbage();
  const before = process.memoryUsage();
  const samples: NodeJS.MemoryUsage[] = [];
  const timer = setInterval(() => samples.push(process.memoryUsage()), 50);
  return {
    stop() {
      clearInterval(timer);
      samples.push(process.memoryUsage());
      const highest = (of: (sample: NodeJS.MemoryUsage) => number, from = 0, to = samples.length) =>
        Math.max(of(before), ...samples.slice(from, to).map(of));
      // The highest RSS of each quarter of the run: flat, or climbing with the rows?
      const quarters = [0, 1, 2, 3].map((q) => {
        const from = Math.floor((q * samples.length) / 4);
        return highest(
          (sample) => sample.rss,
          from,
          Math.max(from + 1, Math.floor(((q + 1) * samples.length) / 4)),
        );
      });
      collectGarbage();
      const after = process.memoryUsage();
      return {
        before: before.rss,
        peak: highest((sample) => sample.rss),
        growth: highest((sample) => sample.rss) - before.rss,
        quarters,
        /** Growth of V8's heap and of memory outside it (Buffers), each at its own peak. */
        heapGrowth: highest((sample) => sample.heapTotal) - before.heapTotal,
        externalGrowth: highest((sample) => sample.external) - before.external,
        heapHeld: after.heapUsed - before.heapUsed,
      };
    },
  };
}

function memoryText(memory: ReturnType<ReturnType<typeof watchMemory>["stop"]>): string {
  return (
    `RSS before ${mb(memory.before)}, peak ${mb(memory.peak)}, growth ${mb(memory.growth)}` +
    ` (target < ${TARGET_EXPORT_GROWTH_MB} MB: ${memory.growth < TARGET_EXPORT_GROWTH_MB * MB ? "ok" : "OVER"});` +
    ` peak per quarter of the run ${memory.quarters.map((rss) => (rss / MB).toFixed(0)).join(" / ")} MB;` +
    ` V8 heap +${mb(memory.heapGrowth)}, buffers +${mb(memory.externalGrowth)} at their peaks;` +
    ` heap still held after a full GC ${(memory.heapHeld / MB).toFixed(1)} MB`
  );
}

interface Download {
  firstByteMs: number;
  lastByteMs: number;
  bytes: number;
  rows: number;
}

/** Downloads a CSV, counting its records (newlines outside quotes) without keeping it. */
function downloadCsv(url: string, cookie: string): Promise<Download> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { headers: { cookie } }, (response) => {
      const firstByteMs = performance.now() - started;
      if (
        response.statusCode !== 200 ||
        !response.headers["content-type"]?.startsWith("text/csv")
      ) {
        response.resume();
        return reject(new Error(`GET ${url}: ${response.statusCode}`));
      }
      let bytes = 0;
      let records = 0;
      let quoted = false;
      response.on("data", (chunk: Buffer) => {
        bytes += chunk.length;
        for (let i = 0; i < chunk.length; i++) {
          const byte = chunk[i];
          if (byte === 0x22) quoted = !quoted;
          else if (byte === 0x0a && !quoted) records += 1;
        }
      });
      response.on("error", reject);
      response.on("end", () => {
        if (!response.complete)
          return reject(new Error(`GET ${url}: cut off after ${bytes} bytes`));
        // The first record is the header.
        resolve({ firstByteMs, lastByteMs: performance.now() - started, bytes, rows: records - 1 });
      });
    });
    request.on("error", reject);
    request.end();
  });
}

async function benchExport(
  backend: DatabaseBackend,
  server: StaffServer,
  perKind: Record<RequestKind, number>,
) {
  console.log("CSV export (RSS of this process sampled every 50 ms):");
  const memory = watchMemory();
  let bytes = 0;
  let rows = 0;
  let seconds = 0;
  for (const kind of REQUEST_KINDS) {
    const download = await downloadCsv(
      `${server.url}/api${STAFF_COLLECTIONS[kind]}/export.csv`,
      server.cookie,
    );
    if (download.rows !== perKind[kind])
      throw new Error(`${kind} export: ${download.rows} rows, expected ${perKind[kind]}`);
    bytes += download.bytes;
    rows += download.rows;
    seconds += download.lastByteMs / 1000;
    console.log(
      `  ${kind.padEnd(17)} ${thousands(download.rows).padStart(7)} rows  ${mb(download.bytes).padStart(8)}` +
        `  first byte ${ms(download.firstByteMs)} ms, last byte ${(download.lastByteMs / 1000).toFixed(2)} s` +
        `  (${thousands(Math.round(download.rows / (download.lastByteMs / 1000)))} rows/s; rows = stored: yes)`,
    );
  }
  const sequential = memory.stop();
  const growthVerdict = sequential.growth < TARGET_EXPORT_GROWTH_MB * MB ? "ok" : "OVER";
  console.log(
    `  all three        ${thousands(rows).padStart(7)} rows  ${mb(bytes).padStart(8)}  in ${seconds.toFixed(2)} s`,
  );
  console.log(`    ${memoryText(sequential)}`);
  record({
    backend,
    measure: `CSV export, ${thousands(rows)} rows`,
    figure: `${seconds.toFixed(2)} s, ${mb(bytes)}, RSS +${mb(sequential.growth)}, held ${mb(sequential.heapHeld)}`,
    target: `RSS growth < ${TARGET_EXPORT_GROWTH_MB} MB`,
    verdict: growthVerdict,
  });

  const largest = REQUEST_KINDS.reduce((a, b) => (perKind[b] > perKind[a] ? b : a));
  const concurrentMemory = watchMemory();
  const started = performance.now();
  const downloads = await Promise.all(
    Array.from({ length: 4 }, () =>
      downloadCsv(`${server.url}/api${STAFF_COLLECTIONS[largest]}/export.csv`, server.cookie),
    ),
  );
  const wallSeconds = (performance.now() - started) / 1000;
  const concurrent = concurrentMemory.stop();
  if (downloads.some((download) => download.rows !== perKind[largest]))
    throw new Error(
      `concurrent ${largest} exports: ${downloads.map((d) => d.rows).join(", ")} rows`,
    );
  const concurrentVerdict = concurrent.growth < TARGET_EXPORT_GROWTH_MB * MB ? "ok" : "OVER";
  console.log(
    `  4 × ${largest} at once: ${thousands(4 * perKind[largest])} rows in ${wallSeconds.toFixed(2)} s`,
  );
  console.log(`    ${memoryText(concurrent)}`);
  record({
    backend,
    measure: `CSV export, 4 at once × ${thousands(perKind[largest])}`,
    figure: `${wallSeconds.toFixed(2)} s, RSS +${mb(concurrent.growth)}, held ${mb(concurrent.heapHeld)}`,
    target: `RSS growth < ${TARGET_EXPORT_GROWTH_MB} MB`,
    verdict: concurrentVerdict,
  });
}

// ---------------------------------------------------------------- sign-in

async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await work();
  return { ms: performance.now() - started, value };
}

/** The cost of one hash and one verification (no server, no database). */
async function benchHashing() {
  const hashes: number[] = [];
  const verifications: number[] = [];
  let stored = "";
  for (let i = 0; i < LOGIN_SAMPLES; i++) {
    const hash = await timed(() => hashPassword(STAFF_PASSWORD));
    hashes.push(hash.ms);
    stored = hash.value;
  }
  for (let i = 0; i < LOGIN_SAMPLES; i++) {
    const check = await timed(() => verifyPassword(stored, STAFF_PASSWORD));
    if (!check.value) throw new Error("verifyPassword refused the password it was made from");
    verifications.push(check.ms);
  }
  const [low, high] = TARGET_HASH_MS;
  console.log(`password hashing (${stored.split("$")[1]}, ${LOGIN_SAMPLES} calls each):`);
  for (const [name, values] of [
    ["hashPassword", hashes],
    ["verifyPassword", verifications],
  ] as const) {
    const median = percentile(values, 0.5);
    const verdict = median >= low && median <= high ? "ok" : "MISS";
    console.log(
      `  ${name.padEnd(15)} median ${ms(median)} ms, p95 ${ms(percentile(values, 0.95))} ms` +
        ` (target ${low}-${high} ms: ${verdict})`,
    );
    record({
      backend: "-",
      measure: name,
      figure: `median ${ms(median)} / p95 ${ms(percentile(values, 0.95))} ms`,
      target: `${low}-${high} ms`,
      verdict,
    });
  }
}

function attemptLogin(url: string, email: string, password: string) {
  return timed(async () => {
    const response = await fetch(`${url}/api/admin/login`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email, password }),
    });
    await response.arrayBuffer();
    return response.status;
  });
}

async function benchLogin(backend: DatabaseBackend, server: StaffServer) {
  console.log("sign-in through POST /api/admin/login:");
  const known = `timing@${ADMIN_EMAIL_DOMAIN}`;
  const unknown = `nobody@${ADMIN_EMAIL_DOMAIN}`;
  await createTestStaff(server.deps, known);
  // Alternated, so that drift in the machine's load falls on both alike. Ten tries per
  // account is exactly the limit, so every one of them is answered (401), none refused.
  const knownMs: number[] = [];
  const unknownMs: number[] = [];
  for (let i = 0; i < LOGIN_SAMPLES; i++) {
    for (const [email, into] of [
      [known, knownMs],
      [unknown, unknownMs],
    ] as const) {
      const attempt = await attemptLogin(server.url, email, "not-the-password-at-all");
      if (attempt.value !== 401) throw new Error(`wrong password for ${email}: ${attempt.value}`);
      into.push(attempt.ms);
    }
  }
  const ratio = percentile(knownMs, 0.5) / percentile(unknownMs, 0.5);
  const [low, high] = TARGET_TIMING_RATIO;
  const ratioVerdict = ratio >= low && ratio <= high ? "ok" : "MISS";
  console.log(
    `  wrong password, known email    median ${ms(percentile(knownMs, 0.5))} ms, p95 ${ms(percentile(knownMs, 0.95))} ms`,
  );
  console.log(
    `  wrong password, unknown email  median ${ms(percentile(unknownMs, 0.5))} ms, p95 ${ms(percentile(unknownMs, 0.95))} ms`,
  );
  console.log(`  known / unknown = ${ratio.toFixed(2)} (target ${low}-${high}: ${ratioVerdict})`);
  record({
    backend,
    measure: "login, wrong password: known/unknown",
    figure: `${ms(percentile(knownMs, 0.5))} / ${ms(percentile(unknownMs, 0.5))} ms = ${ratio.toFixed(2)}`,
    target: `ratio ${low}-${high}`,
    verdict: ratioVerdict,
  });

  // One try after another at one account: where does the limiter start refusing?
  const sequential = `limit@${ADMIN_EMAIL_DOMAIN}`;
  await createTestStaff(server.deps, sequential);
  const statuses: number[] = [];
  for (let i = 0; i < LOGIN_MAX_PER_ACCOUNT + 5; i++)
    statuses.push((await attemptLogin(server.url, sequential, "wrong-password-again")).value);
  const firstRefusal = statuses.indexOf(429);
  const allowed = firstRefusal < 0 ? statuses.length : firstRefusal;
  const afterwards = statuses.slice(allowed);
  const limitVerdict =
    allowed === LOGIN_MAX_PER_ACCOUNT &&
    statuses.slice(0, allowed).every((s) => s === 401) &&
    afterwards.every((s) => s === 429)
      ? "ok"
      : "MISS";
  console.log(
    `  one account, one try at a time: ${allowed} answered 401, then ${afterwards.length} of ${afterwards.length} refused` +
      ` (${[...new Set(afterwards)].join(", ") || "none"}); window ${LOGIN_WINDOW_MINUTES} min` +
      ` (expected ${LOGIN_MAX_PER_ACCOUNT} tries: ${limitVerdict})`,
  );

  // Thirty at once at a fresh account: the counter must not let more than ten through.
  const burst = `burst@${ADMIN_EMAIL_DOMAIN}`;
  await createTestStaff(server.deps, burst);
  const burstStatuses = await Promise.all(
    Array.from({ length: 30 }, () =>
      attemptLogin(server.url, burst, "wrong-password-again").then((attempt) => attempt.value),
    ),
  );
  const burstAllowed = burstStatuses.filter((s) => s === 401).length;
  const burstRefused = burstStatuses.filter((s) => s === 429).length;
  const burstVerdict =
    burstAllowed === LOGIN_MAX_PER_ACCOUNT && burstRefused === 30 - LOGIN_MAX_PER_ACCOUNT
      ? "ok"
      : "MISS";
  console.log(
    `  one account, 30 tries at once: ${burstAllowed} answered 401, ${burstRefused} refused 429` +
      ` (expected ${LOGIN_MAX_PER_ACCOUNT}: ${burstVerdict})`,
  );

  // Then as fast as autocannon can at the exhausted account: every answer must be a refusal.
  // A fixed number of tries rather than a duration, so that none is still being answered
  // when the database closes.
  const flood = await load({
    url: `${server.url}/api/admin/login`,
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: burst, password: "wrong-password-again" }),
    amount: FLOOD_TRIES,
  });
  const refused = flood.statuses.get(429) ?? 0;
  const floodVerdict = refused === flood.requests && flood.errors === 0 ? "ok" : "MISS";
  console.log(
    `  flood of the limited account: ${thousands(flood.requests)} tries, ${((100 * refused) / flood.requests).toFixed(1)}% refused 429` +
      ` (${statusText(flood.statuses)}), ${Math.round(flood.rps)} refusals/s, p50 ${ms(flood.p50)} ms, p99 ${ms(flood.p99)} ms (${floodVerdict})`,
  );
  record({
    backend,
    measure: "login limit per account",
    figure: `${allowed} in a row, ${burstAllowed} of 30 at once; flood ${((100 * refused) / flood.requests).toFixed(0)}% 429 at ${Math.round(flood.rps)}/s`,
    target: `${LOGIN_MAX_PER_ACCOUNT} per window, rest 429`,
    verdict:
      limitVerdict === "ok" && burstVerdict === "ok" && floodVerdict === "ok" ? "ok" : "MISS",
  });
}

// ---------------------------------------------------------------- one backend

async function openBench(backend: DatabaseBackend) {
  if (backend === "pglite") {
    const handle = await openDatabase({ memory: true });
    return { handle, dispose: () => handle.close() };
  }
  const name = `castellum_bench_${randomBytes(4).toString("hex")}`;
  const adminQuery = async (statement: string) => {
    const client = new pg.Client({ connectionString: POSTGRES_URL });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await adminQuery(`create database ${name}`);
  const url = new URL(POSTGRES_URL);
  url.pathname = `/${name}`;
  const handle = await openDatabase({ databaseUrl: url.toString() });
  return {
    handle,
    async dispose() {
      await handle.close();
      if (KEEP_DATABASE) console.log(`kept the database: ${url}`);
      else await adminQuery(`drop database if exists ${name} with (force)`);
    },
  };
}

async function run(backend: DatabaseBackend, total: number) {
  console.log(`\n== ${backend}: ${thousands(total)} guest requests`);
  const { handle, dispose } = await openBench(backend);
  let server: StaffServer | undefined;
  try {
    await handle.migrate();
    const data = await insertRequests(handle.db, total);
    console.log(
      `inserted ${thousands(total)} in ${(data.insertMs / 1000).toFixed(1)} s` +
        ` (${thousands(Math.round(total / (data.insertMs / 1000)))} rows/s), vacuum analyze ${ms(data.analyzeMs)} ms,` +
        ` table with indexes ${mb(data.tableBytes)}; ` +
        REQUEST_KINDS.map((kind) => `${kind} ${thousands(data.perKind[kind])}`).join(", "),
    );
    server = await serveStaff(handle.db);
    await benchPages(backend, server, data.perKind.booking_request);
    await benchExport(backend, server, data.perKind);
    await benchLogin(backend, server);
  } finally {
    await server?.close();
    await dispose();
  }
}

console.log(
  `bench:staff: PostgreSQL ${thousands(POSTGRES_ROWS)} rows (${POSTGRES_URL}), PGlite ${thousands(PGLITE_ROWS)} rows`,
);
await benchHashing();
await run("pglite", PGLITE_ROWS);
await run("postgres", POSTGRES_ROWS);
printSummary();
if (summary.some((row) => row.verdict === "OVER" || row.verdict === "MISS")) {
  console.log("\nsome figures miss their targets (see above)");
}

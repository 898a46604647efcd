/**
 * Two instances of the production server on one PostgreSQL database and one Redis, behind
 * nginx (tests/topology/topology.ts): what one instance does, the other knows. A staff session
 * made on instance 1 works on instance 2 and through the load balancer; a bot-check token spent
 * on one instance is refused on the other; the sign-in limit counts the tries made on both; two
 * instances confirming overlapping stays at once: the database lets exactly one win.
 *
 * It needs PostgreSQL (PGlite admits one process): TEST_DATABASE_URL's server, else
 * postgres://postgres@127.0.0.1:5432 (topology.ts); a fresh database is made and dropped. It
 * does not skip without one: several instances are part of what `npm run test:all` proves.
 */
import { execFileSync } from "node:child_process";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays } from "#domain/calendar/nights.ts";
import { solveBotCheck, validBookingRequest } from "../setup/intake.ts";
import { ROOT } from "./server.ts";
import { type Topology, startTopology } from "../topology/topology.ts";
import { useBrowser } from "./browser.ts";
import { demoEstate } from "../factories/demo-estates.ts";
import { type ReplicaCluster, startReplicaCluster } from "../setup/replica-cluster.ts";
import { signIn } from "../setup/staff.ts";

const ADMIN = { email: "topology.admin@castellum.example", password: "battlement-river-dawn-58" };
const LIMITED = { email: "limited.admin@castellum.example", password: "drawbridge-silent-oak-31" };
/** The sign-in tries per account in the window, for every instance (LOGIN_MAX_PER_ACCOUNT). */
const LOGIN_MAX = 6;
const METRICS_TOKEN = "topology-metrics-token";

/** Creates an admin with the staff CLI, as an operator would while the instances run. */
function createAdmin(topology: Topology, account: { email: string; password: string }) {
  execFileSync(
    process.execPath,
    ["server/staff-cli.ts", "create", account.email, "--admin", "--name", "Topology Admin"],
    {
      cwd: ROOT,
      input: `${account.password}\n`,
      env: { ...process.env, DATABASE_URL: topology.databaseUrl, NODE_ENV: "production" },
      stdio: ["pipe", "pipe", "inherit"],
    },
  );
}

/** A guest's booking request as the public form sends it; answers the status and the body. */
async function submitBooking(
  url: string,
  token: string,
  overrides: Record<string, unknown> = {},
): Promise<{ status: number; body: { id?: string; reference?: string; message?: string } }> {
  const response = await fetch(`${url}/api/booking-requests`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "Idempotency-Key": crypto.randomUUID() },
    body: JSON.stringify({ ...validBookingRequest(overrides), turnstileToken: token }),
  });
  return { status: response.status, body: (await response.json()) as never };
}

async function tryLogin(url: string, email: string, password: string): Promise<number> {
  const response = await fetch(`${url}/api/admin/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email, password }),
  });
  await response.body?.cancel();
  return response.status;
}

async function signInThroughPage(page: Page, email: string, password: string) {
  await page.goto("/admin/login");
  await page.locator('input[name="email"]').fill(email);
  await page.locator('input[name="password"]').fill(password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect.poll(() => new URL(page.url()).pathname).toBe("/admin/booking-requests");
}

describe("several instances behind a load balancer", () => {
  const browser = useBrowser();
  let topology: Topology;
  let cluster: ReplicaCluster | undefined;
  let one: Topology["instances"][number];
  let two: Topology["instances"][number];

  beforeAll(async () => {
    // A primary and a streaming replica of its own: every instance reads the public's pages
    // from the replica once it has caught up (DATABASE_REPLICA_URLS).
    cluster = await startReplicaCluster();
    topology = await startTopology({
      instances: 2,
      databaseUrl: cluster.primaryUrl,
      replicaUrl: cluster.replicaUrl,
      env: {
        LOGIN_MAX_PER_ACCOUNT: String(LOGIN_MAX),
        LOGIN_MAX_PER_IP: "1000",
        METRICS_TOKEN,
      },
    });
    [one, two] = topology.instances as [typeof one, typeof two];
    createAdmin(topology, ADMIN);
    createAdmin(topology, LIMITED);
  });
  afterAll(async () => {
    await topology?.stop();
    cluster?.close();
  });

  it("lets staff sign in on instance 1 and change a request's status on instance 2, which the load balancer then shows", async () => {
    // A guest's request, sent through the load balancer.
    const guest = await submitBooking(topology.url, await solveBotCheck(topology.url), {
      email: "helena.topology@example.com",
      lastName: "Twoinstances",
    });
    expect(guest.status).toBe(201);
    const reference = guest.body.reference!;

    // Sign in on instance 1 itself.
    const page = await browser.newPage({ baseURL: one.url });
    await signInThroughPage(page, ADMIN.email, ADMIN.password);
    await page.getByRole("heading", { name: "Booking Requests Management" }).waitFor();
    const [cookie] = (await page.context().cookies()).filter((c) =>
      c.name.endsWith("castellum_session"),
    );
    expect(cookie, "a session cookie from instance 1").toBeDefined();

    // Instance 2 knows the session: its inbox shows the request, and its status changes there.
    // (Cookies belong to the host, not the port: the browser sends the same one to either.)
    await page.goto(`${two.url}/admin/booking-requests?status=New`);
    await page.getByRole("heading", { name: "Booking Requests Management" }).waitFor();
    const row = page.getByTestId("inbox-table").locator(`[data-reference="${reference}"]`);
    await row.waitFor();
    await row.getByTestId("status-select").selectOption("Contacted");
    const dialog = page.getByRole("dialog");
    await dialog.waitFor();
    await dialog.getByRole("button", { name: "Change status" }).click();
    await expect
      .poll(() => page.getByTestId("toast").first().textContent())
      .toContain("Status Updated");
    const history = await topology.query<{ to_status: string; changed_by: string }>(
      "select h.to_status, h.changed_by from guest_request_status_history h where h.request_id = $1 order by h.id",
      [guest.body.id],
    );
    expect(history.map((h) => h.to_status)).toEqual(["New", "Contacted"]);
    expect(history[1]!.changed_by).toBe(ADMIN.email);

    // Through the load balancer, with the same cookie: the page and the API see the change,
    // whichever instance answers (several calls, so both of the round robin take part).
    const session = `${cookie!.name}=${cookie!.value}`;
    for (let i = 0; i < 4; i += 1) {
      const response = await fetch(`${topology.url}/api/booking-requests/${guest.body.id}`, {
        headers: { Cookie: session },
      });
      expect(response.status).toBe(200);
      expect(((await response.json()) as { status: string }).status).toBe("Contacted");
    }
    await page.goto(`${topology.url}/admin/booking-requests?status=Contacted`);
    await expect.poll(() => row.textContent()).toContain("Contacted");

    // The same session acts on instance 2 directly, over the API, and instance 1 sees it.
    const detail = (await (
      await fetch(`${two.url}/api/booking-requests/${guest.body.id}`, {
        headers: { Cookie: session },
      })
    ).json()) as { version: number };
    const patched = await fetch(`${two.url}/api/booking-requests/${guest.body.id}`, {
      method: "PATCH",
      headers: { Cookie: session, "Content-Type": "application/json" },
      body: JSON.stringify({ status: "In progress", version: detail.version }),
    });
    expect(patched.status, await patched.clone().text()).toBe(200);
    const seenOnOne = await fetch(`${one.url}/api/booking-requests/${guest.body.id}`, {
      headers: { Cookie: session },
    });
    expect(((await seenOnOne.json()) as { status: string }).status).toBe("In progress");
  });

  it("refuses on one instance a bot-check token spent on the other, and accepts one solved for the other", async () => {
    // Solved from instance 1's challenge, spent on instance 1: instance 2 refuses it.
    const token = await solveBotCheck(one.url);
    expect((await submitBooking(one.url, token, { email: "first@example.com" })).status).toBe(201);
    const replay = await submitBooking(two.url, token, { email: "second@example.com" });
    expect(replay.status).toBe(403);
    expect(replay.body.message).toBeTruthy();
    // The instances sign challenges with one secret: instance 2's challenge works on instance 1,
    // once.
    const crossed = await solveBotCheck(two.url);
    expect((await submitBooking(one.url, crossed, { email: "third@example.com" })).status).toBe(
      201,
    );
    expect((await submitBooking(two.url, crossed, { email: "fourth@example.com" })).status).toBe(
      403,
    );
    const stored = await topology.query<{ email: string }>(
      "select email from guest_requests where email = any($1) order by email",
      [["first@example.com", "second@example.com", "third@example.com", "fourth@example.com"]],
    );
    expect(stored.map((row) => row.email)).toEqual(["first@example.com", "third@example.com"]);
  });

  it("counts sign-in tries on both instances against one limit", async () => {
    // Wrong passwords, alternately on each instance: each is refused as wrong, until the
    // total (not each instance's share) reaches the limit.
    const answers: number[] = [];
    for (let i = 0; i < LOGIN_MAX; i += 1) {
      const instance = i % 2 === 0 ? one : two;
      answers.push(await tryLogin(instance.url, LIMITED.email, "not-the-password-at-all"));
    }
    expect(answers).toEqual(Array.from({ length: LOGIN_MAX }, () => 401));
    // Each instance saw only half the tries; both now refuse, even the right password, and
    // the load balancer too.
    expect(await tryLogin(one.url, LIMITED.email, "not-the-password-at-all")).toBe(429);
    expect(await tryLogin(two.url, LIMITED.email, LIMITED.password)).toBe(429);
    expect(await tryLogin(topology.url, LIMITED.email, LIMITED.password)).toBe(429);
    // Another account is not affected.
    expect(await tryLogin(two.url, ADMIN.email, ADMIN.password)).toBe(200);
  });

  it("lets exactly one of two instances confirming overlapping stays at the same moment win, 100 rounds", async () => {
    const login = await fetch(`${one.url}/api/admin/login`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(ADMIN),
    });
    expect(login.status).toBe(200);
    const session = login.headers.getSetCookie()[0]!.split(";")[0]!;
    const [estate] = await topology.query<{ id: number }>(
      "select id from properties order by id limit 1",
    );
    // Two pending property bookings per round on one estate, sharing their middle night. They
    // are written straight into the table: the race under test is the confirmation, not intake.
    const ROUNDS = 100;
    const pairs: [string, string][] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const start = addDays("2030-01-01", round * 7);
      const pair = [crypto.randomUUID(), crypto.randomUUID()] as [string, string];
      for (const [index, id] of pair.entries()) {
        const first = addDays(start, index * 2);
        await topology.query(
          `insert into guest_requests (id, kind, reference, language, email, first_name, last_name,
             property_id, stay_start, stay_end, details, status_token_hash)
           values ($1, 'property_booking', $2, 'en', 'race@example.com', 'Race', 'Guest', $3, $4, $5, '{}', $6)`,
          [id, `PB-RACE-${round}-${index}`, estate!.id, first, addDays(first, 3), id],
        );
      }
      pairs.push(pair);
    }
    const confirm = (instance: typeof one, id: string) =>
      fetch(`${instance.url}/api/bookings/${id}`, {
        method: "PATCH",
        headers: { Cookie: session, "Content-Type": "application/json" },
        body: JSON.stringify({ status: "Confirmed" }),
      }).then(async (response) => {
        await response.body?.cancel();
        return response.status;
      });
    const outcomes: string[] = [];
    for (const [a, b] of pairs) {
      const statuses = await Promise.all([confirm(one, a), confirm(two, b)]);
      outcomes.push(statuses.join(","));
    }
    const won = outcomes.filter((o) => o === "200,409" || o === "409,200").length;
    expect(outcomes.filter((o) => o !== "200,409" && o !== "409,200")).toEqual([]);
    expect(won).toBe(ROUNDS);
    // The database agrees: one stay per round, each held by a Confirmed request, none overlapping.
    const stays = await topology.query<{ n: string; confirmed: string }>(
      `select count(*) as n, count(*) filter (where r.status = 'Confirmed') as confirmed
         from calendar_entries e join guest_requests r on r.id = e.request_id
        where r.reference like 'PB-RACE-%'`,
    );
    expect(stays[0]).toEqual({ n: String(ROUNDS), confirmed: String(ROUNDS) });
    const confirmedRequests = await topology.query<{ n: string }>(
      "select count(*) as n from guest_requests where reference like 'PB-RACE-%' and status = 'Confirmed'",
    );
    expect(confirmedRequests[0]!.n).toBe(String(ROUNDS));

    // Instance 2 keeps the estate's availability in its cache; a stay freed on instance 1
    // reaches it through the database's notification, not by waiting for an expiry.
    const availability = async () => {
      const response = await fetch(
        `${two.url}/api/castles/${estate!.id}/availability?from=2030-01-01&to=2030-03-01`,
      );
      const body = (await response.json()) as { unavailable: { start: string; end: string }[] };
      return body.unavailable;
    };
    const [winner] = await topology.query<{ id: string; stay_start: string; stay_end: string }>(
      `select r.id, to_char(r.stay_start, 'YYYY-MM-DD') as stay_start, to_char(r.stay_end, 'YYYY-MM-DD') as stay_end
         from guest_requests r where r.reference like 'PB-RACE-0-%' and r.status = 'Confirmed'`,
    );
    const held = { start: winner!.stay_start, end: winner!.stay_end };
    expect(await availability()).toContainEqual(held);
    const rejected = await fetch(`${one.url}/api/bookings/${winner!.id}`, {
      method: "PATCH",
      headers: { Cookie: session, "Content-Type": "application/json" },
      body: JSON.stringify({ status: "Rejected", reason: "Cancelled by the guest" }),
    });
    expect(rejected.status).toBe(200);
    await expect.poll(availability).not.toContainEqual(held);
  });

  it("shows an edit at once to whoever made it, to the public once the replica has it, and answers the public without the replica", async () => {
    const gordon = demoEstate("gordon-castle");
    const nameOn = async (base: string, headers: Record<string, string> = {}) => {
      const response = await fetch(`${base}/api/castles/${gordon.slug}?lang=en`, { headers });
      expect(response.status).toBe(200);
      return ((await response.json()) as { name: string }).name;
    };
    const cookie = await signIn(topology.url, ADMIN.email, ADMIN.password);
    const renamed = "Gordon Castle (seen from the replica)";
    const edit = await fetch(
      `${topology.url}/api/property-owners/update-property?estate=${gordon.id}`,
      {
        method: "POST",
        headers: { "Content-Type": "application/json", Origin: topology.url, Cookie: cookie },
        body: JSON.stringify({ field: "name", value: renamed, lang: "en", propertyId: gordon.id }),
      },
    );
    expect(edit.status, await edit.clone().text()).toBe(200);
    // Whoever made it reads the primary: at once, on either instance.
    expect(await nameOn(one.url, { Cookie: cookie })).toBe(renamed);
    expect(await nameOn(two.url, { Cookie: cookie })).toBe(renamed);
    // The public, on either instance, within the replica's lag, and from the replica.
    const replicaStatements = async (base: string) => {
      const metrics = await fetch(`${base}/metrics`, {
        headers: { Authorization: `Bearer ${METRICS_TOKEN}` },
      }).then((response) => response.text());
      const found = /castellum_db_replica_statements_total\{[^}]*\} (\d+)/.exec(metrics);
      return Number(found?.[1] ?? -1);
    };
    const checkIn = addDays(new Date().toISOString().slice(0, 10), 90);
    let guests = 1;
    for (const instance of [one, two]) {
      await expect.poll(() => nameOn(instance.url), { timeout: 10_000 }).toBe(renamed);
      const before = await replicaStatements(instance.url);
      await expect
        .poll(
          async () => {
            // A quote is never cached: each one reads the estate's rates and nights.
            guests += 1;
            const quote = await fetch(
              `${instance.url}/api/castles/${gordon.slug}/quote?checkIn=${checkIn}&checkOut=${addDays(checkIn, 7)}&guests=${guests}&lang=en`,
            );
            expect(quote.status).toBeLessThan(500);
            return replicaStatements(instance.url);
          },
          { timeout: 10_000 },
        )
        .toBeGreaterThan(before);
    }

    // The replica goes: the public is answered from the primary, without an error.
    cluster!.stopReplica();
    const words = ["castle", "villa", "garden", "lake", "wine", "tower"];
    for (const [i, word] of words.entries()) {
      const instance = i % 2 === 0 ? one : two;
      const response = await fetch(`${instance.url}/api/castles?lang=en&q=${word}`);
      expect(response.status).toBe(200);
    }
    expect(await nameOn(topology.url)).toBe(renamed);
  });
});

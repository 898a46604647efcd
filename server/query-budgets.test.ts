import { eq } from "drizzle-orm";
import { beforeAll, expect, it, vi } from "vitest";
import routes from "#app/routes.ts";
import { routePaths } from "#tests/setup/route-paths.ts";
import { mailOutbox } from "#db/schema/index.ts";
import { API_OPERATIONS } from "./api/operations.ts";
import { describeEachBackend } from "#tests/setup/database.ts";
import { demoEstate } from "#tests/factories/demo-estates.ts";
import { generateCatalogue } from "#tests/factories/generated-catalogue.ts";
import { insertCalendarRequest, nightsAt, calendarBase } from "#tests/factories/calendar.ts";
import {
  isoDate,
  solveBotCheck,
  validBookingRequest,
  validMembership,
  validPropertyBooking,
} from "#tests/setup/intake.ts";
import { servePages } from "#tests/setup/pages.ts";
import { countQueries, type QueryCounter } from "#tests/setup/query-counter.ts";
import { createTestStaff, signIn, staffCall } from "#tests/setup/staff.ts";

/**
 * Queries on a budget: the SQL statements each public page, public call and staff
 * inbox call sends with the response cache off, counted at the database client
 * (`tests/setup/query-counter.ts`: BEGIN and COMMIT count, the same on both backends). A budget
 * is what the call needs today; it has headroom only where the count legitimately varies. An
 * N+1 (a query per card, row or message) exceeds it, and the second half of the suite fails it
 * even below the budget: the same calls over ten times the rows must send the same statements.
 * Lower a budget when a read gets leaner; raise one only with a reason in the commit.
 */

// The suite opens a seeded database and compiles the pages: on a loaded machine, over a minute.
vi.setConfig({ hookTimeout: 240_000, testTimeout: 240_000 });

const GORDON = demoEstate("gordon-castle");
const CHECK_IN = isoDate(200);
const CHECK_OUT = isoDate(203);

/** Every public page of app/routes.ts (route → an address of it → its budget). */
const PAGE_BUDGETS: Record<string, Call[]> = {
  // The featured image and the cards of the home page.
  "": [{ path: "/", budget: 3 }],
  castles: [
    { path: "/castles", budget: 2 },
    { path: "/castles?lang=zh&region=uk&guests=4", budget: 2 },
    { path: "/castles?q=castle&amenities=garden", budget: 2 },
    { path: `/castles?checkIn=${CHECK_IN}&checkOut=${CHECK_OUT}`, budget: 2 },
  ],
  // The estate, its taken nights and its rates (the "from" price).
  "property/:idOrSlug": [{ path: `/property/${GORDON.slug}`, budget: 4 }],
  team: [{ path: "/team", budget: 1 }],
  contact: [{ path: "/contact", budget: 1 }],
  faqs: [{ path: "/faqs", budget: 1 }],
  roadmap: [{ path: "/roadmap", budget: 1 }],
  tokenomics: [{ path: "/tokenomics", budget: 1 }],
  tokensale: [{ path: "/tokensale", budget: 1 }],
  whitepaper: [{ path: "/whitepaper", budget: 1 }],
  privacy: [{ path: "/privacy", budget: 1 }],
  "booking-request": [{ path: "/booking-request", budget: 1 }],
  "booking/:idOrSlug": [{ path: `/booking/${GORDON.slug}`, budget: 3 }],
  membership: [{ path: "/membership", budget: 1 }],
  // The request, then its history, offers, ledger and thread side by side.
  "requests/:token": [{ path: "/requests/{token}", budget: 7 }],
  "onboard/verify": [{ path: "/onboard/verify", budget: 1 }],
  "*": [{ path: "/no-such-page", budget: 1, status: 404 }],
};

/** The staff area's routes: outside this suite but the inbox's own pages, below. */
const isStaffRoute = (route: string) => route === "admin" || route.startsWith("admin/");

interface Call {
  method?: "GET" | "POST" | "PATCH";
  path: string;
  body?: () => unknown;
  budget: number;
  /** The answer's status when it is not a success (a documented refusal is measured too). */
  status?: number;
}

/** An offer id no request has. */
const NO_OFFER = "00000000-0000-4000-8000-000000000000";

/** Every public operation of the contract registry (operation id → calls → budgets). */
const PUBLIC_API_BUDGETS: Record<string, Call[]> = {
  listCastles: [
    { path: "/api/castles", budget: 1 },
    { path: "/api/castles?lang=fr&region=france&bedrooms=4", budget: 1 },
    { path: "/api/castles?q=castle&members=0&limit=10", budget: 1 },
    { path: `/api/castles?checkIn=${CHECK_IN}&checkOut=${CHECK_OUT}`, budget: 1 },
  ],
  getCastle: [{ path: `/api/castles/${GORDON.slug}`, budget: 1 }],
  getCastleAvailability: [{ path: `/api/castles/${GORDON.slug}/availability`, budget: 2 }],
  // The estate, then its rates and its taken nights side by side. A fortnight: longer than any
  // minimum stay the demo rates set.
  getCastleQuote: [
    {
      path: `/api/castles/${GORDON.slug}/quote?checkIn=${CHECK_IN}&checkOut=${isoDate(214)}&guests=4`,
      budget: 3,
    },
  ],
  getBotCheckChallenge: [{ path: "/api/bot-check/challenge", budget: 0 }],
  createBookingRequest: [
    {
      method: "POST",
      path: "/api/booking-requests",
      body: () => form(validBookingRequest()),
      budget: 11,
    },
  ],
  createPropertyBooking: [
    {
      method: "POST",
      path: "/api/bookings",
      body: () => form(validPropertyBooking({ propertyId: GORDON.id })),
      budget: 16,
    },
  ],
  createMembershipApplication: [
    {
      method: "POST",
      path: "/api/membership/apply",
      body: () => form(validMembership()),
      budget: 11,
    },
  ],
  replyToRequest: [
    {
      method: "POST",
      path: "/api/requests/{token}/messages",
      body: () => form({ body: "Could we arrive a day early?" }),
      budget: 8,
    },
  ],
  // The request, then its history, offers and ledger side by side.
  getGuestRequest: [{ path: "/api/requests/{token}", budget: 4 }],
  // A stranger's answer to an offer the request does not have: refused once the row is locked.
  acceptOffer: [
    {
      method: "POST",
      path: `/api/requests/{token}/offers/${NO_OFFER}/accept`,
      budget: 6,
      status: 409,
    },
  ],
  declineOffer: [
    {
      method: "POST",
      path: `/api/requests/{token}/offers/${NO_OFFER}/decline`,
      budget: 6,
      status: 409,
    },
  ],
  // Card payment is not configured here: refused before anything is read but the request.
  checkoutOffer: [
    {
      method: "POST",
      path: `/api/requests/{token}/offers/${NO_OFFER}/checkout`,
      budget: 4,
      status: 503,
    },
  ],
  submitCaslPayment: [
    {
      method: "POST",
      path: `/api/requests/{token}/offers/${NO_OFFER}/casl`,
      body: () => ({ txHash: `0x${"ab".repeat(32)}` }),
      budget: 10,
      status: 409,
    },
  ],
  cancelAsGuest: [{ method: "POST", path: "/api/requests/{token}/cancel", budget: 6, status: 409 }],
  // The request's view, then no such payment.
  getPaymentReceipt: [
    { path: "/api/requests/{token}/payments/1/receipt.pdf", budget: 4, status: 404 },
  ],
  // Without Stripe's keys the notice address answers 404 at once.
  stripeWebhook: [
    { method: "POST", path: "/api/payments/stripe", body: () => ({}), budget: 0, status: 404 },
  ],
  verifyOwnerEmail: [
    {
      method: "POST",
      path: "/api/property-owners/verify-email",
      body: () => ({ email: GORDON.email }),
      budget: 7,
    },
  ],
  verifyOwnerCode: [
    {
      method: "POST",
      path: "/api/property-owners/verify-code",
      body: () => ({ email: GORDON.email, code: "000000" }),
      // A wrong code: the refusal, with its count of tries, is what a stranger can make.
      status: 400,
      budget: 8,
    },
  ],
  // Its entries and the estate's name, which names the calendar, besides the token's checks.
  getCalendarExport: [{ path: "{icalUrl}", budget: 5 }],
};

/**
 * Public operations of the registry this suite leaves out, and why: the staff's and owners'
 * own sign-in ceremonies (their counters live in the services, not the request's statements).
 */
const PUBLIC_API_OUTSIDE = new Set([
  "loginStaff",
  "completeStaffSetup",
  "getStaffInvitation",
  "acceptStaffInvitation",
  "requestStaffPasswordReset",
  "completeStaffPasswordReset",
  "startOwnerPasskeySignIn",
  "signInOwnerWithPasskey",
]);

/**
 * A staff call may also write its session's last-seen time (at most once a minute, so whether
 * a given call does varies): one statement of headroom on each.
 */
const TOUCH = 1;
const isTouch = (statement: string) =>
  statement.startsWith(`update "auth_sessions" set "last_seen_at"`);

/** The staff inbox, signed in as an admin: lists with filters, details, messages, CSV, pages. */
const INBOX_BUDGETS: Call[] = [
  { path: "/api/booking-requests", budget: 3 + TOUCH },
  { path: "/api/booking-requests?status=New&q=Ada&sort=oldest", budget: 3 + TOUCH },
  {
    path: `/api/booking-requests?from=${isoDate(-1)}&to=${isoDate(1)}&limit=10`,
    budget: 3 + TOUCH,
  },
  { path: `/api/bookings?propertyId=${GORDON.id}`, budget: 4 + TOUCH },
  { path: "/api/membership/applications?memberStatus=gold", budget: 3 + TOUCH },
  { path: "/api/booking-requests/{booking_request}", budget: 5 + TOUCH },
  { path: "/api/bookings/{property_booking}", budget: 7 + TOUCH },
  { path: "/api/membership/applications/{membership}", budget: 5 + TOUCH },
  { path: "/api/booking-requests/{booking_request}/messages", budget: 4 + TOUCH },
  { path: "/api/bookings/{property_booking}/messages", budget: 4 + TOUCH },
  { path: "/api/membership/applications/{membership}/messages", budget: 4 + TOUCH },
  { path: "/api/booking-requests/export.csv", budget: 3 + TOUCH },
  { path: "/api/bookings/export.csv?status=New", budget: 4 + TOUCH },
  { path: "/api/membership/applications/export.csv", budget: 3 + TOUCH },
  // The week counts, waiting, overdue, offers awaiting an answer and balances overdue.
  { path: "/api/admin/overview", budget: 9 + TOUCH },
  { path: "/admin/booking-requests", budget: 10 + TOUCH },
  { path: "/admin/booking-requests?kind=membership&status=New", budget: 10 + TOUCH },
  { path: "/admin/booking-requests/booking-requests/{booking_request}", budget: 14 + TOUCH },
  {
    method: "POST",
    path: "/api/booking-requests/{booking_request}/notes",
    body: () => ({ body: "Called back, no answer." }),
    budget: 3 + TOUCH,
  },
  {
    method: "POST",
    path: "/api/booking-requests/{booking_request}/messages",
    body: () => ({ body: "The estate is free on your dates." }),
    budget: 10 + TOUCH,
  },
];

/** The calls whose rows the suite multiplies: they must send the same statements after. */
const GROWING = [
  "/",
  "/castles",
  "/castles?lang=zh&region=uk&guests=4",
  `/castles?checkIn=${CHECK_IN}&checkOut=${CHECK_OUT}`,
  "/api/castles",
  "/api/castles?lang=fr&region=france&bedrooms=4",
  `/api/castles?checkIn=${CHECK_IN}&checkOut=${CHECK_OUT}`,
  `/property/${GORDON.slug}`,
  `/api/castles/${GORDON.slug}/availability`,
  "/requests/{token}",
  "/api/booking-requests",
  "/api/booking-requests?status=New&q=Ada&sort=oldest",
  "/api/booking-requests/{booking_request}",
  "/api/booking-requests/{booking_request}/messages",
  "/api/booking-requests/export.csv",
  "/api/admin/overview",
  "/admin/booking-requests",
  "/admin/booking-requests/booking-requests/{booking_request}",
];

/** An address of the staff area or the staff API (a GET of a collection is staff only). */
const isStaffPath = (path: string) =>
  /^\/(admin|api\/(booking-requests|bookings|membership|admin))(\/|\?|$)/.test(path);

let baseUrl = "";

/** A guest form as the browser sends it: with a solved bot check. */
async function form(fields: Record<string, unknown>) {
  return { ...fields, turnstileToken: await solveBotCheck(baseUrl) };
}

it("budgets every public page of app/routes.ts and every public operation", () => {
  const pages = [...new Set(routePaths(routes))].filter((r) => !isStaffRoute(r));
  expect(Object.keys(PAGE_BUDGETS).sort()).toEqual(pages.sort());
  const open = API_OPERATIONS.filter((operation) => operation.security?.length === 0).map(
    (operation) => operation.id,
  );
  expect(Object.keys(PUBLIC_API_BUDGETS).sort()).toEqual(
    open.filter((id) => !PUBLIC_API_OUTSIDE.has(id)).sort(),
  );
});

describeEachBackend("queries on a budget", (database) => {
  let counter: QueryCounter | undefined;
  // The app's own statements are counted; the services' (mail worker, listener) are not.
  const site = servePages(() => database().deps, {
    servicesEnv: { RESPONSE_CACHE_MB: 0 },
    appDeps: (deps) => (counter = countQueries(deps)).deps,
  });
  let cookie = "";
  /** What stands for `{token}`, `{icalUrl}` and `{kind}` in the addresses above. */
  const slots: Record<string, string> = {};
  /** Statements of each call in the first round (few rows), by method and address. */
  const firstRound = new Map<string, string[]>();

  beforeAll(async () => {
    baseUrl = site.url();
    await createTestStaff(database().deps, "admin@castellum.test", { isAdmin: true });
    cookie = await signIn(baseUrl, "admin@castellum.test");
    // One request of each kind, as guests send them (the few rows of the first round).
    const booking = await submit(
      "/api/booking-requests",
      validBookingRequest({ email: "ada@example.com" }),
    );
    slots.booking_request = booking.id;
    slots.property_booking = (
      await submit("/api/bookings", validPropertyBooking({ propertyId: GORDON.id }))
    ).id;
    slots.membership = (await submit("/api/membership/apply", validMembership())).id;
    slots.token = await statusTokenOf("ada@example.com");
    const calendar = await staffCall(baseUrl, "GET", `/api/admin/estates/${GORDON.id}/calendar`, {
      cookie,
    });
    slots.icalUrl = new URL((calendar.body as { icalUrl: string }).icalUrl).pathname;
  }, 120_000);

  async function submit(path: string, fields: Record<string, unknown>) {
    const answer = await staffCall(baseUrl, "POST", path, { body: await form(fields) });
    if (answer.status !== 201) throw new Error(`${path}: ${answer.status} ${answer.text}`);
    return answer.body as { id: string };
  }

  /** The guest's status token, read from the confirmation mail in the outbox. */
  async function statusTokenOf(email: string) {
    // The confirmation is made from the request's event by the mail job.
    await site.services().mailWorker.runNow();
    const [mail] = await database()
      .deps.db.select({ text: mailOutbox.text })
      .from(mailOutbox)
      .where(eq(mailOutbox.recipient, email));
    const token = mail?.text.match(/\/requests\/([A-Za-z0-9_-]{32})/)?.[1];
    if (!token) throw new Error(`no status link mailed to ${email}`);
    return token;
  }

  const fill = (path: string) => path.replace(/\{(\w+)\}/g, (_, slot: string) => slots[slot]!);

  /** One call, and the statements it sent before its answer ended. */
  async function measure(call: Call, asStaff: boolean) {
    const body = await call.body?.();
    counter!.reset();
    const answer = await staffCall(baseUrl, call.method ?? "GET", fill(call.path), {
      cookie: asStaff ? cookie : undefined,
      body,
    });
    const statements = [...counter!.statements];
    const label = `${call.method ?? "GET"} ${call.path}`;
    // The call must have done its work (a refusal costs less); soft, so that one failure
    // still shows the whole table.
    const where = `${label}: ${answer.text.slice(0, 500)}`;
    if (call.status) expect.soft(answer.status, where).toBe(call.status);
    else expect.soft(answer.status, where).toBeLessThan(300);
    return { label, statements, cache: answer.headers.get("x-cache") };
  }

  /** Measures every call, fails each that exceeds its budget, and prints the table. */
  async function checkBudgets(calls: Call[], asStaff: boolean) {
    const table: string[] = [];
    for (const call of calls) {
      const { label, statements, cache } = await measure(call, asStaff);
      firstRound.set(label, statements);
      table.push(`${String(statements.length).padStart(3)} / ${call.budget}  ${label} ${cache}`);
      expect
        .soft(
          statements.length,
          `${label}: ${statements.length} statements, budget ${call.budget}:\n${statements.join("\n")}`,
        )
        .toBeLessThanOrEqual(call.budget);
    }
    console.info(`statements / budget\n${table.join("\n")}`);
  }

  it("keeps every public page within its budget", async () => {
    const calls = Object.values(PAGE_BUDGETS).flat();
    // Vite compiles each page on its first request: not what a visitor's request costs.
    for (const call of calls) await staffCall(baseUrl, "GET", fill(call.path));
    await checkBudgets(calls, false);
  });

  it("keeps every public call within its budget", async () => {
    await checkBudgets(Object.values(PUBLIC_API_BUDGETS).flat(), false);
  });

  it("keeps every staff inbox call within its budget", async () => {
    await checkBudgets(INBOX_BUDGETS, true);
  });

  it("sends the same statements over ten times the rows", async () => {
    const deps = database().deps;
    // 30 booking requests (a full inbox page of 25), more messages, notes and stays, and 120
    // more estates: in every region, so the filtered pages fill up.
    for (let i = 0; i < 27; i++)
      await submit(
        "/api/booking-requests",
        validBookingRequest({ email: `guest${i}@example.com` }),
      );
    for (let i = 0; i < 9; i++) {
      await staffCall(baseUrl, "POST", `/api/booking-requests/${slots.booking_request}/messages`, {
        cookie,
        body: { body: `Message ${i}` },
      });
      await staffCall(baseUrl, "POST", `/api/booking-requests/${slots.booking_request}/notes`, {
        cookie,
        body: { body: `Note ${i}` },
      });
    }
    const base = calendarBase();
    for (let i = 0; i < 10; i++)
      await insertCalendarRequest(deps, {
        propertyId: GORDON.id,
        nights: nightsAt(base, i * 7, 3),
        status: "Confirmed",
      });
    await generateCatalogue(database().handle.db, { count: 120, firstId: 1001 });

    for (const path of GROWING) {
      const measured = await measure({ path, budget: 0 }, isStaffPath(path));
      const { label } = measured;
      const statements = measured.statements.filter((statement) => !isTouch(statement));
      const before = firstRound.get(label)?.filter((statement) => !isTouch(statement));
      expect(before, `${label} measured in the first round`).toBeDefined();
      expect
        .soft(
          statements.length,
          `${label}: ${statements.length} statements over more rows, ${before!.length} before:\n${statements.join("\n")}`,
        )
        .toBe(before!.length);
    }
  });
});

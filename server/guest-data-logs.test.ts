import { Writable } from "node:stream";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { mailOutbox } from "#db/schema/index.ts";
import { dataOf } from "#tests/setup/api.ts";
import { describeEachBackend } from "#tests/setup/database.ts";
import {
  decodeMail,
  serveIntake,
  solveBotCheck,
  submitGuestForm,
  TestSmtpServer,
  validBookingRequest,
} from "#tests/setup/intake.ts";
import { createTestStaff, signIn, staffCall } from "#tests/setup/staff.ts";
import { COLLECTION_OPERATIONS } from "#domain/staff/inbox.contract.ts";
import { createLogger, loggableError } from "./logger.ts";

/** A guest whose every word is distinctive, so any of it in a log line is found. */
const GUEST = {
  firstName: "Zephyrine",
  lastName: "Quillfeather",
  // Mixed case: the log must not hold it in any case.
  email: "Zephyrine.Quillfeather@Guest-Mail.test",
  phoneNumber: "+39 347 918 2265",
  bookingGoal: "A moonlit harp recital for our silver anniversary.",
  specialRequests: "Please chill the elderflower cordial before we arrive.",
};
const STAFF_MESSAGE = "The sommelier Prudence-Aurelia will call about the vintage.";
const GUEST_REPLY = "Lanterns of marzipan along the courtyard, if you can.";
const NOTE = "Guest sounded nervous about the drawbridge.";
const REASON = "Halberd inventory clash with the armoury.";

/** Everything the log must not hold, each as text to look for in any case. */
const FORBIDDEN = [
  GUEST.firstName,
  GUEST.lastName,
  GUEST.email,
  GUEST.phoneNumber,
  GUEST.phoneNumber.replace(/\s/g, ""),
  "347 918",
  "moonlit harp",
  "elderflower cordial",
  "Prudence-Aurelia",
  "marzipan",
  "drawbridge",
  "Halberd inventory",
];

const STATUS_LINK = /\/requests\/([A-Za-z0-9_-]{32})\?lang=/;
const BOOKINGS = COLLECTION_OPERATIONS.booking_request;

/** Every line the server logs at any level, as written. */
function capturingLogger() {
  const lines: string[] = [];
  const log = createLogger(
    { LOG_LEVEL: "trace" },
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString("utf8"));
        done();
      },
    }),
  );
  const entries = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  return { log, lines, entries };
}

describeEachBackend("guests' personal data in the logs", (database) => {
  const captured = capturingLogger();
  const deps = () => ({ ...database().deps, log: captured.log });
  const smtp = new TestSmtpServer();
  beforeAll(() => smtp.start());
  afterAll(() => smtp.stop());
  // One wrong password per account and address: the second try typing the guest's address is
  // refused by the rate limit, whose line is checked too.
  const server = serveIntake(deps, () => ({
    SMTP_URL: smtp.url,
    MAIL_POLL_MS: 20,
    LOGIN_MAX_PER_ACCOUNT: 1,
  }));
  const guestAddress = GUEST.email.toLowerCase();
  const mailsToGuest = () =>
    smtp.received.filter((mail) => mail.to.some((to) => to.toLowerCase() === guestAddress));
  const logged = (msg: string) => captured.entries().filter((entry) => entry.msg === msg);

  it("holds no name, address, phone or free text of a guest over a request's whole life", async () => {
    const url = server().url;
    await createTestStaff(deps(), "castellan@castellum.test", { isAdmin: true });
    const cookie = await signIn(url, "castellan@castellum.test");
    const staff = (method: string, path: string, body?: unknown) =>
      staffCall(url, method, path, { cookie, body });

    // The guest asks; the confirmation mail goes out through the relay with the status link.
    const sent = await submitGuestForm(url, "/booking-requests", validBookingRequest(GUEST));
    await expect.poll(() => mailsToGuest().length, { timeout: 10_000 }).toBe(1);
    const token = decodeMail(mailsToGuest()[0]!.raw).match(STATUS_LINK)![1]!;

    // Staff find it by the guest's name and address, write, note and change its status; the
    // guest reads their page and answers.
    expect((await staff("GET", `/api/booking-requests?q=${GUEST.lastName}`)).status).toBe(200);
    expect(
      (await staff("GET", `/api/admin/personal-data?email=${encodeURIComponent(GUEST.email)}`))
        .status,
    ).toBe(200);
    const path = `/api/booking-requests/${sent.id}`;
    expect((await staff("POST", `${path}/messages`, { body: STAFF_MESSAGE })).status).toBe(201);
    expect((await staff("POST", `${path}/notes`, { body: NOTE })).status).toBe(201);
    const before = dataOf(BOOKINGS.get, await staff("GET", path), 200);
    const changed = await staff("PATCH", path, {
      status: "Contacted",
      version: before.version,
      reason: REASON,
      shareReason: true,
      notifyGuest: true,
    });
    expect(changed.status).toBe(200);
    await expect.poll(() => mailsToGuest().length, { timeout: 10_000 }).toBe(3);
    expect((await staffCall(url, "GET", `/api/requests/${token}`)).status).toBe(200);
    const replied = await staffCall(url, "POST", `/api/requests/${token}/messages`, {
      body: { body: GUEST_REPLY, turnstileToken: await solveBotCheck(url) },
    });
    expect(replied.status).toBe(201);

    // The relay refuses the guest's address for good, quoting it, as relays do.
    smtp.refuseRecipient = (address) =>
      address.toLowerCase() === guestAddress
        ? { code: 550, message: `5.1.1 <${GUEST.email}>: Recipient address rejected` }
        : undefined;
    expect((await staff("POST", `${path}/messages`, { body: STAFF_MESSAGE })).status).toBe(201);
    await expect
      .poll(() => logged("mail refused by the relay for good; kept as failed for staff").length, {
        timeout: 10_000,
      })
      .toBe(1);
    const [refused] = await deps()
      .db.select({ lastError: mailOutbox.lastError })
      .from(mailOutbox)
      .where(eq(mailOutbox.status, "failed"));
    // The outbox keeps the relay's words for staff; the log does not.
    expect(refused?.lastError?.toLowerCase()).toContain(guestAddress);

    // Someone types the guest's address at the staff sign-in, twice.
    const signInAsGuest = () =>
      staffCall(url, "POST", "/api/admin/login", {
        body: { email: GUEST.email, password: "not-the-password-at-all" },
      });
    expect((await signInAsGuest()).status).toBe(401);
    expect((await signInAsGuest()).status).toBe(429);

    // The database refuses a second request of the guest: its error names the whole row
    // (`detail`) and the query's parameters.
    await deps().db.execute(
      sql.raw(
        `alter table guest_requests add constraint refuses_this_guest ` +
          `check (lower(email) <> '${guestAddress}') not valid`,
      ),
    );
    try {
      const token2 = await solveBotCheck(url);
      const failed = await staffCall(url, "POST", "/api/booking-requests", {
        body: { ...validBookingRequest(GUEST), turnstileToken: token2 },
      });
      expect(failed.status).toBe(500);
    } finally {
      await deps().db.execute(
        sql.raw(`alter table guest_requests drop constraint refuses_this_guest`),
      );
    }
    // And a value it cannot read, which its message quotes.
    const unreadable = await deps()
      .db.execute(sql`select ${GUEST.email}::uuid`)
      .catch((error: unknown) => error);
    captured.log.warn({ err: unreadable }, "probe: a query refused its parameter");

    for (const word of FORBIDDEN)
      expect(
        captured.lines.filter((line) => line.toLowerCase().includes(word.toLowerCase())),
        `lines holding "${word}"`,
      ).toEqual([]);

    // What was logged still tells an operator what happened, and to which request.
    const stored = logged("guest request stored");
    expect(stored).toEqual([
      expect.objectContaining({ reference: sent.reference, requestId: sent.id }),
    ]);
    for (const msg of [
      "request status changed",
      "staff message sent to the guest",
      "guest replied to staff",
    ]) {
      expect(logged(msg).length, msg).toBeGreaterThan(0);
      for (const entry of logged(msg)) expect(entry.requestId, msg).toBe(sent.id);
    }
    expect(logged("request").map((entry) => entry.url)).toEqual(
      expect.arrayContaining([
        "/api/booking-requests?q=[redacted]",
        "/api/admin/personal-data?email=[redacted]",
        "/api/requests/[redacted]",
        "/api/requests/[redacted]/messages",
      ]),
    );
    for (const msg of ["staff login refused", "login rate limit reached"])
      expect(logged(msg), msg).toEqual([
        expect.objectContaining({ ip: expect.any(String) as unknown }),
      ]);
    expect(
      logged("mail refused by the relay for good; kept as failed for staff")[0]?.err,
    ).toContain("<[email]>: Recipient address rejected");
    const unhandled = logged("unhandled error");
    expect(unhandled).toHaveLength(1);
    expect(unhandled[0]?.err).toMatchObject({
      type: "DrizzleQueryError",
      message: expect.stringMatching(/^Failed query: insert into "guest_requests"/) as unknown,
      cause: {
        code: "23514",
        table: "guest_requests",
        constraint: "refuses_this_guest",
        message: expect.stringContaining("violates check constraint") as unknown,
      },
    });
    expect(logged("probe: a query refused its parameter")[0]?.err).toMatchObject({
      cause: { code: "22P02", message: 'invalid input syntax for type uuid: "[value]"' },
    });
    // No other error than those provoked here.
    expect(
      captured
        .entries()
        .filter((entry) => (entry.level as number) >= 50)
        .map((entry) => entry.msg),
    ).toEqual(["mail refused by the relay for good; kept as failed for staff", "unhandled error"]);
  });
});

it("logs an error's codes and places, not the values a driver or a relay quotes", () => {
  const driverError = Object.assign(
    new Error('duplicate key value violates unique constraint "guest_requests_email_key"'),
    {
      code: "23505",
      severity: "ERROR",
      table: "guest_requests",
      constraint: "guest_requests_email_key",
      routine: "_bt_check_unique",
      detail: "Key (email)=(ottoline@example.com) already exists.",
      where: "unnamed portal parameter $1 = 'Ottoline Vexley'",
      hint: "Ottoline Vexley",
      internalQuery: "select 'Ottoline Vexley'",
      query: "insert into guest_requests (email) values ($1)",
      params: ["ottoline@example.com", "Ottoline Vexley"],
    },
  );
  const failedQuery = new Error(
    "Failed query: insert into guest_requests (email, note) values ($1, 'Ottoline')\nparams: ottoline@example.com,Ottoline Vexley\nwrote on two lines",
    { cause: driverError },
  );
  const logged = loggableError(failedQuery) as Record<string, unknown>;
  expect(JSON.stringify(logged)).not.toMatch(/ottoline|vexley/i);
  expect(logged).toMatchObject({
    type: "Error",
    message: "Failed query: insert into guest_requests (email, note) values ($1, '[value]')",
    cause: {
      code: "23505",
      severity: "ERROR",
      table: "guest_requests",
      constraint: "guest_requests_email_key",
      routine: "_bt_check_unique",
    },
  });
  expect(logged.stack).toMatch(/^Error: Failed query: [^\n]*\n {4}at /);

  const relay = Object.assign(
    new Error("Can't send mail - all recipients were rejected: 550 5.1.1 <Ottoline.V@Example.COM>"),
    {
      code: "EENVELOPE",
      responseCode: 550,
      response: "550 5.1.1 <Ottoline.V@Example.COM>",
      rejected: ["Ottoline.V@Example.COM"],
    },
  );
  expect(loggableError(new AggregateError([relay], "all failed"))).toMatchObject({
    aggregateErrors: [
      {
        message: "Can't send mail - all recipients were rejected: 550 5.1.1 <[email]>",
        code: "EENVELOPE",
        responseCode: 550,
        response: "550 5.1.1 <[email]>",
      },
    ],
  });
  expect(JSON.stringify(loggableError(relay))).not.toMatch(/ottoline/i);
  expect(loggableError("550 5.1.1 <ottoline@example.com>: no such user")).toBe(
    "550 5.1.1 <[email]>: no such user",
  );
});

import { Writable } from "node:stream";
import { eq, sql } from "drizzle-orm";
import pg from "pg";
import pino from "pino";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { mailOutbox } from "#db/schema/index.ts";
import { BACKENDS, describeEachBackend, openTestDatabase } from "#tests/setup/database.ts";
import { expectErrorLog } from "#tests/setup/error-log.ts";
import { TestSmtpServer } from "#tests/setup/smtp.ts";
import type { Deps } from "../deps.ts";
import { type MailWorker, startMailWorker } from "./mail-job.ts";
import { deliverDueMail, enqueueMail, type RetryPolicy } from "./mail-outbox.ts";
import { listUndeliveredMail } from "./outbox-health.ts";
import { renderGuestConfirmation } from "./templates.ts";
import { classifySmtpError, createMailTransport, type MailTransport } from "./transport.ts";
import { stringContaining, stringMatching } from "#tests/setup/matchers.ts";

const RETRY: RetryPolicy = { baseMs: 60_000, maxMs: 60_000, maxAttempts: 3 };

async function queue(deps: Deps, recipients: string[]) {
  await enqueueMail(
    deps.db,
    recipients.map((recipient) => ({
      template: "test",
      recipient,
      subject: `For ${recipient}`,
      text: `Hello ${recipient}`,
      html: `<p>Hello ${recipient}</p>`,
    })),
  );
}

async function outbox(deps: Deps) {
  const rows = await deps.db.select().from(mailOutbox).orderBy(mailOutbox.recipient);
  return rows.map(({ recipient, status, attempts, lastError }) => ({
    recipient,
    status,
    attempts,
    lastError,
  }));
}

/** The real SMTP transport, pointed at the test relay. */
const relayTransport = (smtp: TestSmtpServer) =>
  createMailTransport({
    from: "Castellum <bookings@castellum.example>",
    smtpUrl: smtp.url,
    directory: "/nonexistent",
    messageIdDomain: "castellum.example",
  });

const addresses = (count: number, tag: string) =>
  Array.from({ length: count }, (_, n) => `${tag}${String(n).padStart(3, "0")}@example.com`);

describeEachBackend(
  "the mail outbox and its relay",
  (database) => {
    const smtp = new TestSmtpServer();
    let transport: MailTransport;
    const deps = () => database().deps;

    beforeAll(async () => {
      // Take a free port for the relay; each test decides whether it is up.
      await smtp.start();
      await smtp.stop();
    });
    beforeEach(async () => {
      await deps().db.delete(mailOutbox);
      smtp.received.length = 0;
      smtp.refuseRecipient = undefined;
      transport = relayTransport(smtp);
    });
    afterEach(async () => {
      transport.close();
      await smtp.stop();
    });
    afterAll(() => smtp.stop());

    it("keeps mail waiting without spending attempts while the relay cannot be reached", async () => {
      await queue(deps(), addresses(5, "down"));
      const report = await deliverDueMail(deps(), transport, { retry: RETRY });
      expect(report.sent).toBe(0);
      expect(report.failed).toBe(0);
      expect(report.relayUnreachable).toMatch(/ECONNREFUSED/);
      const rows = await outbox(deps());
      expect(rows.map((row) => [row.status, row.attempts])).toEqual(
        Array.from({ length: 5 }, () => ["pending", 0]),
      );
      // Still due: the next run tries again at once instead of waiting out a backoff.
      const [due] = await deps()
        .db.select({ n: sql`count(*)`.mapWith(Number) })
        .from(mailOutbox)
        .where(sql`${mailOutbox.nextAttemptAt} <= now() and ${mailOutbox.lockedUntil} is null`);
      expect(due!.n).toBe(5);

      await smtp.start(smtp.port);
      const after = await deliverDueMail(deps(), transport, { retry: RETRY });
      expect(after).toEqual({ sent: 5, failed: 0 });
      expect(smtp.received.map((mail) => mail.to[0]).sort()).toEqual(addresses(5, "down"));
      expect((await outbox(deps())).map((row) => [row.status, row.attempts])).toEqual(
        Array.from({ length: 5 }, () => ["sent", 1]),
      );
    });

    it("counts, for staff, the mail that is late: tried and waiting, or queued over a minute ago", async () => {
      await queue(deps(), ["fresh@example.com", "old@example.com", "tried@example.com"]);
      await deps()
        .db.update(mailOutbox)
        .set({ createdAt: sql`now() - interval '2 minutes'` })
        .where(eq(mailOutbox.recipient, "old@example.com"));
      await deps()
        .db.update(mailOutbox)
        .set({ lastError: "connect ECONNREFUSED 127.0.0.1:25" })
        .where(eq(mailOutbox.recipient, "tried@example.com"));
      const list = await listUndeliveredMail(deps());
      expect([list.pendingCount, list.failedCount]).toEqual([2, 0]);
      // The oldest late mail is the one queued two minutes ago; the error is the tried one's.
      expect(Date.now() - list.oldestWaitingSince!.getTime()).toBeGreaterThan(110_000);
      expect(list.lastWaitingError).toBe("connect ECONNREFUSED 127.0.0.1:25");
    });

    it("sets a refused recipient aside at once and sends the rest of the batch", async () => {
      await smtp.start(smtp.port);
      smtp.refuseRecipient = (address) =>
        address === "nobody@example.com"
          ? { code: 550, message: "5.1.1 No such user here" }
          : undefined;
      expectErrorLog(/refused by the relay for good/);
      await queue(deps(), ["alice@example.com", "nobody@example.com", "zoe@example.com"]);
      const report = await deliverDueMail(deps(), transport, { retry: RETRY });
      expect(report).toEqual({ sent: 2, failed: 1 });
      expect(await outbox(deps())).toEqual([
        { recipient: "alice@example.com", status: "sent", attempts: 1, lastError: null },
        {
          recipient: "nobody@example.com",
          status: "failed",
          attempts: 1,
          lastError: stringContaining("No such user here"),
        },
        { recipient: "zoe@example.com", status: "sent", attempts: 1, lastError: null },
      ]);
      const { mails } = await listUndeliveredMail(deps());
      expect(mails.map((mail) => mail.recipient)).toEqual(["nobody@example.com"]);
    });

    it("retries a recipient the relay defers (4xx) after a wait, spending an attempt", async () => {
      await smtp.start(smtp.port);
      smtp.refuseRecipient = () => ({ code: 451, message: "4.2.0 Try again later" });
      await queue(deps(), ["later@example.com"]);
      expect(await deliverDueMail(deps(), transport, { retry: RETRY })).toEqual({
        sent: 0,
        failed: 1,
      });
      expect(await outbox(deps())).toEqual([
        {
          recipient: "later@example.com",
          status: "pending",
          attempts: 1,
          lastError: stringContaining("Try again later"),
        },
      ]);
      // Not due again before the wait is over.
      expect(await deliverDueMail(deps(), transport, { retry: RETRY })).toEqual({
        sent: 0,
        failed: 0,
      });
    });

    it("sets mail aside for staff once it has waited past the longest wait for the relay", async () => {
      expectErrorLog(/unreachable for too long/);
      await queue(deps(), ["old@example.com", "new@example.com"]);
      await deps()
        .db.update(mailOutbox)
        .set({ createdAt: sql`now() - interval '4 days'` })
        .where(eq(mailOutbox.recipient, "old@example.com"));
      const report = await deliverDueMail(deps(), transport, {
        retry: { ...RETRY, maxAgeMs: 3 * 24 * 3_600_000 },
      });
      expect(report.expired).toBe(1);
      expect(await outbox(deps())).toEqual([
        {
          recipient: "new@example.com",
          status: "pending",
          attempts: 0,
          lastError: stringMatching(/ECONNREFUSED/),
        },
        {
          recipient: "old@example.com",
          status: "failed",
          attempts: 0,
          lastError: stringMatching(
            /^Not delivered within 72 h: the mail relay could not be reached/,
          ),
        },
      ]);
    });

    it("sends the backlog once the relay is back, each mail once, by two workers side by side", async () => {
      const second = relayTransport(smtp);
      const options = { pollMs: 50, retry: RETRY, relayProbeMinMs: 50, relayProbeMaxMs: 200 };
      const workers: MailWorker[] = [
        startMailWorker(deps(), transport, options),
        startMailWorker(deps(), second, options),
      ];
      try {
        await queue(deps(), addresses(120, "backlog"));
        for (const worker of workers) worker.kick();
        await expect
          .poll(() => workers.map((worker) => worker.relayUnreachableSince() !== null))
          .toEqual([true, true]);

        await smtp.start(smtp.port);
        await expect
          .poll(async () => (await outbox(deps())).filter((row) => row.status === "sent").length, {
            timeout: 15_000,
          })
          .toBe(120);
        expect(workers.map((worker) => worker.relayUnreachableSince())).toEqual([null, null]);
        const messageIds = smtp.received.map(
          (mail) => /^Message-ID:\s*<([^>]+)>/im.exec(mail.raw)?.[1],
        );
        expect(new Set(messageIds).size).toBe(120);
        expect(smtp.received.map((mail) => mail.to[0]).sort()).toEqual(addresses(120, "backlog"));
        // The outage cost no mail an attempt: each went on its first.
        expect(new Set((await outbox(deps())).map((row) => row.attempts))).toEqual(new Set([1]));
      } finally {
        // stop() closes each worker's transport; afterEach's second close is harmless.
        await Promise.all(workers.map((worker) => worker.stop()));
      }
    });
  },
  { seed: false },
);

it("asks for replies to the staff address on every mail but the staff's own, and says so to the guest", async () => {
  const smtp = new TestSmtpServer();
  await smtp.start();
  const transport = createMailTransport({
    from: "Castellum <no-reply@castellum.example>",
    replyTo: "requests@castellum.example",
    smtpUrl: smtp.url,
    directory: "/nonexistent",
    messageIdDomain: "castellum.example",
  });
  try {
    const mail = renderGuestConfirmation(
      {
        kind: "booking",
        reference: "BR-AAAA-BBBB",
        language: "fr",
        details: {},
      } as unknown as Parameters<typeof renderGuestConfirmation>[0],
      "https://castellum.example/requests/x",
      "https://castellum.example",
    );
    await transport.send({ id: "guest-mail", to: "guest@example.com", ...mail });
    await transport.send({ id: "staff-mail", to: "requests@castellum.example", ...mail });
    const [guest] = smtp.to("guest@example.com");
    const [staff] = smtp.to("requests@castellum.example");
    expect(guest?.raw).toMatch(/^Reply-To: requests@castellum\.example\r?$/m);
    expect(staff?.raw).not.toMatch(/^Reply-To:/im);
    expect(mail.text).toContain(
      "Une question ? Répondez à cet e-mail : votre réponse parvient à notre équipe des réservations.",
    );
  } finally {
    transport.close();
    await smtp.stop();
  }
});

it("tells a relay that is away from a mail the relay refused", () => {
  const kind = (error: object) => classifySmtpError(Object.assign(new Error("x"), error)).kind;
  expect(kind({ code: "ECONNECTION" })).toBe("unreachable");
  expect(kind({ code: "ESOCKET", errno: -111 })).toBe("unreachable");
  expect(kind({ code: "ETIMEDOUT" })).toBe("unreachable");
  expect(kind({ code: "EAUTH", responseCode: 535 })).toBe("unreachable");
  expect(kind({ code: "EAUTH" })).toBe("unreachable");
  expect(kind({ code: "EPROTOCOL", responseCode: 421 })).toBe("unreachable");
  expect(kind({ code: "EENVELOPE", responseCode: 550 })).toBe("rejected");
  expect(kind({ code: "EENVELOPE", responseCode: 503 })).toBe("transient");
  expect(kind({ code: "EMESSAGE", responseCode: 452 })).toBe("transient");
  expect(kind({})).toBe("transient");
});

describe.skipIf(!BACKENDS.includes("postgres"))(
  "a mail the relay took while the database went away [postgres]",
  () => {
    const smtp = new TestSmtpServer();
    let database: Awaited<ReturnType<typeof openTestDatabase>>;
    let admin: pg.Client;
    let name = "";
    beforeAll(async () => {
      await smtp.start();
      database = await openTestDatabase("postgres");
      admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await admin.connect();
      const result = (await database.deps.db.execute(sql`select current_database() as name`)) as {
        rows: { name: string }[];
      };
      name = result.rows[0]!.name;
    });
    afterAll(async () => {
      await admin.query(`alter database "${name}" allow_connections true`);
      await admin.end();
      await database.dispose();
      await smtp.stop();
    });

    it("is recorded as sent once the database answers again, not sent a second time", async () => {
      const relay = relayTransport(smtp);
      // Connections come back once the first try to record the mail as sent has failed: the
      // worker says so in its log.
      let reopened: Promise<unknown> | undefined;
      const log = pino(
        { level: "warn", base: undefined },
        new Writable({
          write(chunk: Buffer, _encoding, done) {
            const entry = JSON.parse(chunk.toString("utf8")) as { level: number; msg?: string };
            if (entry.msg?.startsWith("delivered, but not yet recorded"))
              reopened ??= admin.query(`alter database "${name}" allow_connections true`);
            else if (entry.level >= 50) console.error(`error logged: ${chunk.toString("utf8")}`);
            done();
          },
        }),
      );
      const deps = { ...database.deps, log };
      // The relay accepts the mail; at that moment every connection to the database ends and
      // new ones are refused (a failover, as the app sees one).
      const transport: MailTransport = {
        description: relay.description,
        async send(mail) {
          await relay.send(mail);
          await admin.query(`alter database "${name}" allow_connections false`);
          await admin.query(
            "select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()",
            [name],
          );
        },
        close: () => relay.close(),
      };
      try {
        await queue(deps, ["once@example.com"]);
        expect(await deliverDueMail(deps, transport, { retry: RETRY })).toEqual({
          sent: 1,
          failed: 0,
        });
        // The first try did fail: the mail was recorded by a later one.
        expect(reopened).toBeDefined();
        expect(await outbox(database.deps)).toEqual([
          { recipient: "once@example.com", status: "sent", attempts: 1, lastError: null },
        ]);
        expect(smtp.to("once@example.com")).toHaveLength(1);
      } finally {
        transport.close();
      }
    });
  },
);

import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { guestRequests } from "#db/schema/index.ts";
import { describeEachBackend } from "#tests/setup/database.ts";
import { decodeMail, TestSmtpServer } from "#tests/setup/intake.ts";
import type { Deps } from "../deps.ts";
import { deliverDueMail, enqueueMail, type RetryPolicy } from "./mail-outbox.ts";
import { discardMail, listUndeliveredMail, retryMail } from "./outbox-health.ts";
import { renderGuestConfirmation, type MailRequest } from "./templates.ts";
import { createMailTransport, type MailTransport, type OutgoingMail } from "./transport.ts";
import { expectErrorLog } from "#tests/setup/error-log.ts";
import { anyOf } from "#tests/setup/matchers.ts";

/** No waiting between attempts, so each delivery run makes the next attempt. */
const QUICK_RETRY: RetryPolicy = { baseMs: 0, maxMs: 0, maxAttempts: 3 };

/** A transport whose server refuses every mail, counting what it was asked to send. */
function refusingTransport(): MailTransport & { tried: OutgoingMail[] } {
  const tried: OutgoingMail[] = [];
  return {
    description: "refusing",
    tried,
    async send(mail) {
      tried.push(mail);
      throw new Error("550 5.1.1 mailbox unavailable");
    },
    close() {},
  };
}

/** Stores a guest request and queues its confirmation; returns the request's reference. */
async function requestWithConfirmation(deps: Deps, email: string) {
  const id = randomUUID();
  const reference = `CST-${randomBytes(3).toString("hex").toUpperCase()}`;
  const request: MailRequest = {
    kind: "membership",
    reference,
    language: "en",
    firstName: "Grace",
    lastName: "Hopper",
    email,
    details: {},
  };
  await deps.db.insert(guestRequests).values({
    id,
    kind: request.kind,
    reference,
    language: request.language,
    email,
    firstName: request.firstName,
    lastName: request.lastName,
    details: {},
    statusTokenHash: randomBytes(32).toString("hex"),
  });
  const mail = renderGuestConfirmation(
    request,
    "http://localhost/requests/token",
    "http://localhost",
  );
  await enqueueMail(deps.db, [
    { template: "membership.confirmation", recipient: email, requestId: id, ...mail },
  ]);
  return { reference, subject: mail.subject };
}

/** Runs the outbox until the queued mail has used up its attempts. */
async function exhaustAttempts(deps: Deps, transport: MailTransport) {
  // Giving up is logged as an error: staff have to act on it.
  expectErrorLog(/gave up after the last attempt/);
  for (let attempt = 0; attempt < (QUICK_RETRY.maxAttempts ?? 0); attempt += 1) {
    await deliverDueMail(deps, transport, { retry: QUICK_RETRY });
  }
}

async function failedMailTo(deps: Deps, recipient: string) {
  const { mails } = await listUndeliveredMail(deps);
  const mail = mails.find((candidate) => candidate.recipient === recipient);
  if (!mail) throw new Error(`no failed mail to ${recipient}`);
  return mail;
}

describeEachBackend(
  "undelivered mail",
  (database) => {
    const smtp = new TestSmtpServer();
    beforeAll(() => smtp.start());
    afterAll(() => smtp.stop());

    it("gives up after the last attempt and shows the mail, its error and its request", async () => {
      const { deps } = database();
      const transport = refusingTransport();
      const { reference, subject } = await requestWithConfirmation(deps, "refused@example.com");
      expectErrorLog(/gave up after the last attempt/);

      const first = await deliverDueMail(deps, transport, { retry: QUICK_RETRY });
      expect(first).toEqual({ sent: 0, failed: 1 });
      // Still being retried: counted as pending, not yet listed as undelivered.
      const waiting = await listUndeliveredMail(deps);
      expect(waiting).toEqual({
        mails: [],
        failedCount: 0,
        pendingCount: 1,
        oldestWaitingSince: anyOf(Date),
        lastWaitingError: "550 5.1.1 mailbox unavailable",
      });
      expect(Date.now() - waiting.oldestWaitingSince!.getTime()).toBeLessThan(60_000);

      await deliverDueMail(deps, transport, { retry: QUICK_RETRY });
      await deliverDueMail(deps, transport, { retry: QUICK_RETRY });
      expect(transport.tried.length).toBe(3);
      // Given up: the next runs no longer try it.
      expect(await deliverDueMail(deps, transport, { retry: QUICK_RETRY })).toEqual({
        sent: 0,
        failed: 0,
      });
      expect(transport.tried.length).toBe(3);

      const report = await listUndeliveredMail(deps);
      expect(report.failedCount).toBe(1);
      expect(report.pendingCount).toBe(0);
      expect([report.oldestWaitingSince, report.lastWaitingError]).toEqual([null, null]);
      expect(report.mails).toEqual([
        expect.objectContaining({
          recipient: "refused@example.com",
          subject,
          template: "membership.confirmation",
          reference,
          attempts: 3,
          lastError: "550 5.1.1 mailbox unavailable",
        }),
      ]);
    });

    it("sends a retried mail through a working transport, once", async () => {
      const { deps } = database();
      const failed = await failedMailTo(deps, "refused@example.com");
      expect(await retryMail(deps, failed.id)).toEqual({ outcome: "retried" });
      expect((await listUndeliveredMail(deps)).failedCount).toBe(0);

      const working = createMailTransport({
        from: "Castellum <no-reply@castellum.test>",
        smtpUrl: smtp.url,
        directory: "/tmp/castellum-test-unused",
        messageIdDomain: "castellum.test",
      });
      try {
        expect(await deliverDueMail(deps, working, { retry: QUICK_RETRY })).toEqual({
          sent: 1,
          failed: 0,
        });
      } finally {
        working.close();
      }
      const received = smtp.to("refused@example.com");
      expect(received.length).toBe(1);
      expect(decodeMail(received[0]!.raw)).toContain(`Subject: ${failed.subject}`);
      // Sent mail is not failed any more: nothing to retry.
      expect(await retryMail(deps, failed.id)).toEqual({ outcome: "not_failed" });
    });

    it("discards a failed mail: off the list and never sent", async () => {
      const { deps } = database();
      const transport = refusingTransport();
      await requestWithConfirmation(deps, "older@example.com");
      await exhaustAttempts(deps, transport);
      await requestWithConfirmation(deps, "newer@example.com");
      await exhaustAttempts(deps, transport);
      // Newest first; the count covers what the limit leaves out.
      const page = await listUndeliveredMail(deps, { limit: 1 });
      expect(page.mails.map((mail) => mail.recipient)).toEqual(["newer@example.com"]);
      expect(page.failedCount).toBe(2);

      const newer = await failedMailTo(deps, "newer@example.com");
      expect(await discardMail(deps, newer.id, { by: "staff@castellum.test" })).toEqual({
        outcome: "discarded",
      });
      const after = await listUndeliveredMail(deps);
      expect(after.mails.map((mail) => mail.recipient)).toEqual(["older@example.com"]);
      expect(after.failedCount).toBe(1);

      const tried = transport.tried.length;
      await deliverDueMail(deps, transport, { retry: QUICK_RETRY });
      expect(transport.tried.length).toBe(tried);
      // A discarded mail can be neither discarded again nor retried.
      expect(await discardMail(deps, newer.id, { by: "staff@castellum.test" })).toEqual({
        outcome: "not_failed",
      });
      expect(await retryMail(deps, newer.id)).toEqual({ outcome: "not_failed" });
    });

    it("answers not_found for an unknown mail and not_failed for one still pending", async () => {
      const { deps } = database();
      for (const id of [randomUUID(), "not-a-mail-id"]) {
        expect(await retryMail(deps, id)).toEqual({ outcome: "not_found" });
        expect(await discardMail(deps, id, { by: "staff@castellum.test" })).toEqual({
          outcome: "not_found",
        });
      }

      const transport = refusingTransport();
      await requestWithConfirmation(deps, "pending@example.com");
      await deliverDueMail(deps, transport, { retry: QUICK_RETRY });
      const { pendingCount } = await listUndeliveredMail(deps);
      expect(pendingCount).toBe(1);
      const pendingId = transport.tried[0]!.id;
      expect(await retryMail(deps, pendingId)).toEqual({ outcome: "not_failed" });
      expect(await discardMail(deps, pendingId, { by: "staff@castellum.test" })).toEqual({
        outcome: "not_failed",
      });
      // Untouched: it keeps being retried.
      await deliverDueMail(deps, transport, { retry: QUICK_RETRY });
      expect(transport.tried.map((mail) => mail.to)).toEqual([
        "pending@example.com",
        "pending@example.com",
      ]);
    });
  },
  { seed: false },
);

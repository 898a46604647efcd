import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { domainEvents, guestRequestMessages, mailOutbox } from "#db/schema/index.ts";
import { ErrorSchema, ValidationErrorSchema } from "#domain/api/operation.ts";
import {
  MessageConflictSchema,
  replyToRequest,
  STAFF_MESSAGE_OPERATIONS,
} from "#domain/conversation/messages.contract.ts";
import { readThreadByStatusToken } from "#domain/conversation/messages.ts";
import { MESSAGE_MAX_LENGTH } from "#domain/conversation/message-limits.ts";
import { COLLECTION_OPERATIONS } from "#domain/staff/inbox.contract.ts";
import { dataOf } from "#tests/setup/api.ts";
import { describeEachBackend } from "#tests/setup/database.ts";
import {
  decodeMail,
  serveIntake,
  solveBotCheck,
  submitGuestForm as submit,
  TestSmtpServer,
  validBookingRequest,
  validMembership,
  validPropertyBooking,
} from "#tests/setup/intake.ts";
import { createTestStaff, signIn, staffCall } from "#tests/setup/staff.ts";

const STATUS_LINK = /\/requests\/([A-Za-z0-9_-]{32})\?lang=(\w+)/;

/** The status token of a request, read from the guest's confirmation mail as the guest would. */
async function statusTokenOf(smtp: TestSmtpServer, email: string): Promise<string> {
  const first = await vi.waitFor(
    () => {
      const mail = smtp.to(email)[0];
      if (!mail) throw new Error(`no mail to ${email} yet`);
      return mail;
    },
    { timeout: 10_000, interval: 50 },
  );
  const confirmation = decodeMail(first.raw);
  return confirmation.match(STATUS_LINK)![1]!;
}

/** The guest's reply as their status page sends it. */
async function reply(
  baseUrl: string,
  token: string,
  body: Record<string, unknown>,
  language = "en",
) {
  return staffCall(baseUrl, "POST", `/api/requests/${token}/messages`, {
    body,
    headers: { "Accept-Language": language },
  });
}

describeEachBackend("the conversation with the guest", (database) => {
  const smtp = new TestSmtpServer();
  beforeAll(() => smtp.start());
  afterAll(() => smtp.stop());
  const server = serveIntake(
    () => database().deps,
    () => ({ SMTP_URL: smtp.url, MAIL_POLL_MS: 50, PUBLIC_URL: "https://castellum.test" }),
  );
  const sent: Record<string, { id: string; reference: string }> = {};
  const tokens: Record<string, string> = {};
  const cookies: Record<string, string> = {};
  const BOOKING = STAFF_MESSAGE_OPERATIONS.booking_request;

  beforeAll(async () => {
    const deps = database().deps;
    await createTestStaff(deps, "ada@castellum.test", { isAdmin: true, displayName: "Ada" });
    await createTestStaff(deps, "bruno@castellum.test", { isAdmin: true, displayName: "Bruno" });
    await createTestStaff(deps, "clerk@castellum.test", { isAdmin: false });
    const url = server().url;
    sent.french = await submit(
      url,
      "/booking-requests",
      validBookingRequest({ email: "camille@example.fr", firstName: "Camille" }),
      "fr",
    );
    sent.chinese = await submit(
      url,
      "/bookings",
      validPropertyBooking({ email: "li@example.cn", firstName: "Li" }),
      "zh",
    );
    sent.italian = await submit(
      url,
      "/membership/apply",
      validMembership({ email: "giulia@example.it", firstName: "Giulia" }),
      "it",
    );
    tokens.french = await statusTokenOf(smtp, "camille@example.fr");
    tokens.chinese = await statusTokenOf(smtp, "li@example.cn");
    tokens.italian = await statusTokenOf(smtp, "giulia@example.it");
    for (const email of ["ada@castellum.test", "bruno@castellum.test", "clerk@castellum.test"])
      cookies[email] = await signIn(url, email);
  });

  const as = (email: string) => (method: string, path: string, body?: unknown) =>
    staffCall(server().url, method, path, { cookie: cookies[email], body });
  const ada = as("ada@castellum.test");
  const bruno = as("bruno@castellum.test");

  it("mails a staff message to the guest in French with their own status link, and shows it on their page", async () => {
    const path = `/api/booking-requests/${sent.french!.id}/messages`;
    const answer = await ada("POST", path, {
      body: "Bonjour Camille,\nle château est libre : souhaitez-vous <b>confirmer</b> ?",
    });
    expect(answer.status).toBe(201);
    const thread = dataOf(BOOKING.send, answer, 201);
    expect(thread).toHaveLength(1);
    expect(thread[0]).toMatchObject({ author: "staff", authorName: "Ada", readAt: null });

    await expect.poll(() => smtp.to("camille@example.fr").length, { timeout: 10_000 }).toBe(2);
    const mail = decodeMail(smtp.to("camille@example.fr")[1]!.raw);
    expect(mail).toContain("Un message au sujet de votre demande de réservation");
    expect(mail).toContain("Ada, de notre équipe, vous a écrit");
    expect(mail).toContain("le château est libre");
    // Plain text: the guest's mail shows the characters, the HTML part never runs them as tags.
    expect(mail).toContain("&lt;b&gt;confirmer&lt;/b&gt;");
    expect(mail).not.toContain("<b>confirmer</b></");
    const [, token, lang] = mail.match(STATUS_LINK)!;
    expect(token).toBe(tokens.french);
    expect(lang).toBe("fr");
    expect(mail).toContain(`https://castellum.test/requests/${tokens.french}?lang=fr`);

    const page = await readThreadByStatusToken(database().deps, tokens.french!);
    expect(page?.map((message) => message.body)).toEqual([thread[0]!.body]);
  });

  it("mails a staff message in Chinese for a property booking and in Italian for a membership", async () => {
    const booking = await ada("POST", `/api/bookings/${sent.chinese!.id}/messages`, {
      body: "您好，我们已与庄园确认日期。",
    });
    expect(booking.status).toBe(201);
    const membership = await ada(
      "POST",
      `/api/membership/applications/${sent.italian!.id}/messages`,
      { body: "Gentile Giulia, potrebbe dirci di più?" },
    );
    expect(membership.status).toBe(201);
    await expect.poll(() => smtp.to("li@example.cn").length, { timeout: 10_000 }).toBe(2);
    const chinese = decodeMail(smtp.to("li@example.cn")[1]!.raw);
    expect(chinese).toContain("关于您的庄园预订申请");
    expect(chinese).toContain("我们已与庄园确认日期");
    expect(chinese.match(STATUS_LINK)?.slice(1)).toEqual([tokens.chinese, "zh"]);
    await expect.poll(() => smtp.to("giulia@example.it").length, { timeout: 10_000 }).toBe(2);
    const italian = decodeMail(smtp.to("giulia@example.it")[1]!.raw);
    expect(italian).toContain("Le ha scritto a proposito della Sua domanda di adesione");
    expect(italian.match(STATUS_LINK)?.slice(1)).toEqual([tokens.italian, "it"]);
  });

  it("shows a guest's reply as unread in the inbox until a member of staff reads the thread", async () => {
    const before = await ada("GET", `/api/booking-requests?q=camille`);
    expect(dataOf(COLLECTION_OPERATIONS.booking_request.list, before, 200)[0]?.unreadMessages).toBe(
      0,
    );
    const answer = await reply(
      server().url,
      tokens.french!,
      { body: "Oui, nous confirmons !", turnstileToken: await solveBotCheck(server().url) },
      "fr",
    );
    expect(answer.status).toBe(201);
    expect(dataOf(replyToRequest, answer, 201).map((message) => message.author)).toEqual([
      "staff",
      "guest",
    ]);

    const unread = await ada("GET", `/api/booking-requests?q=camille`);
    expect(dataOf(COLLECTION_OPERATIONS.booking_request.list, unread, 200)[0]?.unreadMessages).toBe(
      1,
    );
    const detail = await ada("GET", `/api/booking-requests/${sent.french!.id}`);
    expect(dataOf(COLLECTION_OPERATIONS.booking_request.get, detail, 200).unreadMessages).toBe(1);

    // Bruno reads the thread: it is read for Ada too.
    const thread = await bruno("GET", `/api/booking-requests/${sent.french!.id}/messages`);
    const messages = dataOf(BOOKING.list, thread, 200);
    expect(messages.at(-1)).toMatchObject({ author: "guest", body: "Oui, nous confirmons !" });
    expect(messages.at(-1)?.readAt).not.toBeNull();
    const read = await ada("GET", `/api/booking-requests?q=camille`);
    expect(dataOf(COLLECTION_OPERATIONS.booking_request.list, read, 200)[0]?.unreadMessages).toBe(
      0,
    );

    // The reply is an event for systems outside, without the guest's contact details.
    const events = await database()
      .deps.db.select()
      .from(domainEvents)
      .where(eq(domainEvents.type, "request.message_received"));
    const event = events.find((row) => row.data.id === sent.french!.id);
    expect(event?.data).toMatchObject({
      collection: "booking-requests",
      reference: sent.french!.reference,
      status: "New",
      actor: "guest",
    });
    expect(JSON.stringify(event?.data)).not.toContain("camille");
    expect(JSON.stringify(event?.data)).not.toContain("nous confirmons");
    expect(event?.contact).toMatchObject({ email: "camille@example.fr" });
  });

  it("stops a message when a colleague wrote to the guest since the writer opened the request, and sends it on request", async () => {
    const path = `/api/bookings/${sent.chinese!.id}/messages`;
    const opened = dataOf(
      STAFF_MESSAGE_OPERATIONS.property_booking.list,
      await ada("GET", path),
      200,
    );
    const seen = opened.at(-1)?.id ?? null;
    expect((await bruno("POST", path, { body: "Bruno here: the chef is booked." })).status).toBe(
      201,
    );
    // Bruno's mail is made by the mail job: count after a pass of it.
    await server().services.mailWorker.runNow();
    const mailsBefore = (await database().deps.db.select().from(mailOutbox)).length;

    const refused = await ada("POST", path, { body: "Ada: the chef?", lastSeenMessageId: seen });
    expect(refused.status).toBe(409);
    const conflict = MessageConflictSchema.parse(refused.body);
    expect(conflict.message).toMatch(/Someone else wrote to the guest/);
    expect(conflict.messages.at(-1)?.body).toBe("Bruno here: the chef is booked.");
    // Nothing was stored or mailed.
    expect(
      (await readThreadByStatusToken(database().deps, tokens.chinese!))?.map((m) => m.body),
    ).not.toContain("Ada: the chef?");
    await server().services.mailWorker.runNow();
    expect((await database().deps.db.select().from(mailOutbox)).length).toBe(mailsBefore);

    // Sent anyway, having seen Bruno's: 201. One's own earlier message is no conflict.
    const anyway = await ada("POST", path, {
      body: "Ada: the chef?",
      lastSeenMessageId: conflict.messages.at(-1)!.id,
    });
    expect(anyway.status).toBe(201);
    const again = await ada("POST", path, {
      body: "Ada again.",
      lastSeenMessageId: conflict.messages.at(-1)!.id,
    });
    expect(again.status).toBe(201);
  });

  it("refuses a reply without a valid bot check, empty or too long, in the guest's language, and stores nothing", async () => {
    const url = server().url;
    const count = async () =>
      (await readThreadByStatusToken(database().deps, tokens.italian!))!.length;
    const before = await count();

    const missing = await reply(url, tokens.italian!, { body: "Salve" }, "it");
    expect(missing.status).toBe(403);
    expect(missing.body).toMatchObject({ error: "invalid_bot_token" });
    const forged = await reply(url, tokens.italian!, { body: "Salve", turnstileToken: "Zm9v" });
    expect(forged.status).toBe(403);

    const tooLong = await reply(
      url,
      tokens.italian!,
      { body: "a".repeat(MESSAGE_MAX_LENGTH + 1), turnstileToken: await solveBotCheck(url) },
      "it",
    );
    expect(tooLong.status).toBe(400);
    expect(ValidationErrorSchema.parse(tooLong.body).errors).toEqual([
      { path: "body", message: "Un messaggio può contenere al massimo 2000 caratteri." },
    ]);
    const empty = await reply(
      url,
      tokens.italian!,
      { body: "   ", turnstileToken: await solveBotCheck(url) },
      "zh",
    );
    expect(empty.status).toBe(400);
    expect(ValidationErrorSchema.parse(empty.body).errors![0]!.message).toBe("请填写消息内容。");
    expect(await count()).toBe(before);

    // A token is spent once: the same proof a second time is refused.
    const proof = await solveBotCheck(url);
    expect(
      (await reply(url, tokens.italian!, { body: "Prima", turnstileToken: proof })).status,
    ).toBe(201);
    expect(
      (await reply(url, tokens.italian!, { body: "Seconda", turnstileToken: proof })).status,
    ).toBe(403);
    expect(await count()).toBe(before + 1);
  });

  it("keeps each thread to its own status link", async () => {
    const url = server().url;
    const unknown = await reply(url, "A".repeat(32), {
      body: "Hello",
      turnstileToken: await solveBotCheck(url),
    });
    expect(unknown.status).toBe(404);
    expect(ErrorSchema.parse(unknown.body).message).toBeTruthy();
    expect((await reply(url, "short", { body: "Hello", turnstileToken: "x" })).status).toBe(404);

    // The Chinese guest's token writes to their own request only, and reads only its thread.
    const answer = await reply(url, tokens.chinese!, {
      body: "谢谢！",
      turnstileToken: await solveBotCheck(url),
    });
    const theirs = dataOf(replyToRequest, answer, 201);
    const french = await readThreadByStatusToken(database().deps, tokens.french!);
    expect(french!.map((message) => message.body)).not.toContain("谢谢！");
    expect(theirs.map((message) => message.body)).not.toContain("Oui, nous confirmons !");
    const rows = await database()
      .deps.db.select()
      .from(guestRequestMessages)
      .where(eq(guestRequestMessages.body, "谢谢！"));
    expect(rows.map((row) => row.requestId)).toEqual([sent.chinese!.id]);
  });

  describe("staff calls", () => {
    it("are for admins only", async () => {
      const path = `/api/booking-requests/${sent.french!.id}/messages`;
      for (const [cookie, expected] of [
        [undefined, 401],
        [cookies["clerk@castellum.test"], 403],
      ] as const) {
        const read = await staffCall(server().url, "GET", path, { cookie });
        expect(read.status).toBe(expected);
        expect(read.text).not.toContain("confirmons");
        const write = await staffCall(server().url, "POST", path, { cookie, body: { body: "x" } });
        expect(write.status).toBe(expected);
      }
    });

    it("answer 404 for a request of another kind or none", async () => {
      expect((await ada("GET", `/api/bookings/${sent.french!.id}/messages`)).status).toBe(404);
      expect(
        (await ada("POST", `/api/booking-requests/not-a-uuid/messages`, { body: "x" })).status,
      ).toBe(404);
    });
  });
});

describeEachBackend("the guest's replies are rate limited", (database) => {
  const server = serveIntake(
    () => database().deps,
    () => ({ RATE_LIMIT_FORMS_MAX: 3 }),
  );

  it("refuses replies over the limit with 429 and stores none of them", async () => {
    const url = server().url;
    // The form itself counts against the same budget (one budget for what a guest sends).
    const request = await submit(url, "/booking-requests", validBookingRequest());
    const { hashStatusToken } = await import("#domain/requests/intake/reference.ts");
    const { guestRequests } = await import("#db/schema/index.ts");
    // No mail server here: the token is planted as the mail would carry it.
    const token = "T".repeat(32);
    await database()
      .deps.db.update(guestRequests)
      .set({ statusTokenHash: hashStatusToken(token) })
      .where(eq(guestRequests.id, request.id));
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const answer = await reply(url, token, {
        body: `Message ${i}`,
        turnstileToken: await solveBotCheck(url),
      });
      statuses.push(answer.status);
      if (answer.status === 429) expect(answer.headers.get("retry-after")).toBeTruthy();
    }
    expect(statuses).toEqual([201, 201, 429, 429]);
    const stored = await readThreadByStatusToken(database().deps, token);
    expect(stored?.map((message) => message.body)).toEqual(["Message 0", "Message 1"]);
  });
});

import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Redis } from "ioredis";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mailOutbox } from "#db/schema/index.ts";
import { BOOKING_TYPES } from "#domain/requests/options.ts";
import { ErrorSchema } from "#domain/api/operation.ts";
import { readJson } from "#tests/setup/api.ts";
import { describeEachBackend } from "#tests/setup/database.ts";
import { stringMatching } from "#tests/setup/matchers.ts";
import {
  decodeMail,
  serveIntake,
  solveBotCheck,
  TestSmtpServer,
  validBookingRequest,
  validMembership,
} from "#tests/setup/intake.ts";

async function postJson(url: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, body: await readJson(response) };
}

describeEachBackend("mail through the outbox during an SMTP outage", (database) => {
  const smtp = new TestSmtpServer();
  beforeAll(async () => {
    // Take a free port, then close the server: the app starts while mail is down.
    await smtp.start();
    await smtp.stop();
  });
  afterAll(() => smtp.stop());
  const server = serveIntake(
    () => database().deps,
    () => ({ SMTP_URL: smtp.url, MAIL_RETRY_BASE_MS: 100, MAIL_POLL_MS: 100 }),
  );

  it("keeps mail while SMTP is down and delivers every message once it is back", async () => {
    const emails = ["outage1@example.com", "outage2@example.com", "outage3@example.com"];
    for (const email of emails) {
      const token = await solveBotCheck(server().url);
      const answer = await postJson(`${server().url}/api/membership/apply`, {
        ...validMembership({ email }),
        turnstileToken: token,
      });
      expect(answer.status).toBe(201);
    }
    // The relay refuses connections: every message waits, none spends an attempt on the
    // outage, and the ones tried say why they wait.
    const pending = async () =>
      (await database().deps.db.select().from(mailOutbox)).filter(
        (mail) => mail.status === "pending",
      );
    // Every request's two mails are made: a pass may skip events another job holds locked
    // (the webhook fan-out takes them too), and the next pass makes their mail.
    await expect
      .poll(
        async () => {
          await server().services.mailWorker.runNow();
          return (await pending()).length;
        },
        { timeout: 10_000 },
      )
      .toBe(6);
    await expect
      .poll(async () => (await pending()).filter((mail) => mail.lastError !== null).length, {
        timeout: 10_000,
      })
      .toBeGreaterThan(0);
    const waiting = await pending();
    expect(waiting.map((mail) => mail.attempts)).toEqual([0, 0, 0, 0, 0, 0]);
    expect(waiting.filter((mail) => mail.lastError !== null).map((mail) => mail.lastError)).toEqual(
      waiting.filter((mail) => mail.lastError !== null).map(() => stringMatching(/ECONNREFUSED/)),
    );

    await smtp.start(smtp.port);
    await expect.poll(async () => (await pending()).length, { timeout: 20_000 }).toBe(0);
    for (const email of emails) expect(smtp.to(email).length).toBe(1);
    // The relay's return ended the wait: each message went on its first counted attempt.
    const sent = await database()
      .deps.db.select()
      .from(mailOutbox)
      .where(eq(mailOutbox.status, "sent"));
    expect(sent.map((mail) => mail.attempts)).toEqual([1, 1, 1, 1, 1, 1]);
    expect(decodeMail(smtp.to("outage1@example.com")[0]!.raw)).toContain("membership application");
  });
});

describeEachBackend(
  "rate limits in memory",
  (database) => {
    const server = serveIntake(
      () => database().deps,
      () => ({ RATE_LIMIT_FORMS_MAX: 2, RATE_LIMIT_CHALLENGE_MAX: 3 }),
    );

    it("answers 429 with a translated message and Retry-After past the limit", async () => {
      const url = `${server().url}/api/booking-requests`;
      const statuses = [];
      for (let i = 0; i < 2; i += 1)
        statuses.push((await postJson(url, validBookingRequest())).status);
      expect(statuses).toEqual([403, 403]);
      const limited = await postJson(url, validBookingRequest(), { "Accept-Language": "fr" });
      expect(limited.status).toBe(429);
      expect(limited.headers.get("retry-after")).toMatch(/^\d+$/);
      expect(ErrorSchema.parse(limited.body).message).toMatch(/^Trop de requêtes/);
      const english = await postJson(url, validBookingRequest());
      expect(ErrorSchema.parse(english.body).message).toBe(
        "Too many requests from your address. Please try again in 10 minutes.",
      );
    });

    it("limits the challenge endpoint on its own counter", async () => {
      const statuses = [];
      for (let i = 0; i < 4; i += 1)
        statuses.push((await fetch(`${server().url}/api/bot-check/challenge`)).status);
      expect(statuses).toEqual([200, 200, 200, 429]);
    });
  },
  { seed: false },
);

const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

describeEachBackend(
  "rate limits in Redis, shared by two app instances",
  (database) => {
    beforeAll(async () => {
      const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
      await redis.ping();
      await redis.quit();
    });
    // Two instances on the same database and the same Redis.
    const env = () => ({ REDIS_URL, RATE_LIMIT_FORMS_MAX: 3, RATE_LIMIT_WINDOW_SECONDS: 60 });
    const first = serveIntake(() => database().deps, env);
    const second = serveIntake(() => database().deps, env);

    it("counts requests to either instance together", async () => {
      // Fresh counters for this run: the key names the client IP, so clear it first.
      const redis = new Redis(REDIS_URL);
      for (const key of await redis.keys("rate:forms:*")) await redis.del(key);
      await redis.quit();
      const statuses = [];
      for (const server of [first, second, first, second]) {
        statuses.push(
          (await postJson(`${server().url}/api/membership/apply`, validMembership())).status,
        );
      }
      expect(statuses).toEqual([403, 403, 403, 429]);
    });
  },
  { seed: false },
);

describeEachBackend(
  "Cloudflare Turnstile, verified through a local siteverify",
  (database) => {
    let siteverify: Server;
    let verifyUrl = "";
    const seen: Record<string, unknown>[] = [];
    beforeAll(async () => {
      siteverify = createServer((req, res) => {
        let body = "";
        req.on("data", (chunk) => (body += chunk));
        req.on("end", () => {
          const form = JSON.parse(body) as { secret: string; response: string; remoteip?: string };
          seen.push(form);
          const success = form.secret === "test-secret" && form.response.startsWith("good-");
          res.setHeader("Content-Type", "application/json");
          res.end(
            JSON.stringify({ success, "error-codes": success ? [] : ["invalid-input-response"] }),
          );
        });
      });
      await new Promise<void>((resolve) => siteverify.listen(0, "127.0.0.1", resolve));
      verifyUrl = `http://127.0.0.1:${(siteverify.address() as AddressInfo).port}/siteverify`;
    });
    afterAll(() => new Promise<void>((resolve) => siteverify.close(() => resolve())));
    const server = serveIntake(
      () => database().deps,
      () => ({
        TURNSTILE_SITE_KEY: "test-site-key",
        TURNSTILE_SECRET_KEY: "test-secret",
        TURNSTILE_VERIFY_URL: verifyUrl,
      }),
    );

    it("accepts a token siteverify confirms, once", async () => {
      const url = `${server().url}/api/membership/apply`;
      const body = { ...validMembership({ email: "ts@example.com" }), turnstileToken: "good-1" };
      expect((await postJson(url, body)).status).toBe(201);
      expect(seen.at(-1)).toMatchObject({ secret: "test-secret", response: "good-1" });
      const replay = await postJson(url, { ...body, email: "ts2@example.com" });
      expect(replay.status).toBe(403);
      expect(ErrorSchema.parse(replay.body).message).toBe(
        "Bot protection verification failed. Please try again.",
      );
    });

    it("refuses a token siteverify rejects, and offers no ALTCHA challenge", async () => {
      const bad = await postJson(`${server().url}/api/membership/apply`, {
        ...validMembership(),
        turnstileToken: "bad-1",
      });
      expect(bad.status).toBe(403);
      expect((await fetch(`${server().url}/api/bot-check/challenge`)).status).toBe(404);
    });
  },
  { seed: false },
);

describe("GET /api/openapi.json", () => {
  it("describes every public endpoint from the shared schemas, with the error shapes", async () => {
    const { buildOpenApiDocument } = await import("./openapi.ts");
    const document = buildOpenApiDocument("https://castellum.example");
    const schemas = document.components!.schemas as Record<string, unknown>;
    const publicPaths = Object.entries(document.paths!)
      .filter(([, item]) =>
        Object.values(item as Record<string, { security?: unknown[] }>).some(
          (operation) => Array.isArray(operation.security) && operation.security.length === 0,
        ),
      )
      .map(([path]) => path)
      .sort();
    expect(publicPaths).toEqual([
      // A staff invitation and a password reset are opened by the link's token.
      "/api/admin/invitations/{token}",
      "/api/admin/login",
      "/api/admin/password-reset",
      "/api/admin/password-reset/{token}",
      "/api/admin/setup",
      "/api/booking-requests",
      "/api/bookings",
      "/api/bot-check/challenge",
      "/api/castles",
      "/api/castles/{idOrSlug}",
      "/api/castles/{idOrSlug}/availability",
      "/api/castles/{idOrSlug}/quote",
      "/api/ical/{feed}",
      "/api/membership/apply",
      // Stripe's notices: checked by their signature.
      "/api/payments/stripe",
      // An owner's passkey sign-in, beside the emailed code.
      "/api/property-owners/passkeys/authentication",
      "/api/property-owners/passkeys/authentication/options",
      "/api/property-owners/verify-code",
      "/api/property-owners/verify-email",
      "/api/requests/{token}",
      "/api/requests/{token}/cancel",
      "/api/requests/{token}/messages",
      "/api/requests/{token}/offers/{offerId}/accept",
      "/api/requests/{token}/offers/{offerId}/casl",
      "/api/requests/{token}/offers/{offerId}/checkout",
      "/api/requests/{token}/offers/{offerId}/decline",
      "/api/requests/{token}/payments/{paymentId}/receipt.pdf",
    ]);
    const booking = schemas.BookingRequest as {
      properties: Record<string, { items?: { enum?: string[] }; minLength?: number }>;
      required: string[];
    };
    expect(booking.properties.bookingType?.items?.enum).toEqual([...BOOKING_TYPES]);
    expect(booking.properties.firstName?.minLength).toBe(2);
    // The bot token may come in the X-Bot-Token header instead: not a required field.
    expect(booking.required).toContain("email");
    expect(booking.required).not.toContain("turnstileToken");
    const membership = schemas.MembershipApplication as {
      properties: Record<string, { items?: { enum?: string[] } }>;
    };
    expect(membership.properties.interests?.items?.enum?.length).toBe(18);
    const post = document.paths!["/api/booking-requests"]!.post!;
    expect(Object.keys(post.responses!).sort()).toEqual([
      "201",
      "400",
      "403",
      "413",
      "415",
      "422",
      "429",
      "503",
    ]);
    const schemaOf = (response: unknown) =>
      (response as { content?: { "application/json"?: { schema?: { $ref?: string } } } }).content?.[
        "application/json"
      ]?.schema?.$ref;
    expect(schemaOf(post.responses!["201"])).toBe("#/components/schemas/StoredRequest");
    expect(schemaOf(post.responses!["403"])).toBe("#/components/schemas/BotCheckError");
    const headersOf = (response: unknown) =>
      (response as { headers?: Record<string, unknown> }).headers ?? {};
    expect(Object.keys(headersOf(post.responses!["429"]))).toEqual(["Retry-After"]);
    expect((post.parameters ?? []).map((p) => "name" in p && p.name)).toEqual([
      "Idempotency-Key",
      "X-Bot-Token",
    ]);
    const challenge = document.paths!["/api/bot-check/challenge"]!.get!;
    expect(schemaOf(challenge.responses!["200"])).toBe("#/components/schemas/AltchaChallenge");
    expect(Object.keys(challenge.responses!).sort()).toEqual(["200", "404", "429", "503"]);
    const castle = document.paths!["/api/castles/{idOrSlug}"]!.get!;
    expect(schemaOf(castle.responses!["200"])).toBe("#/components/schemas/Castle");
    const validationError = schemas.ValidationError as {
      properties: { errors: { items: { $ref?: string; required?: string[] } } };
    };
    const issue = validationError.properties.errors.items.$ref
      ? (schemas.FieldError as { required: string[] })
      : validationError.properties.errors.items;
    expect(issue.required).toEqual(["path", "message"]);
  });
});

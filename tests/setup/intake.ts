import { listenOnFreePort } from "./http.ts";
import { createChallenge, solveChallenge, type Challenge } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/pbkdf2";
import { afterAll, beforeAll } from "vitest";
import type { Deps } from "#domain/deps.ts";
import { createExpressApp } from "#server/app.ts";
import { createServices, type Services, type ServicesEnv } from "#server/services.ts";

export { decodeMail } from "./mail-text.ts";
export { TestSmtpServer, type ReceivedMail } from "./smtp.ts";

export const STAFF_EMAIL = "staff@castellum.test";

/** The services' configuration for tests: light proof of work, a quick mail worker. */
export function testServicesEnv(overrides: Partial<ServicesEnv> = {}): ServicesEnv {
  return {
    NODE_ENV: "test",
    OFFER_HOURS: 72,
    GUEST_DATA_RETENTION_DAYS: 730,
    PRIVACY_JOB_INTERVAL_SECONDS: 3600,
    FINANCIAL_RECORDS_YEARS: 10,
    SESSION_IDLE_HOURS: 12,
    SESSION_MAX_DAYS: 7,
    PRIVACY_CONTACT_EMAIL: "privacy@castellum.test",
    DEPOSIT_DUE_HOURS: 72,
    PAYMENT_BANK_DETAILS: "IBAN IT60 X054 2811 1010 0000 0123 456 · Castellum S.r.l.",
    CASL_WALLET_ADDRESS: "0x1111111111111111111111111111111111111111",
    STRIPE_API_URL: "https://api.stripe.com",
    OWNER_COMMISSION_PERCENT: 15,
    DATA_DIR: "/tmp/castellum-test-unused",
    PUBLIC_URL: "http://localhost",
    SMTP_URL: undefined,
    MAIL_FROM: "Castellum <no-reply@castellum.test>",
    STAFF_EMAIL,
    MAIL_RETRY_BASE_MS: 50,
    MAIL_POLL_MS: 50,
    ALTCHA_HMAC_SECRET: undefined,
    ALTCHA_COST: 1,
    ALTCHA_EXPIRES_SECONDS: 600,
    TURNSTILE_SITE_KEY: undefined,
    TURNSTILE_SECRET_KEY: undefined,
    TURNSTILE_VERIFY_URL: "https://challenges.cloudflare.com/turnstile/v0/siteverify",
    REDIS_URL: undefined,
    RATE_LIMIT_FORMS_MAX: 1000,
    RATE_LIMIT_CHALLENGE_MAX: 1000,
    RATE_LIMIT_WINDOW_SECONDS: 600,
    BOOKING_HORIZON_MONTHS: 18,
    ADMIN_EMAIL_DOMAIN: "castellum.test",
    STAFF_LANGUAGE: "en",
    MAIL_MAX_ATTEMPTS: 10,
    MAIL_MAX_AGE_HOURS: 72,
    SMTP_CONNECTIONS: 4,
    LOGIN_MAX_PER_ACCOUNT: 10,
    LOGIN_MAX_PER_IP: 50,
    LOGIN_WINDOW_MINUTES: 15,
    STAFF_MFA_REQUIRED: undefined,
    OWNER_CODES_PER_EMAIL: 50,
    OWNER_CODES_PER_IP: 1000,
    RESPONSE_CACHE_MB: 64,
    SEARCH_FACTS_INDEX: true,
    ICAL_SYNC_MINUTES: 30,
    OUTBOUND_ALLOW_PRIVATE_NETWORKS: false,
    REQUEST_RESPONSE_HOURS: 48,
    MEMBERSHIP_RESPONSE_HOURS: undefined,
    LIFECYCLE_INTERVAL_SECONDS: 60,
    SECURITY_LOG_RETENTION_DAYS: 365,
    ...overrides,
  };
}

export interface IntakeServer {
  url: string;
  services: Services;
}

/**
 * Serves the Express app with real request intake (bot check, mail worker, rate limits) on a
 * free port for the current suite. `env` is read when the suite starts.
 */
export function serveIntake(
  deps: () => Deps,
  env: () => Partial<ServicesEnv> = () => ({}),
): () => IntakeServer {
  let current: IntakeServer | undefined;
  let close: () => Promise<void> = async () => {};
  beforeAll(async () => {
    const servicesEnv = testServicesEnv(env());
    const services = await createServices(deps(), servicesEnv);
    const app = createExpressApp({
      deps: deps(),
      env: { NODE_ENV: "test", PUBLIC_URL: servicesEnv.PUBLIC_URL },
      services,
    });
    const server = await listenOnFreePort(app);
    current = { url: server.baseUrl, services };
    close = async () => {
      await server.close();
      await services.close();
    };
  });
  afterAll(() => close());
  return () => {
    if (!current) throw new Error("intake server not started");
    return current;
  };
}

/** Does what the ALTCHA widget does: fetches a challenge and solves it. */
export async function solveBotCheck(baseUrl: string): Promise<string> {
  const response = await fetch(`${baseUrl}/api/bot-check/challenge`);
  if (!response.ok) throw new Error(`challenge: ${response.status}`);
  return solveAltcha((await response.json()) as Challenge);
}

export async function solveAltcha(challenge: Challenge): Promise<string> {
  const solution = await solveChallenge({ challenge, deriveKey });
  if (!solution) throw new Error("could not solve the challenge");
  return Buffer.from(JSON.stringify({ challenge, solution })).toString("base64");
}

/** A correctly solved token whose challenge expired before it was sent. */
export async function expiredAltchaToken(hmacSecret: string): Promise<string> {
  const challenge = await createChallenge({
    algorithm: "PBKDF2/SHA-256",
    cost: 1,
    deriveKey,
    hmacSignatureSecret: hmacSecret,
    expiresAt: new Date(Date.now() - 60_000),
  });
  return solveAltcha(challenge);
}

function isoDate(daysAhead: number): string {
  return new Date(Date.now() + daysAhead * 86_400_000).toISOString().slice(0, 10);
}

/** A general booking request that passes every rule (without its token). */
export function validBookingRequest(overrides: Record<string, unknown> = {}) {
  return {
    firstName: "Ada",
    lastName: "Lovelace",
    email: "ada@example.com",
    phoneNumber: "+44 20 7946 0000",
    memberStatus: "gold",
    countryOfResidence: "GB",
    bookingType: ["wedding", "weekend"],
    checkInDate: isoDate(30),
    checkOutDate: isoDate(34),
    flexibleDates: false,
    estimatedGuests: 12,
    adults: 10,
    children: 2,
    bedroomsRequired: 6,
    preferredRegion: ["uk", "france"],
    preferredAmenities: ["garden"],
    requestedServices: ["chef"],
    experienceStyle: ["celebration"],
    privacyPriority: true,
    fullExclusivityNeeded: false,
    bookingGoal: "A wedding weekend for our two families.",
    heardAboutCastellum: "press",
    specialRequests: "",
    ...overrides,
  };
}

export function validPropertyBooking(overrides: Record<string, unknown> = {}) {
  return {
    propertyId: 1,
    propertyName: "ignored: the server names the property",
    firstName: "Isambard",
    lastName: "Brunel",
    email: "ikb@example.com",
    phone: "+44 117 000 0000",
    dateMode: "flexible",
    startDate: isoDate(60),
    endDate: isoDate(65),
    flexibilityDays: 3,
    numberOfGuests: 8,
    castellumStatus: "vipMember",
    paymentMethod: "eur",
    specialRequests: "",
    ...overrides,
  };
}

export function validMembership(overrides: Record<string, unknown> = {}) {
  return {
    title: "dr",
    firstName: "Grace",
    lastName: "Hopper",
    gender: "female",
    email: "grace@example.com",
    otherClubMemberships: "",
    linkedinProfile: "",
    instagramHandle: "",
    xHandle: "",
    interests: ["technology", "travel"],
    reasonToJoin:
      "I restore old buildings and would love to meet people who care for them as much as I do.",
    ...overrides,
  };
}

export { isoDate };

/** Sends one guest form as a browser would, in `language`; returns the 201 body. */
export async function submitGuestForm(
  baseUrl: string,
  path: string,
  form: Record<string, unknown>,
  language = "en",
): Promise<{ id: string; reference: string }> {
  const token = await solveBotCheck(baseUrl);
  const response = await fetch(`${baseUrl}/api${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "Accept-Language": language },
    body: JSON.stringify({ ...form, turnstileToken: token }),
  });
  if (response.status !== 201)
    throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as { id: string; reference: string };
}

import { resolve } from "node:path";
import { z } from "zod";
import { DATABASE_ENV_SHAPE } from "#db/open-from-env.ts";

const booleanFlag = z
  .enum(["true", "false", "1", "0"])
  .transform((value) => value === "true" || value === "1");

/**
 * Every environment variable the server reads. `.env.example` documents each one; the defaults
 * let a fresh clone run with nothing configured (PGlite under ./data, port 3000).
 */
export const EnvSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  HOST: z.string().min(1).default("0.0.0.0"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  /** Public origin used in canonical links and hreflang alternates. */
  PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
  /** DATA_DIR (PGlite's files) and DATABASE_URL (PostgreSQL instead), shared with the CLIs. */
  ...DATABASE_ENV_SHAPE,
  /**
   * Streaming replicas of DATABASE_URL, comma-separated: public reads (catalogue, availability,
   * quotes, public pages) go to one that has replayed far enough, everything else to the
   * primary (decision 0038).
   */
  DATABASE_REPLICA_URLS: z
    .string()
    .transform((value) =>
      value
        .split(",")
        .map((url) => url.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.url({ protocol: /^postgres(ql)?$/ })).min(1))
    .optional(),
  /** Seconds a client that wrote reads the primary, where its write already is. */
  REPLICA_PIN_SECONDS: z.coerce.number().min(0).max(3600).default(10),
  /**
   * Owners' uploaded originals go to files in this directory (named by SHA-256) when set, else
   * into the database (media_originals). Images uploaded to a directory need it from then on.
   */
  MEDIA_DIR: z.string().min(1).optional(),
  /** Seed the demo catalogue into an empty database at start. */
  SEED_DEMO_CATALOGUE: booleanFlag.default(true),
  /** An external whitepaper PDF; by default the site serves the one it makes from its content. */
  WHITEPAPER_URL: z.url({ protocol: /^https?$/ }).optional(),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),

  /** Send mail through this SMTP server; by default each mail is an .eml file in DATA_DIR/mail. */
  SMTP_URL: z.url({ protocol: /^smtps?$/ }).optional(),
  /** Sender of every mail. */
  MAIL_FROM: z.string().min(3).default("Castellum <no-reply@castellum.example>"),
  /** Where notifications of new requests go. */
  STAFF_EMAIL: z.email().default("requests@castellum.example"),
  /** First wait after a failed delivery, in ms (doubles per failure, at most one hour). */
  MAIL_RETRY_BASE_MS: z.coerce.number().int().min(10).default(30_000),
  /** How often the mail worker looks for due mail, in ms. */
  MAIL_POLL_MS: z.coerce.number().int().min(50).default(5000),
  /** SMTP sessions each instance keeps open to the relay and sends over side by side. */
  SMTP_CONNECTIONS: z.coerce.number().int().min(1).max(20).default(4),
  /**
   * Hours mail may wait for a relay that cannot be reached before it is set aside for staff.
   * (An unreachable relay spends no attempts: MAIL_MAX_ATTEMPTS counts the relay's answers.)
   */
  MAIL_MAX_AGE_HOURS: z.coerce
    .number()
    .min(0.01)
    .max(24 * 30)
    .default(72),

  /** ALTCHA: signs challenges; by default a secret made once and kept in the database. */
  ALTCHA_HMAC_SECRET: z.string().min(16).optional(),
  APP_SECRETS_KEY: z.string().min(32).optional(),
  /** ALTCHA proof-of-work cost (PBKDF2 iterations per attempt; ~256 attempts on average). */
  ALTCHA_COST: z.coerce.number().int().min(1).max(1_000_000).default(5000),
  /** How long a challenge, and so a solved widget, stays valid (seconds). */
  ALTCHA_EXPIRES_SECONDS: z.coerce.number().int().min(30).max(86_400).default(600),
  /** Cloudflare Turnstile replaces ALTCHA when both keys are set. */
  TURNSTILE_SITE_KEY: z.string().min(1).optional(),
  TURNSTILE_SECRET_KEY: z.string().min(1).optional(),
  TURNSTILE_VERIFY_URL: z
    .url({ protocol: /^https?$/ })
    .default("https://challenges.cloudflare.com/turnstile/v0/siteverify"),

  /**
   * Memory for rendered public pages and API reads kept ready to serve, in MB (all encodings
   * counted); 0 turns the response cache off.
   */
  RESPONSE_CACHE_MB: z.coerce.number().min(0).max(65_536).default(64),
  /**
   * Keep the catalogue's facts in memory, a bitset per fact (about 8 MB a million estates),
   * so a search with filters alone is answered without asking the database which estates
   * match (decision 0028). Off: every search is SQL.
   */
  SEARCH_FACTS_INDEX: booleanFlag.default(true),
  /**
   * Send 103 Early Hints naming the stylesheet before a page is rendered. Off by default: only
   * where every proxy in front passes them (nginx from 1.29 with `early_hints`; see
   * docs/deployment.md). The same `Link` goes with every page answer either way.
   */
  EARLY_HINTS: booleanFlag.default(false),

  /** Redis for rate-limit counters shared by several instances; in memory when unset. */
  REDIS_URL: z.url({ protocol: /^rediss?$/ }).optional(),
  /** Requests per client IP and window on each form endpoint. */
  RATE_LIMIT_FORMS_MAX: z.coerce.number().int().min(1).default(10),
  /** Bot-check challenges per client IP and window. */
  RATE_LIMIT_CHALLENGE_MAX: z.coerce.number().int().min(1).default(60),
  RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().min(1).default(600),

  /** Staff area: only admins whose email ends with @ this domain may use it. */
  ADMIN_EMAIL_DOMAIN: z
    .string()
    .trim()
    .toLowerCase()
    .regex(/^[a-z0-9-]+(\.[a-z0-9-]+)+$/, "a domain name such as castellum.example")
    .default("castellum.example"),
  /** A staff session ends after this many hours without a request. */
  SESSION_IDLE_HOURS: z.coerce
    .number()
    .min(0.05)
    .max(24 * 30)
    .default(12),
  /** A staff session ends this many days after sign-in, however busy. */
  SESSION_MAX_DAYS: z.coerce.number().min(0.01).max(90).default(7),
  /** Language of the staff notification mail about a new request. */
  STAFF_LANGUAGE: z.enum(["en", "fr", "it", "zh"]).default("en"),
  /** Failed deliveries of one mail before it is set aside for staff to retry or discard. */
  MAIL_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(100).default(10),
  /** Sign-in tries per account and per client IP in LOGIN_WINDOW_MINUTES. */
  LOGIN_MAX_PER_ACCOUNT: z.coerce.number().int().min(1).max(10).default(10),
  LOGIN_MAX_PER_IP: z.coerce.number().int().min(1).default(50),
  LOGIN_WINDOW_MINUTES: z.coerce.number().int().min(1).default(15),
  /**
   * A password alone opens nothing but enrolment or the second step. Unset: true when
   * NODE_ENV=production, false otherwise (resolved in services.ts).
   */
  STAFF_MFA_REQUIRED: booleanFlag.optional(),
  /** Owner verification codes per email and per client IP in an hour (no mail bombing). */
  OWNER_CODES_PER_EMAIL: z.coerce.number().int().min(1).max(50).default(5),
  OWNER_CODES_PER_IP: z.coerce.number().int().min(1).default(20),

  /**
   * Which proxies' X-Forwarded-For to believe for the client IP (rate limits, logs): Express's
   * `trust proxy` value, e.g. `loopback`, the load balancer's address, or a hop count; never a
   * whole private range, whose every client could then choose its own address.
   */
  TRUST_PROXY: z
    .string()
    .min(1)
    .transform((value) => (/^\d+$/.test(value) ? Number(value) : value))
    .default("loopback"),
  /** /metrics answers only `Authorization: Bearer <this>`; unset, /metrics is not served. */
  METRICS_TOKEN: z.string().min(16).optional(),
  /** On SIGTERM, in-flight requests get this long to finish before their connections are cut. */
  SHUTDOWN_GRACE_SECONDS: z.coerce.number().min(0).max(600).default(10),

  /** How far ahead a property booking may run, in months from today. */
  BOOKING_HORIZON_MONTHS: z.coerce.number().int().min(1).max(60).default(18),

  /** Minutes from one read of an imported calendar feed (iCal) to the next. */
  ICAL_SYNC_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(7 * 24 * 60)
    .default(30),
  /**
   * Let outbound fetches of typed addresses (calendar feeds, webhooks) reach loopback, private
   * and link-local addresses: for tests and local use, never in production.
   */
  OUTBOUND_ALLOW_PRIVATE_NETWORKS: booleanFlag.default(false),

  /**
   * Hours staff have to answer a booking request or property booking before the system closes
   * it as Rejected (decimals allowed; an estate's own response hours win). Staff are reminded
   * when three quarters of it have passed.
   */
  REQUEST_RESPONSE_HOURS: z.coerce
    .number()
    .min(0.001)
    .max(24 * 365)
    .default(48),
  /** The same for membership applications (closed as Declined); unset, they never expire. */
  MEMBERSHIP_RESPONSE_HOURS: z.coerce
    .number()
    .min(0.001)
    .max(24 * 365)
    .optional(),
  /**
   * For browser journeys only: a JSON file `{ "offsetMs": n }` whose offset the server's clock
   * adds to the system time (server/clock-file.ts), so a journey reaches a due time by moving
   * the clock. Never set in production.
   */
  CLOCK_OFFSET_FILE: z.string().min(1).optional(),
  /** Seconds between two runs of the lifecycle job (reminders, expiry) on each instance. */
  LIFECYCLE_INTERVAL_SECONDS: z.coerce.number().min(1).max(3600).default(60),
  /** Days the security log keeps an entry; older ones are pruned once a day. */
  SECURITY_LOG_RETENTION_DAYS: z.coerce.number().int().min(30).max(36_500).default(365),
  /**
   * Days a guest's personal data is kept after their request's last activity (closed, the stay's
   * end, the last message); then it is erased (docs/privacy.md). Decimals allowed.
   */
  GUEST_DATA_RETENTION_DAYS: z.coerce.number().positive().max(36_500).default(730),
  /** Seconds between two runs of the guest-data retention job on each instance. */
  PRIVACY_JOB_INTERVAL_SECONDS: z.coerce.number().min(1).max(86_400).default(3600),
  /**
   * Years the law keeps accounting records (payments, offers' amounts) after the payment. Until
   * then they keep their amounts and references with the guest pseudonymised; after, the
   * payment's own identifiers (card, transfer, wallet) go too. Decimals allowed.
   */
  FINANCIAL_RECORDS_YEARS: z.coerce.number().positive().max(100).default(10),
  /** Where guests write to ask for a copy or the erasure of their data (the privacy notice). */
  PRIVACY_CONTACT_EMAIL: z.email().default("privacy@castellum.example"),

  /** Hours a guest has to answer an offer before it expires (decimals allowed). */
  OFFER_HOURS: z.coerce
    .number()
    .min(0.001)
    .max(24 * 31)
    .default(72),
  /** Hours an accepted offer holds its nights for the deposit (decimals allowed). */
  DEPOSIT_DUE_HOURS: z.coerce
    .number()
    .min(0.001)
    .max(24 * 31)
    .default(72),
  /** The bank account guests pay by transfer, as shown on their status page (free text). */
  PAYMENT_BANK_DETAILS: z.string().trim().min(1).max(1000).optional(),
  /** The wallet address guests send $CASL tokens to. */
  CASL_WALLET_ADDRESS: z
    .string()
    .regex(/^0x[0-9a-fA-F]{40}$/, "an address: 0x followed by 40 hexadecimal characters")
    .optional(),
  /** Card payment through Stripe Checkout is offered when both are set. */
  STRIPE_SECRET_KEY: z.string().min(1).optional(),
  STRIPE_WEBHOOK_SECRET: z.string().min(1).optional(),
  /** The network's share of a stay's total, in percent, on owners' statements. */
  OWNER_COMMISSION_PERCENT: z.coerce.number().min(0).max(100).default(15),
  /** Where the Stripe client sends its calls: Stripe's own by default; a local server in tests. */
  STRIPE_API_URL: z.url({ protocol: /^https?$/ }).default("https://api.stripe.com"),
  /**
   * The ECB's daily euro reference rates in its XML format (its own address is
   * https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml), read once a day through
   * the outbound address guard: the quote then also shows the price, approximately, in the
   * currency of the guest's payment method. Unset: no conversion is shown.
   */
  EXCHANGE_RATES_URL: z.url({ protocol: /^https?$/ }).optional(),
});

export type Env = z.infer<typeof EnvSchema> & { DATA_DIR: string; PUBLIC_URL: string };

/** Thrown when the environment is invalid; the message names each bad variable. */
export class EnvError extends Error {
  override name = "EnvError";
}

/** Parses the environment; empty strings count as unset so `.env` files can leave blanks. */
export function parseEnv(source: Record<string, string | undefined> = process.env): Env {
  const cleaned = Object.fromEntries(
    Object.keys(EnvSchema.shape).map((key) => [key, source[key] === "" ? undefined : source[key]]),
  );
  const parsed = EnvSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => {
      const name = String(issue.path[0]);
      return `  ${name}=${JSON.stringify(source[name] ?? "")}: ${issue.message}`;
    });
    throw new EnvError(
      `Invalid environment configuration:\n${lines.join("\n")}\nSee .env.example.`,
    );
  }
  const env = parsed.data;
  if (env.DATABASE_REPLICA_URLS && !env.DATABASE_URL) {
    throw new EnvError(
      "Invalid environment configuration:\n  DATABASE_REPLICA_URLS needs DATABASE_URL: replicas are of a PostgreSQL primary.\nSee .env.example.",
    );
  }
  if (Boolean(env.TURNSTILE_SITE_KEY) !== Boolean(env.TURNSTILE_SECRET_KEY)) {
    throw new EnvError(
      "Invalid environment configuration:\n  TURNSTILE_SITE_KEY and TURNSTILE_SECRET_KEY must be set together.\nSee .env.example.",
    );
  }
  return {
    ...env,
    DATA_DIR: resolve(env.DATA_DIR),
    MEDIA_DIR: env.MEDIA_DIR === undefined ? undefined : resolve(env.MEDIA_DIR),
    PUBLIC_URL: (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, ""),
  };
}

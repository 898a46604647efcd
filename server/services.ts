import {
  DEFAULT_SECOND_STEP_LIMITS,
  type SecondStepLimits,
} from "#domain/staff/mfa/second-factor.ts";
import { join } from "node:path";
import { Redis } from "ioredis";
import { getOrCreateSecret } from "#domain/app-secrets.ts";
import { purgeExpiredBotTokens } from "#domain/bot-check/bot-check.ts";
import type { BotCheckConfig } from "#domain/bot-check/config.ts";
import type { Deps } from "#domain/deps.ts";
import { purgeExpiredIdempotencyKeys } from "#domain/requests/intake/idempotency.ts";
import type { IntakeConfig } from "#domain/requests/intake/submit-request.ts";
import { type MailWorker, startMailWorker } from "#domain/mail/mail-job.ts";
import { createMailTransport } from "#domain/mail/transport.ts";
import {
  createMemoryRateLimitStore,
  createRedisRateLimitStore,
  type RateLimitRule,
  type RateLimitStore,
} from "#domain/rate-limit/rate-limiter.ts";
import { purgeExpiredSessions, sessionPolicyOf } from "#domain/auth/sessions.ts";
import { createFallbackRateLimitStore } from "#domain/rate-limit/fallback-store.ts";
import {
  createDatabaseRateLimitStore,
  purgeExpiredRateLimitCounters,
} from "#domain/rate-limit/database-store.ts";
import type { LoginLimits } from "#domain/staff/login.ts";
import type { Env } from "./env.ts";
import {
  DEFAULT_OWNER_CODE_LIMITS,
  type OwnerCodeLimits,
  purgeExpiredOwnerCodes,
  purgeOldOwnerCodeFailures,
} from "#domain/owners/verification.ts";
import { listenForCatalogueChanges } from "#domain/catalogue/catalogue-changes.ts";
import { FactsIndex } from "#domain/catalogue/facts-index.ts";
import { ResponseCache } from "./middleware/response-cache.ts";
import { startLifecycleJob } from "#domain/requests/lifecycle.ts";
import { createStripeGateway, type PaymentServices } from "#domain/offers/card-payments.ts";
import { refreshExchangeRates } from "#domain/pricing/exchange-rates.ts";
import { JobRunner } from "#domain/jobs/job-runner.ts";
import type { PolledWorker } from "#domain/jobs/polled-worker.ts";
import { startSecurityLogRetention } from "#domain/security/retention.ts";
import {
  DEFAULT_WEBHOOK_RETRY,
  startWebhookWorker,
  type WebhookConfig,
  type WebhookWorker,
} from "#domain/webhooks/dispatch.ts";
import {
  type FeedSyncConfig,
  type FeedSyncWorker,
  startFeedSyncWorker,
} from "#domain/calendar/feed-sync.ts";
import { runGuestDataRetention } from "#domain/privacy/erase-guest.ts";
import { pruneRecords } from "#domain/privacy/records-retention.ts";

export type ServicesEnv = Pick<
  Env,
  | "NODE_ENV"
  | "OFFER_HOURS"
  | "GUEST_DATA_RETENTION_DAYS"
  | "PRIVACY_JOB_INTERVAL_SECONDS"
  | "FINANCIAL_RECORDS_YEARS"
  | "SESSION_IDLE_HOURS"
  | "SESSION_MAX_DAYS"
  | "PRIVACY_CONTACT_EMAIL"
  | "DEPOSIT_DUE_HOURS"
  | "PAYMENT_BANK_DETAILS"
  | "CASL_WALLET_ADDRESS"
  | "STRIPE_SECRET_KEY"
  | "STRIPE_WEBHOOK_SECRET"
  | "STRIPE_API_URL"
  | "OWNER_COMMISSION_PERCENT"
  | "EXCHANGE_RATES_URL"
  | "STAFF_MFA_REQUIRED"
  | "DATA_DIR"
  | "PUBLIC_URL"
  | "SMTP_URL"
  | "MAIL_FROM"
  | "STAFF_EMAIL"
  | "MAIL_RETRY_BASE_MS"
  | "MAIL_POLL_MS"
  | "SMTP_CONNECTIONS"
  | "MAIL_MAX_AGE_HOURS"
  | "ALTCHA_HMAC_SECRET"
  | "ALTCHA_COST"
  | "ALTCHA_EXPIRES_SECONDS"
  | "TURNSTILE_SITE_KEY"
  | "TURNSTILE_SECRET_KEY"
  | "TURNSTILE_VERIFY_URL"
  | "REDIS_URL"
  | "RATE_LIMIT_FORMS_MAX"
  | "RATE_LIMIT_CHALLENGE_MAX"
  | "RATE_LIMIT_WINDOW_SECONDS"
  | "BOOKING_HORIZON_MONTHS"
  | "ADMIN_EMAIL_DOMAIN"
  | "STAFF_LANGUAGE"
  | "MAIL_MAX_ATTEMPTS"
  | "LOGIN_MAX_PER_ACCOUNT"
  | "LOGIN_MAX_PER_IP"
  | "LOGIN_WINDOW_MINUTES"
  | "OWNER_CODES_PER_EMAIL"
  | "OWNER_CODES_PER_IP"
  | "RESPONSE_CACHE_MB"
  | "SEARCH_FACTS_INDEX"
  | "ICAL_SYNC_MINUTES"
  | "OUTBOUND_ALLOW_PRIVATE_NETWORKS"
  | "REQUEST_RESPONSE_HOURS"
  | "MEMBERSHIP_RESPONSE_HOURS"
  | "LIFECYCLE_INTERVAL_SECONDS"
  | "SECURITY_LOG_RETENTION_DAYS"
>;

/** What the staff endpoints need besides the database. */
export interface StaffServices {
  adminEmailDomain: string;
  /** Login counters: Redis with REDIS_URL, else the database (never one process's memory). */
  loginLimits: LoginLimits;
  /** STAFF_MFA_REQUIRED, resolved: a password alone opens only enrolment or the second step. */
  mfaRequired: boolean;
  /** Codes at the sign-in's second step, per session and per account (shared counters). */
  secondStepLimits: SecondStepLimits;
  /** A mail joined the outbox (status notification, retried mail): send it now. */
  onMailQueued: () => void;
}

/** What the owner endpoints need besides the database. */
export interface OwnerServices {
  /** Code requests per email and IP: shared counters that never fail open. */
  codeLimits: OwnerCodeLimits;
  /** Outside production, codes are also logged, for local use without a mail server. */
  logCodes: boolean;
  onMailQueued: () => void;
}

/** The estate calendars' imported feeds: how they are fetched, and the job that syncs them. */
export interface CalendarFeedServices {
  config: FeedSyncConfig;
  /** Syncs due feeds every minute on this instance; kick it when a feed is added. */
  worker: FeedSyncWorker;
}

/** The signed webhooks: how receivers are reached, and the dispatcher on this instance. */
export interface WebhookServices {
  config: WebhookConfig;
  /** Fans events out and delivers them every few seconds; kick it for a test event. */
  worker: WebhookWorker;
}

/** What the request endpoints need besides the database: built once per process. */
export interface Services {
  intake: IntakeConfig;
  rateLimits: { store: RateLimitStore; forms: RateLimitRule; challenge: RateLimitRule };
  mailWorker: MailWorker;
  staff: StaffServices;
  owners: OwnerServices;
  calendarFeeds: CalendarFeedServices;
  webhooks: WebhookServices;
  /** Where a request's mail files are, for the erasure of its guest's data. */
  privacy: { mailDirectory: string; contactEmail: string };
  /** Rendered public answers, dropped on every catalogue change this instance hears of. */
  responseCache: ResponseCache;
  /**
   * The catalogue's facts in memory for searches with filters alone, kept by the same
   * listener (null when SEARCH_FACTS_INDEX is off). The app's deps carry it (`withServices`).
   */
  factsIndex: FactsIndex | null;
  /** Every background job of this instance, by name, with its counters for /metrics. */
  jobs: JobRunner;
  /** Reminds staff of and closes requests past their due time, on every instance. */
  lifecycle: PolledWorker;
  /** Prunes the security log past its retention, once a day on every instance. */
  securityLogRetention: PolledWorker;
  /** Offers' deadlines and the ways guests pay. */
  payments: PaymentServices;
  close(): Promise<void>;
}

/** The offer's terms and the payment methods this instance offers, from the environment. */
export function paymentServicesOf(
  env: Partial<
    Pick<
      Env,
      | "OFFER_HOURS"
      | "DEPOSIT_DUE_HOURS"
      | "PAYMENT_BANK_DETAILS"
      | "CASL_WALLET_ADDRESS"
      | "STRIPE_SECRET_KEY"
      | "STRIPE_WEBHOOK_SECRET"
      | "STRIPE_API_URL"
      | "OWNER_COMMISSION_PERCENT"
    >
  >,
  onMailQueued: () => void = () => {},
): PaymentServices {
  return {
    terms: { offerHours: env.OFFER_HOURS ?? 72, depositHours: env.DEPOSIT_DUE_HOURS ?? 72 },
    bankDetails: env.PAYMENT_BANK_DETAILS ?? null,
    caslWallet: env.CASL_WALLET_ADDRESS ?? null,
    commissionPercent: env.OWNER_COMMISSION_PERCENT ?? 15,
    stripe:
      env.STRIPE_SECRET_KEY && env.STRIPE_WEBHOOK_SECRET
        ? createStripeGateway({
            secretKey: env.STRIPE_SECRET_KEY,
            webhookSecret: env.STRIPE_WEBHOOK_SECRET,
            apiUrl: env.STRIPE_API_URL ?? "https://api.stripe.com",
          })
        : null,
    onMailQueued,
  };
}

export async function createServices(deps: Deps, env: ServicesEnv): Promise<Services> {
  const botCheck: BotCheckConfig =
    env.TURNSTILE_SITE_KEY && env.TURNSTILE_SECRET_KEY
      ? {
          provider: "turnstile",
          turnstile: {
            siteKey: env.TURNSTILE_SITE_KEY,
            secretKey: env.TURNSTILE_SECRET_KEY,
            verifyUrl: env.TURNSTILE_VERIFY_URL,
          },
        }
      : {
          provider: "altcha",
          altcha: {
            cost: env.ALTCHA_COST,
            expiresInSeconds: env.ALTCHA_EXPIRES_SECONDS,
            hmacSecret: env.ALTCHA_HMAC_SECRET ?? (await getOrCreateSecret(deps, "altcha-hmac")),
          },
        };

  const transport = createMailTransport({
    from: env.MAIL_FROM,
    replyTo: env.STAFF_EMAIL,
    smtpUrl: env.SMTP_URL,
    directory: join(env.DATA_DIR, "mail"),
    messageIdDomain: new URL(env.PUBLIC_URL).hostname,
    smtpConnections: env.SMTP_CONNECTIONS,
  });
  // One runner for every background job of this instance (domain/jobs/job-runner.ts).
  const jobs = new JobRunner(deps.log);
  const mailWorker = startMailWorker(deps, transport, {
    events: {
      staffEmail: env.STAFF_EMAIL,
      staffLanguage: env.STAFF_LANGUAGE,
      publicUrl: env.PUBLIC_URL,
    },
    jobs,
    pollMs: env.MAIL_POLL_MS,
    retry: {
      baseMs: env.MAIL_RETRY_BASE_MS,
      maxMs: 60 * 60_000,
      maxAttempts: env.MAIL_MAX_ATTEMPTS,
      maxAgeMs: env.MAIL_MAX_AGE_HOURS * 3_600_000,
    },
    concurrency: env.SMTP_CONNECTIONS,
  });

  // Every instance looks for due feeds each minute; a lease per feed keeps them apart.
  const feedConfig: FeedSyncConfig = {
    outbound: { allowPrivateNetworks: env.OUTBOUND_ALLOW_PRIVATE_NETWORKS },
    intervalMinutes: env.ICAL_SYNC_MINUTES,
    // Events this site's export wrote are recognised by their UIDs' host when they come back.
    ownHost: new URL(env.PUBLIC_URL).hostname,
  };
  const feedWorker = startFeedSyncWorker(deps, feedConfig, { jobs });

  // Every instance runs the lifecycle; its row locks keep two from acting on one request.
  const responseWindows = {
    responseHours: env.REQUEST_RESPONSE_HOURS,
    membershipResponseHours: env.MEMBERSHIP_RESPONSE_HOURS,
  };
  const lifecycle = startLifecycleJob(deps, {
    ...responseWindows,
    intervalMs: env.LIFECYCLE_INTERVAL_SECONDS * 1000,
    onMailQueued: () => mailWorker.kick(),
    jobs,
  });

  // Every instance runs it; its row locks keep two from erasing one request.
  const mailDirectory = join(env.DATA_DIR, "mail");
  jobs.start("guest-data-retention", {
    everyMs: env.PRIVACY_JOB_INTERVAL_SECONDS * 1000,
    async run() {
      const erased = await runGuestDataRetention(deps, {
        retentionDays: env.GUEST_DATA_RETENTION_DAYS,
        mailDirectory,
      });
      const pruned = await pruneRecords(deps, {
        retentionDays: env.GUEST_DATA_RETENTION_DAYS,
        financialRecordsYears: env.FINANCIAL_RECORDS_YEARS,
        mailDirectory,
      });
      if (erased > 0 || Object.values(pruned).some((count) => count > 0))
        deps.log.info(
          { erased, pruned, retentionDays: env.GUEST_DATA_RETENTION_DAYS },
          "guest personal data erased after retention",
        );
    },
  });

  const securityLogRetention = startSecurityLogRetention(deps, {
    retentionDays: env.SECURITY_LOG_RETENTION_DAYS,
    jobs,
  });

  // Every instance fans events out and delivers webhooks; leases keep them from sending twice.
  const webhookConfig: WebhookConfig = {
    outbound: { allowPrivateNetworks: env.OUTBOUND_ALLOW_PRIVATE_NETWORKS },
    retry: DEFAULT_WEBHOOK_RETRY,
  };
  const webhookWorker = startWebhookWorker(deps, webhookConfig, {
    pollMs: env.NODE_ENV === "test" ? 100 : 2000,
    jobs,
  });

  const redis = env.REDIS_URL ? new Redis(env.REDIS_URL, { maxRetriesPerRequest: 2 }) : null;
  // ioredis reports every failed reconnect as an 'error' event; the fallback store below
  // logs the outage once, so these are only worth a debug line.
  redis?.on("error", (error: unknown) => deps.log.debug({ err: error }, "redis connection error"));
  const databaseStore = createDatabaseRateLimitStore(deps.db);
  // With Redis, every limit counts there and falls back to the database while Redis is
  // unreachable or slow: no limit fails open, and the site keeps serving (docs/deployment.md).
  const sharedStore = redis
    ? createFallbackRateLimitStore(createRedisRateLimitStore(redis), databaseStore, {
        onOutage: (error) =>
          deps.log.warn(
            { err: error },
            "Redis unreachable: rate limits count in the database until it answers again",
          ),
        onRecovered: () => deps.log.info("Redis answers again: rate limits count in Redis"),
      })
    : null;
  const store = sharedStore ?? createMemoryRateLimitStore();
  // Login must never fail open, so its counters are shared: Redis, or else the database.
  const loginStore = sharedStore ?? databaseStore;
  const windowMs = env.RATE_LIMIT_WINDOW_SECONDS * 1000;

  // Spent bot tokens, old Idempotency-Keys and wrong owner codes past their window are
  // forgotten once they can no longer matter.
  jobs.start("housekeeping", {
    everyMs: 60 * 60_000,
    async run() {
      await Promise.all([
        purgeExpiredBotTokens(deps),
        purgeExpiredIdempotencyKeys(deps),
        purgeExpiredSessions(deps, sessionPolicyOf(env)),
        purgeExpiredRateLimitCounters(deps.db),
        purgeOldOwnerCodeFailures(deps),
        purgeExpiredOwnerCodes(deps),
      ]);
    },
  });

  // Every instance asks each hour; the rates on record say whether a day has passed since the
  // last fetch, whichever instance made it, so the ECB is read about once a day per database.
  const exchangeRatesUrl = env.EXCHANGE_RATES_URL;
  if (exchangeRatesUrl)
    jobs.start("exchange-rates", {
      everyMs: 60 * 60_000,
      async run() {
        await refreshExchangeRates(deps, {
          url: exchangeRatesUrl,
          outbound: { allowPrivateNetworks: env.OUTBOUND_ALLOW_PRIVATE_NETWORKS },
        });
      },
    });

  // The cache and the facts index serve only while this instance hears every catalogue
  // change: they start when the listener does, and are off (and emptied) while it reconnects.
  const responseCache = new ResponseCache({
    maxBytes: Math.round(env.RESPONSE_CACHE_MB * 2 ** 20),
  });
  const factsIndex = env.SEARCH_FACTS_INDEX !== false ? new FactsIndex(deps) : null;
  const catalogueChanges =
    responseCache.maxBytes > 0 || factsIndex
      ? await listenForCatalogueChanges(deps, {
          onChange: (change) => {
            responseCache.invalidate();
            factsIndex?.changed(change.propertyIds);
          },
          onListening: () => {
            responseCache.enable();
            void factsIndex?.start();
          },
          onLost: (error) => {
            responseCache.disable();
            factsIndex?.stop();
            deps.log.warn(
              { err: error },
              "catalogue change listener lost; response cache and facts index off until it listens again",
            );
          },
        })
      : null;

  deps.log.info(
    {
      botCheck: botCheck.provider,
      mail: transport.description,
      rateLimits: store.kind,
      responseCacheMb: env.RESPONSE_CACHE_MB,
    },
    "request intake ready",
  );
  return {
    intake: {
      botCheck,
      bookingHorizonMonths: env.BOOKING_HORIZON_MONTHS,
      responseWindows,
      onStored: () => mailWorker.kick(),
    },
    rateLimits: {
      store,
      forms: { name: "forms", max: env.RATE_LIMIT_FORMS_MAX, windowMs },
      challenge: { name: "challenge", max: env.RATE_LIMIT_CHALLENGE_MAX, windowMs },
    },
    mailWorker,
    payments: paymentServicesOf(env, () => mailWorker.kick()),
    staff: {
      adminEmailDomain: env.ADMIN_EMAIL_DOMAIN,
      loginLimits: {
        store: loginStore,
        perAccount: env.LOGIN_MAX_PER_ACCOUNT,
        perIp: env.LOGIN_MAX_PER_IP,
        windowMs: env.LOGIN_WINDOW_MINUTES * 60_000,
      },
      mfaRequired: env.STAFF_MFA_REQUIRED ?? env.NODE_ENV === "production",
      secondStepLimits: { store: loginStore, ...DEFAULT_SECOND_STEP_LIMITS },
      onMailQueued: () => mailWorker.kick(),
    },
    owners: {
      codeLimits: {
        store: loginStore,
        perEmail: env.OWNER_CODES_PER_EMAIL,
        perIp: env.OWNER_CODES_PER_IP,
        windowMs: DEFAULT_OWNER_CODE_LIMITS.windowMs,
      },
      logCodes: env.NODE_ENV !== "production",
      onMailQueued: () => mailWorker.kick(),
    },
    calendarFeeds: { config: { ...feedConfig, manualReads: loginStore }, worker: feedWorker },
    webhooks: { config: webhookConfig, worker: webhookWorker },
    privacy: { mailDirectory, contactEmail: env.PRIVACY_CONTACT_EMAIL },
    responseCache,
    factsIndex,
    jobs,
    lifecycle,
    securityLogRetention,
    async close() {
      await jobs.stop();
      await catalogueChanges?.close();
      responseCache.disable();
      factsIndex?.stop();
      await mailWorker.stop();
      await store.close();
    },
  };
}

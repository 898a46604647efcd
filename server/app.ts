import { createRequestHandler } from "@react-router/express";
import express, { type Express, type RequestHandler } from "express";
import { RouterContextProvider, type ServerBuild } from "react-router";
import type { ReplicaSet } from "#db/replicas.ts";
import { sessionPolicyOf } from "#domain/auth/sessions.ts";
import { nowOf } from "#domain/clock.ts";
import {
  firstPaintContext,
  cspNonceContext,
  pageErrorLogContext,
  publicPagesContext,
  type PublicPages,
  type OwnerPages,
  ownerPagesContext,
  requestInfoContext,
  sessionContext,
  signInStepContext,
  type StaffPages,
  staffPagesContext,
} from "#app/context.ts";
import {
  getFeaturedImage,
  getProperty,
  listPropertiesBySlug,
  searchProperties,
} from "#domain/catalogue/read-properties.ts";
import { findRequestByStatusToken } from "#domain/requests/intake/request-status.ts";
import { readThreadByStatusToken } from "#domain/conversation/messages.ts";
import { readGuestRequest } from "#domain/offers/guest-view.ts";
import type { PaymentServices } from "#domain/offers/card-payments.ts";
import { readUnavailableNights } from "#domain/calendar/availability.ts";
import { listUndeliveredMail } from "#domain/mail/outbox-health.ts";
import { listWebhooks } from "#domain/webhooks/endpoints.ts";
import {
  countInboxByStatus,
  getInboxOverview,
  getRequestDetail,
  listBookedEstateChoices,
  listInbox,
} from "#domain/staff/inbox.ts";
import { isSetupTokenUsable } from "#domain/staff/setup.ts";
import { nameEstates } from "#domain/staff/estate-names.ts";
import { staffSignInRoutes } from "./api/staff-sign-in.ts";
import { inboxRoutes } from "./api/inbox.ts";
import { staffMfaRoutes } from "./api/staff-mfa.ts";
import { describeFactors, secondFactorMethods } from "#domain/staff/mfa/second-factor.ts";
import { accountRoutes } from "./api/accounts.ts";
import { passkeyRoutes } from "./api/passkeys.ts";
import { staffEstateRoutes } from "./api/staff-estates.ts";
import { calendarRoutes } from "./api/calendar.ts";
import { readEstateCalendar } from "#domain/calendar/estate-calendar.ts";
import { calendarExportUrl } from "#domain/calendar/ical-export.ts";
import { listCalendarFeeds } from "#domain/calendar/feeds.ts";
import { CalendarFeedSchema } from "#domain/calendar/feeds.contract.ts";
import { calendarFeedRoutes } from "./api/calendar-feeds.ts";
import { webhookRoutes } from "./api/webhooks.ts";
import { securityLogRoutes } from "./api/security-log.ts";
import { listSecurityEvents } from "#domain/security/read-security-log.ts";
import { listEstatesForStaff } from "#domain/owners/revisions.ts";
import { getEstateForStaff } from "#domain/staff/estates.ts";
import { ESTATE_PAGE_SIZE } from "#domain/staff/estates.schema.ts";
import { ownerRequestRoutes } from "./api/owner-requests.ts";
import { rememberOwnerLanguage } from "#domain/owners/owner-requests.ts";
import { ownerRoutes, PROOF_COOKIE } from "./api/owners.ts";
import { ownerUploadRoutes } from "./api/owner-uploads.ts";
import { getOwnerPropertyDetails, resolveEstate } from "#domain/owners/estates.ts";
import { DomainError, NoClaimedEstateError } from "#domain/errors.ts";
import { sessionCookieOf, sessionMiddleware } from "./middleware/session.ts";
import { signInStagePageGate, signInStepOfPage } from "./middleware/sign-in-stage.ts";
import type { CriticalCss } from "./critical-css.ts";
import { deferLoading } from "./deferred-loading.ts";
import type { StaffServices } from "./services.ts";
import type { Deps } from "#domain/deps.ts";
import { z } from "zod";
import type { Env } from "./env.ts";
import { catalogueRoutes } from "./api/catalogue.ts";
import { pricingRoutes } from "./api/pricing.ts";
import { readFromPrice } from "#domain/pricing/estate-rates.ts";
import { FORM_LIMITS } from "#domain/requests/options.ts";
import { apiErrorHandler, apiNotFound } from "./api/errors.ts";
import { mediaRoutes } from "./api/media.ts";
import { DEMO_ARTWORK } from "#content/demo-art/demo-artwork.ts";
import { openApiRoutes } from "./api/openapi.ts";
import { requestRoutes } from "./api/requests.ts";
import { offerRoutes } from "./api/offers.ts";
import { privacyRoutes } from "./api/privacy.ts";
import { seoRoutes } from "./api/seo.ts";
import { whitepaperRoutes } from "./api/whitepaper.ts";
import { languageMiddleware } from "./middleware/language.ts";
import { pageMethodsOnly, supportedMethodsOnly } from "./middleware/methods.ts";
import { storableQueryOnly } from "./middleware/query-text.ts";
import {
  invalidateOnWrite,
  publicReadOf,
  cacheHitFastPath,
  responseCacheMiddleware,
} from "./middleware/response-cache.ts";
import { replicaReads } from "./middleware/replica-reads.ts";
import { loggableUrl, requestLog } from "./middleware/request-log.ts";
import { securityHeaders } from "./middleware/security-headers.ts";
import type { Services } from "./services.ts";
import { clientBotCheckConfig } from "#domain/bot-check/config.ts";
import type { Ops } from "./ops/ops.ts";

/** Old addresses of the castle network; all answer 301 to the canonical /castles. */
export const CASTLES_REDIRECTS = ["/bookings", "/properties", "/castle-network"];

export interface AppOptions {
  deps: Deps;
  env: Pick<Env, "NODE_ENV" | "PUBLIC_URL"> &
    Partial<
      Pick<
        Env,
        | "WHITEPAPER_URL"
        | "SESSION_IDLE_HOURS"
        | "SESSION_MAX_DAYS"
        | "MEDIA_DIR"
        | "TRUST_PROXY"
        | "EARLY_HINTS"
        | "PRIVACY_CONTACT_EMAIL"
        | "GUEST_DATA_RETENTION_DAYS"
        | "FINANCIAL_RECORDS_YEARS"
        | "REPLICA_PIN_SECONDS"
      >
    >;
  /** Request intake (forms, bot check, mail, rate limits); without it the form endpoints are absent. */
  services?: Services;
  /** The React Router server build; without it only the API and media routes exist (tests). */
  build?: () => Promise<ServerBuild>;
  /** /healthz, /readyz, /metrics, request metrics and the database-outage answers (server/ops). */
  ops?: Ops;
  /**
   * Inlines each public page's critical CSS (a production build's stylesheet); none in tests.
   * Their module scripts and whole stylesheet wait for their first screen (server/deferred-loading.ts).
   */
  criticalCss?: CriticalCss;
  /** Streaming replicas the public reads may use (DATABASE_REPLICA_URLS). */
  replicas?: ReplicaSet;
}

/** The Express application: headers, language, API, media, redirects, then the pages. */
export function createExpressApp({
  deps: baseDeps,
  env,
  build,
  services,
  ops,
  criticalCss,
  replicas,
}: AppOptions): Express {
  // Searches ask the services' facts index first when there is one (decision 0028).
  const deps: Deps = services?.factsIndex
    ? { ...baseDeps, factsIndex: services.factsIndex }
    : baseDeps;
  const app = express();
  const isProduction = env.NODE_ENV === "production";
  const isHttps = env.PUBLIC_URL.startsWith("https://");
  app.disable("x-powered-by");
  app.set("etag", "strong");
  app.set("trust proxy", env.TRUST_PROXY ?? "loopback");
  const sessionCookie = sessionCookieOf(isProduction, sessionPolicyOf(env));
  const privateCookies = [
    sessionCookieOf(true, sessionCookie.policy).name,
    sessionCookieOf(false, sessionCookie.policy).name,
    PROOF_COOKIE,
  ];
  // Before all: a stored public answer's later hits, with the headers its first hit was given.
  if (services)
    app.use(
      cacheHitFastPath(services.responseCache, {
        privateCookies,
        observe: ops ? (...args) => ops.observe(...args) : undefined,
        closing: ops ? () => ops.isDraining : undefined,
        log: deps.log,
      }),
    );
  // First: probes and metrics pass no cache, session or request log, and every request is timed.
  if (ops) app.use(ops.router);

  app.use(requestLog(deps.log));
  // Pages get a nonce-based policy (a stored page's copies, hashes), everything else a strict one.
  app.use(
    securityHeaders({
      hsts: isProduction && isHttps,
      turnstile: services?.intake.botCheck.provider === "turnstile",
      development: env.NODE_ENV === "development",
    }),
  );
  app.use(languageMiddleware({ secureCookie: isProduction && isHttps }));
  app.use(supportedMethodsOnly());
  app.use(storableQueryOnly());
  // Anonymous public reads are answered from memory before any other work; a request with a
  // session or owner cookie (either name of the session cookie) never is.
  if (services) app.use(responseCacheMiddleware(services.responseCache, { privateCookies }));
  // What the cache does not answer: public reads from a replica that has caught up, the rest
  // (and anyone who just wrote) from the primary.
  if (replicas && services)
    app.use(
      replicaReads({
        replicas,
        privateCookies,
        pinSeconds: env.REPLICA_PIN_SECONDS ?? 10,
        isPublicRead: (path) => publicReadOf(path) !== null || path.startsWith("/api/castles"),
        generation: () => services.responseCache.generation,
        now: () => nowOf(deps).getTime(),
        secureCookie: isProduction && isHttps,
      }),
    );
  app.use(["/api", "/admin", "/onboard"], sessionMiddleware(deps, sessionCookie));
  app.use("/admin", signInStagePageGate);
  // The owner and staff estate calls change the catalogue: this instance drops its cache at once.
  if (services)
    app.use(
      ["/api/property-owners", "/api/admin/estates"],
      invalidateOnWrite(services.responseCache),
    );
  // Owners' uploaded originals: MEDIA_DIR when set, else the database (read by every instance).
  const mediaStore = { directory: env.MEDIA_DIR };

  app.use("/api", catalogueRoutes(deps));
  app.use(
    "/api",
    pricingRoutes(deps, services?.staff, {
      publicUrl: env.PUBLIC_URL,
      horizonMonths: services?.intake.bookingHorizonMonths ?? FORM_LIMITS.bookingHorizonMonths,
    }),
  );
  app.use("/api", openApiRoutes(env.PUBLIC_URL));
  if (services) {
    app.use(
      "/api",
      passkeyRoutes(deps, services.staff, { cookie: sessionCookie, publicUrl: env.PUBLIC_URL }),
    );
    app.use("/api", staffSignInRoutes(deps, services.staff, sessionCookie, env.PUBLIC_URL));
    app.use("/api", inboxRoutes(deps, services.staff, env.PUBLIC_URL));
    app.use("/api", staffMfaRoutes(deps, services.staff, sessionCookie, env.PUBLIC_URL));
    app.use("/api", accountRoutes(deps, services.staff, sessionCookie, env.PUBLIC_URL));
    app.use("/api", staffEstateRoutes(deps, services.staff, env.PUBLIC_URL));
    app.use("/api", calendarRoutes(deps, services.staff, { publicUrl: env.PUBLIC_URL }));
    app.use(
      "/api",
      calendarFeedRoutes(deps, services.calendarFeeds, {
        adminEmailDomain: services.staff.adminEmailDomain,
        publicUrl: env.PUBLIC_URL,
      }),
    );
    app.use(
      "/api",
      webhookRoutes(deps, services.webhooks, {
        adminEmailDomain: services.staff.adminEmailDomain,
        publicUrl: env.PUBLIC_URL,
      }),
    );
    app.use(
      "/api",
      securityLogRoutes(deps, {
        adminEmailDomain: services.staff.adminEmailDomain,
        store: services.staff.loginLimits.store,
      }),
    );
    app.use(
      "/api",
      privacyRoutes(deps, {
        adminEmailDomain: services.staff.adminEmailDomain,
        publicUrl: env.PUBLIC_URL,
        mailDirectory: services.privacy.mailDirectory,
        privacyContactEmail: services.privacy.contactEmail,
      }),
    );
    app.use("/api", requestRoutes(deps, services, env.PUBLIC_URL));
    app.use(
      "/api",
      offerRoutes(deps, services.payments, {
        publicUrl: env.PUBLIC_URL,
        adminEmailDomain: services.staff.adminEmailDomain,
        rateLimits: services.rateLimits,
      }),
    );
    app.use(
      "/api",
      ownerRequestRoutes(deps, {
        adminEmailDomain: services.staff.adminEmailDomain,
        publicUrl: env.PUBLIC_URL,
      }),
    );
    app.use(
      "/api",
      ownerUploadRoutes(deps, {
        adminEmailDomain: services.staff.adminEmailDomain,
        publicUrl: env.PUBLIC_URL,
        media: mediaStore,
      }),
    );
    app.use(
      "/api",
      ownerRoutes(deps, services.owners, {
        adminEmailDomain: services.staff.adminEmailDomain,
        cookie: sessionCookie,
        publicUrl: env.PUBLIC_URL,
      }),
    );
  }
  app.use("/api", apiNotFound);
  if (ops) app.use("/api", ops.outage.apiErrorHandler());
  app.use("/api", apiErrorHandler(deps.log));
  // The generated images (estate illustrations, team portraits) are the demo content's.
  app.use("/media", mediaRoutes(deps, { store: mediaStore, artwork: DEMO_ARTWORK }));
  app.use("/media", apiNotFound);
  if (ops) app.use("/media", ops.outage.apiErrorHandler());
  app.use("/media", apiErrorHandler(deps.log));

  app.use(seoRoutes(deps, env.PUBLIC_URL));
  app.use(whitepaperRoutes({ externalUrl: env.WHITEPAPER_URL }));

  app.get(CASTLES_REDIRECTS, (req, res) => {
    const query = req.originalUrl.indexOf("?");
    res.redirect(301, `/castles${query >= 0 ? req.originalUrl.slice(query) : ""}`);
  });

  if (build) {
    const publicPages = publicPagesOf(deps, services?.payments ?? null);
    if (ops) app.use(ops.outage.pageGate());
    app.use(pageMethodsOnly());
    app.use(
      announceStylesheets(build, {
        earlyHints: env.EARLY_HINTS ?? false,
        // A public page with its critical rules inlined paints without the stylesheet, which
        // waits for its first screen (server/deferred-loading.ts): announcing it would put it
        // at the head of the line instead.
        isWithoutStylesheet: (path) => Boolean(criticalCss) && publicReadOf(path) === "page",
      }),
    );
    app.use(
      createRequestHandler({
        build,
        mode: env.NODE_ENV === "production" ? "production" : "development",
        getLoadContext(req, res) {
          const context = new RouterContextProvider();
          context.set(publicPagesContext, publicPages);
          context.set(cspNonceContext, res.locals.cspNonce ?? null);
          context.set(pageErrorLogContext, (error) =>
            deps.log.error({ err: error, url: loggableUrl(req.originalUrl) }, "page failed"),
          );
          // Public pages only: the staff and owner pages keep their ordinary stylesheet and
          // scripts.
          context.set(
            firstPaintContext,
            criticalCss && publicReadOf(req.path) === "page"
              ? async (html) => deferLoading(await criticalCss.inline(html))
              : null,
          );
          context.set(requestInfoContext, {
            language: res.locals.language,
            publicUrl: env.PUBLIC_URL,
            whitepaperUrl: env.WHITEPAPER_URL ?? null,
            botCheck: services ? clientBotCheckConfig(services.intake.botCheck) : null,
            bookingHorizonMonths: services?.intake.bookingHorizonMonths ?? 18,
            privacyContactEmail: env.PRIVACY_CONTACT_EMAIL ?? "privacy@castellum.example",
            guestDataRetentionDays: env.GUEST_DATA_RETENTION_DAYS ?? 730,
            financialRecordsYears: env.FINANCIAL_RECORDS_YEARS ?? 10,
          });
          context.set(sessionContext, res.locals.session ?? null);
          context.set(signInStepContext, signInStepOfPage(req, res));
          if (services) {
            context.set(
              staffPagesContext,
              staffPagesOf(deps, services.staff, {
                publicUrl: env.PUBLIC_URL,
                syncMinutes: services.calendarFeeds.config.intervalMinutes,
              }),
            );
            context.set(ownerPagesContext, ownerPagesOf(deps, services.staff.adminEmailDomain));
          }
          return context;
        },
      }),
    );
  }
  return app;
}

/**
 * Every page answer whose first paint needs the stylesheet (the staff and owner pages) names it
 * in a `Link: rel=preload` header, which the response cache keeps with the page, so a browser
 * (or a CDN) can fetch it while the HTML is still on its way; with `earlyHints`, a 103 says it
 * before the page is even rendered.
 */
function announceStylesheets(
  build: () => Promise<ServerBuild>,
  options: { earlyHints: boolean; isWithoutStylesheet(path: string): boolean },
): RequestHandler {
  let links: Promise<string[]> | undefined;
  const linksOf = async () => {
    const css = (await build()).assets.routes.root?.css ?? [];
    return css.map((href) => `<${href}>; rel=preload; as=style`);
  };
  return async (req, res, next) => {
    if (
      (req.method !== "GET" && req.method !== "HEAD") ||
      req.path.endsWith(".data") ||
      options.isWithoutStylesheet(req.path)
    )
      return next();
    try {
      links ??= linksOf();
      const stylesheets = await links;
      if (stylesheets.length) {
        if (options.earlyHints) res.writeEarlyHints({ link: stylesheets });
        res.append("Link", stylesheets);
      }
      next();
    } catch (error) {
      links = undefined;
      next(error);
    }
  };
}

/** The domain functions the public pages' loaders may call, bound to this app's database. */
function publicPagesOf(deps: Deps, payments: PaymentServices | null): PublicPages {
  const paymentOptions = {
    bankDetails: payments?.bankDetails ?? null,
    caslWallet: payments?.caslWallet ?? null,
    card: Boolean(payments?.stripe),
  };
  return {
    readGuestRequest: (token, language) => readGuestRequest(deps, token, language, paymentOptions),
    getFeaturedImage: () => getFeaturedImage(deps),
    listPropertiesBySlug: (input) => listPropertiesBySlug(deps, input),
    searchProperties: (input) => searchProperties(deps, input),
    getProperty: (input) => getProperty(deps, input),
    readUnavailableNights: (input) => readUnavailableNights(deps, input),
    readFromPrice: (propertyId) => readFromPrice(deps, propertyId),
    findRequestByStatusToken: (token) => findRequestByStatusToken(deps, token),
    readThreadByStatusToken: (token) => readThreadByStatusToken(deps, token),
  };
}

/** The domain functions the staff pages' loaders may call, bound to this app's database. */
function staffPagesOf(
  deps: Deps,
  staff: StaffServices,
  calendar: { publicUrl: string; syncMinutes: number },
): StaffPages {
  return {
    adminEmailDomain: staff.adminEmailDomain,
    listInbox: (filter) => listInbox(deps, filter),
    countInboxByStatus: (kind) => countInboxByStatus(deps, kind),
    getInboxOverview: () => getInboxOverview(deps),
    getRequestDetail: (kind, id) => getRequestDetail(deps, id, kind),
    listUndeliveredMail: () => listUndeliveredMail(deps, {}),
    listWebhooks: () => listWebhooks(deps),
    listSecurityEvents: (query) => listSecurityEvents(deps, query),
    listBookedEstateChoices: (language, include) =>
      listBookedEstateChoices(deps, { language, include }),
    nameEstates: (language, ids) => nameEstates(deps, { language, ids }),
    isSetupTokenUsable: (token) => isSetupTokenUsable(deps, token, staff.adminEmailDomain),
    listEstates: (input) => listEstatesForStaff(deps, { ...input, limit: ESTATE_PAGE_SIZE }),
    getEstate: (actor, input) => getEstateForStaff(deps, actor, input),
    secondFactorMethods: (id) => secondFactorMethods(deps, id),
    getSecondFactors: async (id) => ({
      ...(await describeFactors(deps, id)),
      required: staff.mfaRequired,
    }),
    async getEstateCalendar({ propertyId, from, to, language }) {
      const estate = await getProperty(deps, { idOrSlug: String(propertyId), language });
      const [nights, icalUrl, feeds] = await Promise.all([
        readEstateCalendar(deps, propertyId, from, to, "staff"),
        calendarExportUrl(deps, calendar.publicUrl, propertyId),
        listCalendarFeeds(deps, propertyId),
      ]);
      return {
        estate: { id: estate.id, name: estate.name, location: estate.location },
        calendar: { ...nights, icalUrl },
        // As the list call answers them (times as ISO strings), for the feeds panel.
        feeds: z.array(CalendarFeedSchema).parse(JSON.parse(JSON.stringify(feeds))),
        syncMinutes: calendar.syncMinutes,
      };
    },
  };
}

/** The owner dashboard's loader: the guard and the record, bound to this app's database. */
function ownerPagesOf(deps: Deps, adminEmailDomain: string): OwnerPages {
  return {
    adminEmailDomain,
    async loadDashboard(actor, input) {
      try {
        const propertyId = await resolveEstate(deps, actor, input.estateId);
        // The owner's mails are written in the language of their last visit.
        if (actor.role === "owner" && input.pageLanguage)
          await rememberOwnerLanguage(deps, actor.email, input.pageLanguage);
        const details = await getOwnerPropertyDetails(deps, actor, {
          propertyId,
          language: input.language,
        });
        return { outcome: "ok", details };
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        if (error.code === "forbidden") return { outcome: "forbidden" };
        if (error instanceof NoClaimedEstateError) return { outcome: "no_estate" };
        return { outcome: "not_found" };
      }
    },
  };
}

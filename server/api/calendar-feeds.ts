import { type Request, type Response, Router } from "express";
import type { z } from "zod";
import { syncEstateFeed } from "#domain/calendar/feed-sync.ts";
import {
  addCalendarFeed,
  listCalendarFeeds,
  removeCalendarFeed,
  updateCalendarFeedSettings,
} from "#domain/calendar/feeds.ts";
import type { CalendarFeedSettings } from "#domain/calendar/feed-settings.schema.ts";
import * as contract from "#domain/calendar/feeds.contract.ts";
import { calendarExportUrl, rotateCalendarExport } from "#domain/calendar/ical-export.ts";
import { calendarExportFeed } from "#domain/calendar/ical-export-feed.ts";
import type { Deps } from "#domain/deps.ts";
import { ValidationError } from "#domain/errors.ts";
import { resolveEstate } from "#domain/owners/estates.ts";
import type { EstateActor } from "#domain/owners/owner-property.ts";
import { fieldIssues } from "#domain/requests/fields.ts";
import { sameOriginOnly } from "../middleware/request-guards.ts";
import { requireAdminApi } from "../middleware/session.ts";
import { recordSecurityEvent } from "#domain/security/security-log.ts";
import { securityActorOf, securityClientOf } from "../middleware/security-log.ts";
import type { CalendarFeedServices } from "../services.ts";
import { defineRoute, type Refusal, refuse, STREAMED } from "./define-route.ts";
import { estateAccess, settledEstate } from "./owners.ts";

const FEED_NOT_FOUND = "owner.calendarFeeds.errors.feedNotFound";

/**
 * An id in the path that breaks its schema names nothing: 404 (the estate's, or the feed's);
 * a query or body that breaks its schema is a 400 naming each field.
 */
function pathIdsNotFound(part: "params" | "query" | "body", error: z.ZodError): Refusal<404> {
  if (part !== "params") throw new ValidationError(fieldIssues(error));
  const isEstate = error.issues.some((issue) => issue.path[0] === "id");
  return isEstate
    ? refuse(404, "estate_not_found", "errors.propertyNotFound")
    : refuse(404, "feed_not_found", FEED_NOT_FOUND);
}

/** A feed read moments ago: 429, with when it may be read again. */
function syncTooSoon(res: Response, retryAfterSeconds: number) {
  res.set("Retry-After", String(retryAfterSeconds));
  return refuse(429, "sync_too_soon", "owner.calendarFeeds.errors.syncTooSoon", {
    seconds: retryAfterSeconds,
  });
}

/** Who added a feed, as `calendar_feeds.created_by` keeps it. */
const createdByOf = (actor: EstateActor) => `${actor.role}:${actor.email}`;

/** The signed-in admin (requireAdminApi has run). */
function staffActor(res: Response): EstateActor {
  const session = res.locals.session;
  if (!session || session.role !== "staff") throw new Error("requireAdminApi must run first");
  return { role: "staff", staffUserId: session.user.id, email: session.user.email };
}

/** A feed's address as the security log keeps it: its origin only (the rest may be a secret). */
function originOf(url: string): string | null {
  try {
    return new URL(url.trim()).origin;
  } catch {
    return null;
  }
}

const today = () => new Date().toISOString().slice(0, 10);

/**
 * The iCal calls (domain/calendar/feeds.contract.ts): the public export feed behind its secret
 * token, and the feeds an estate imports, for staff (any estate, by id) and for the owner
 * (their own estate, as every owner call settles it).
 */
export function calendarFeedRoutes(
  deps: Deps,
  feeds: CalendarFeedServices,
  options: { adminEmailDomain: string; publicUrl: string },
): Router {
  const router = Router();
  const sameOrigin = sameOriginOnly(options.publicUrl);
  const requireAdmin = requireAdminApi(options.adminEmailDomain);
  const access = estateAccess(deps, options.adminEmailDomain);
  const host = new URL(options.publicUrl).hostname;

  const feedsOf = async (propertyId: number) => ({
    feeds: await listCalendarFeeds(deps, propertyId),
    icalUrl: await calendarExportUrl(deps, options.publicUrl, propertyId),
    syncMinutes: feeds.config.intervalMinutes,
  });
  /** One `calendar_feed.changed` entry of the security log: never a feed's secret. */
  const recordChange = (req: Request, res: Response, data: Record<string, unknown>) =>
    recordSecurityEvent(deps.db, {
      type: "calendar_feed.changed",
      actor: securityActorOf(res),
      client: securityClientOf(req),
      data,
    });
  const add = async (
    req: Request,
    res: Response,
    actor: EstateActor,
    propertyId: number,
    url: string,
  ) => {
    const feed = await addCalendarFeed(deps, feeds.config.outbound, {
      propertyId,
      url,
      createdBy: createdByOf(actor),
      now: new Date(),
    });
    await recordChange(req, res, {
      action: "created",
      propertyId,
      feedId: feed.id,
      origin: originOf(url),
    });
    // Read within seconds rather than at the next tick.
    feeds.worker.kick();
    return { status: 201 as const, body: feed };
  };
  const update = async (
    req: Request,
    res: Response,
    propertyId: number,
    feedId: string,
    settings: CalendarFeedSettings,
  ) => {
    const feed = await updateCalendarFeedSettings(deps, {
      propertyId,
      feedId,
      settings,
      now: new Date(),
    });
    if (!feed) return refuse(404, "feed_not_found", FEED_NOT_FOUND);
    await recordChange(req, res, { action: "updated", propertyId, feedId, ...settings });
    // A changed timed-events choice made the feed due: it is read again within seconds.
    if (settings.timedEventsClose !== undefined) feeds.worker.kick();
    return { status: 200 as const, body: feed };
  };
  const rotate = async (req: Request, res: Response, propertyId: number) => {
    await rotateCalendarExport(deps, propertyId);
    await recordChange(req, res, { action: "export_rotated", propertyId });
    return {
      status: 200 as const,
      body: { icalUrl: await calendarExportUrl(deps, options.publicUrl, propertyId) },
    };
  };

  defineRoute(router, contract.getCalendarExport, {
    onInvalid: () => refuse(404, "not_found", "errors.notFound"),
    async handle({ params, res }) {
      // The address is a secret: never kept by a shared cache, never indexed.
      res.set("Cache-Control", "private, no-store");
      res.set("X-Robots-Tag", "noindex");
      const token = params.feed.endsWith(".ics") ? params.feed.slice(0, -".ics".length) : "";
      const text = await calendarExportFeed(deps, { token, host, today: today() });
      if (text === null) return refuse(404, "not_found", "errors.notFound");
      res.type("text/calendar; charset=utf-8").send(text);
      return STREAMED;
    },
  });

  // Staff: any estate, named by its id.
  const staffEstate = async (res: Response, id: number) => {
    const actor = staffActor(res);
    return { actor, propertyId: await resolveEstate(deps, actor, id) };
  };

  defineRoute(router, contract.listEstateCalendarFeeds, {
    before: [requireAdmin],
    onInvalid: pathIdsNotFound,
    async handle({ params, res }) {
      const { propertyId } = await staffEstate(res, params.id);
      return { status: 200, body: await feedsOf(propertyId) };
    },
  });

  defineRoute(router, contract.addEstateCalendarFeed, {
    before: [sameOrigin, requireAdmin],
    onInvalid: pathIdsNotFound,
    async handle({ params, body, req, res }) {
      const { actor, propertyId } = await staffEstate(res, params.id);
      return add(req, res, actor, propertyId, body.url);
    },
  });

  defineRoute(router, contract.removeEstateCalendarFeed, {
    before: [sameOrigin, requireAdmin],
    onInvalid: pathIdsNotFound,
    async handle({ params, req, res }) {
      const { propertyId } = await staffEstate(res, params.id);
      const removed = await removeCalendarFeed(deps, { propertyId, feedId: params.feedId });
      if (!removed) return refuse(404, "feed_not_found", FEED_NOT_FOUND);
      await recordChange(req, res, { action: "deleted", propertyId, feedId: params.feedId });
      return { status: 204 };
    },
  });

  defineRoute(router, contract.syncEstateCalendarFeed, {
    before: [sameOrigin, requireAdmin],
    onInvalid: pathIdsNotFound,
    async handle({ params, res }) {
      const { propertyId } = await staffEstate(res, params.id);
      const feed = await syncEstateFeed(deps, feeds.config, {
        propertyId,
        feedId: params.feedId,
        now: new Date(),
      });
      if (!feed) return refuse(404, "feed_not_found", FEED_NOT_FOUND);
      if ("retryAfterSeconds" in feed) return syncTooSoon(res, feed.retryAfterSeconds);
      return { status: 200, body: feed };
    },
  });

  defineRoute(router, contract.updateEstateCalendarFeed, {
    before: [sameOrigin, requireAdmin],
    onInvalid: pathIdsNotFound,
    async handle({ params, body, req, res }) {
      const { propertyId } = await staffEstate(res, params.id);
      return update(req, res, propertyId, params.feedId, body);
    },
  });

  defineRoute(router, contract.rotateEstateIcalUrl, {
    before: [sameOrigin, requireAdmin],
    onInvalid: pathIdsNotFound,
    async handle({ params, req, res }) {
      const { propertyId } = await staffEstate(res, params.id);
      return rotate(req, res, propertyId);
    },
  });

  // The owner: their own estate (or staff naming it with `propertyId`), as estateAccess settles.
  defineRoute(router, contract.listOwnerCalendarFeeds, {
    before: [access],
    async handle({ res }) {
      return { status: 200, body: await feedsOf(settledEstate(res).propertyId) };
    },
  });

  defineRoute(router, contract.addOwnerCalendarFeed, {
    before: [sameOrigin],
    after: [access],
    async handle({ body, req, res }) {
      const { actor, propertyId } = settledEstate(res);
      return add(req, res, actor, propertyId, body.url);
    },
  });

  defineRoute(router, contract.removeOwnerCalendarFeed, {
    before: [sameOrigin],
    after: [access],
    onInvalid: pathIdsNotFound,
    async handle({ params, req, res }) {
      const { propertyId } = settledEstate(res);
      const removed = await removeCalendarFeed(deps, { propertyId, feedId: params.feedId });
      if (!removed) return refuse(404, "feed_not_found", FEED_NOT_FOUND);
      await recordChange(req, res, { action: "deleted", propertyId, feedId: params.feedId });
      return { status: 204 };
    },
  });

  defineRoute(router, contract.syncOwnerCalendarFeed, {
    before: [sameOrigin],
    after: [access],
    onInvalid: pathIdsNotFound,
    async handle({ params, res }) {
      const feed = await syncEstateFeed(deps, feeds.config, {
        propertyId: settledEstate(res).propertyId,
        feedId: params.feedId,
        now: new Date(),
      });
      if (!feed) return refuse(404, "feed_not_found", FEED_NOT_FOUND);
      if ("retryAfterSeconds" in feed) return syncTooSoon(res, feed.retryAfterSeconds);
      return { status: 200, body: feed };
    },
  });

  defineRoute(router, contract.updateOwnerCalendarFeed, {
    before: [sameOrigin],
    after: [access],
    onInvalid: pathIdsNotFound,
    async handle({ params, body, req, res }) {
      return update(req, res, settledEstate(res).propertyId, params.feedId, body);
    },
  });

  defineRoute(router, contract.rotateOwnerIcalUrl, {
    before: [sameOrigin],
    after: [access],
    async handle({ req, res }) {
      return rotate(req, res, settledEstate(res).propertyId);
    },
  });

  return router;
}

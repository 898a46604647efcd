import { JobRunner } from "../jobs/job-runner.ts";
import { randomUUID } from "node:crypto";
import { and, eq, inArray, isNull, lt, lte, or, sql } from "drizzle-orm";
import { calendarEntries, calendarFeeds } from "#db/schema/index.ts";
import { notifyCatalogueChanged } from "../catalogue/catalogue-changes.ts";
import type { Deps } from "../deps.ts";
import { OutboundFetchError, type OutboundPolicy, safeFetch } from "../outbound/safe-fetch.ts";
import { consumeRateLimit, type RateLimitStore } from "../rate-limit/rate-limiter.ts";
import { type FeedError, formatFeedError } from "./feed-errors.ts";
import { type CalendarFeedView, getCalendarFeed } from "./feeds.ts";
import { alertImportCollisions } from "./import-collision-alerts.ts";
import {
  type CalendarRead,
  DEFAULT_IMPORT_LIMITS,
  IcalImportError,
  type ImportLimits,
} from "./ical-import.ts";
import { readCalendarOffThread } from "./ical-reader.ts";
import { toDateRange } from "./nights.ts";

/**
 * Reads an estate's external calendars into busy times (calendar_entries of source
 * 'external'). A sync fetches the feed (domain/outbound/safe-fetch.ts), reads it
 * (ical-import.ts) and, in one transaction, makes the feed's entries exactly the busy times
 * read: new ones added, moved ones updated (by the event's stable UID), vanished ones removed.
 * A failure, whatever it is, is recorded on the feed (`<code>: <detail>`) and changes none of
 * its entries: the nights it closed stay closed until the feed is read again.
 *
 * Imported busy times are outside the constraint that keeps stays and blocks apart: one that
 * overlaps a confirmed stay is kept (staff see it as a collision), never allowed to move it.
 */

export interface FeedSyncConfig {
  outbound: OutboundPolicy;
  /** ICAL_SYNC_MINUTES: from one sync of a feed to the next, success or not. */
  intervalMinutes: number;
  limits?: ImportLimits;
  /** How long a claimed feed stays claimed: longer than a fetch and its writes can take. */
  leaseMs?: number;
  /** Feeds claimed at a time by one instance. */
  batch?: number;
  /** Counts the reads people ask for (`syncEstateFeed`); without it they are not limited. */
  manualReads?: RateLimitStore;
  /**
   * Castellum's own host (PUBLIC_URL's): an event whose UID ends with `@<host>` is one the
   * estate's export wrote, coming back through another site, and is not imported again.
   */
  ownHost?: string;
}

const DEFAULT_LEASE_MS = 5 * 60_000;
const DEFAULT_BATCH = 4;
/** Rows a statement writes or deletes at most (well under PostgreSQL's 65,535 parameters). */
const CHUNK = 500;

/** What a sync did: the busy times read, or why it failed. */
export type SyncOutcome =
  | { outcome: "synced"; eventCount: number; changed: boolean }
  | { outcome: "failed"; error: FeedError };

/** Fetches and reads a feed: what it holds, or a FeedError (never a throw, for feed faults). */
async function readFeed(
  feed: { url: string; timedEventsClose: boolean },
  config: FeedSyncConfig,
  now: Date,
): Promise<CalendarRead | FeedError> {
  try {
    const answer = await safeFetch(feed.url, config.outbound, {
      Accept: "text/calendar, text/plain;q=0.5, */*;q=0.1",
      "User-Agent": "Castellum calendar sync",
    });
    return await readCalendarOffThread(answer.body.toString("utf8"), now, {
      limits: config.limits ?? DEFAULT_IMPORT_LIMITS,
      timedEventsClose: feed.timedEventsClose,
      ...(config.ownHost ? { ownHost: config.ownHost } : {}),
    });
  } catch (error) {
    if (error instanceof OutboundFetchError || error instanceof IcalImportError)
      return { code: error.code, detail: error.detail };
    // A fault of the reader on some input it did not foresee: still only this feed's failure.
    return { code: "internal", detail: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * Syncs one feed now: fetches, reads, and records the result on the feed (and its busy times
 * when it succeeded). Null when the feed no longer exists. Safe to run beside another sync of
 * the same feed: the writes take the feed's row lock, so one set of busy times wins whole.
 */
export async function syncFeed(
  deps: Pick<Deps, "db" | "log">,
  config: FeedSyncConfig,
  feedId: string,
  now: Date,
): Promise<SyncOutcome | null> {
  const [feed] = await deps.db
    .select({
      url: calendarFeeds.url,
      propertyId: calendarFeeds.propertyId,
      timedEventsClose: calendarFeeds.timedEventsClose,
    })
    .from(calendarFeeds)
    .where(eq(calendarFeeds.id, feedId));
  if (!feed) return null;
  const outcome = await readFeed(feed, config, now);
  const nextSyncAt = new Date(now.getTime() + config.intervalMinutes * 60_000);

  if (!("busy" in outcome)) {
    const read = outcome;
    const updated = await deps.db
      .update(calendarFeeds)
      .set({ lastAttemptAt: now, lastError: formatFeedError(read), nextSyncAt, lockedUntil: null })
      .where(eq(calendarFeeds.id, feedId))
      .returning({ id: calendarFeeds.id });
    if (updated.length === 0) return null;
    deps.log.info(
      { feedId, propertyId: feed.propertyId, code: read.code },
      "calendar feed sync failed",
    );
    return { outcome: "failed", error: read };
  }

  const read = outcome.busy;
  return deps.db.transaction(async (tx) => {
    // The feed's row lock: concurrent syncs of this feed write one after the other, and a
    // feed removed meanwhile is not written to.
    const [locked] = await tx
      .select({ id: calendarFeeds.id })
      .from(calendarFeeds)
      .where(eq(calendarFeeds.id, feedId))
      .for("update");
    if (!locked) return null;
    const existing = await tx
      .select({
        id: calendarEntries.id,
        uid: calendarEntries.externalUid,
        nights: calendarEntries.nights,
      })
      .from(calendarEntries)
      .where(eq(calendarEntries.feedId, feedId));
    const byUid = new Map(existing.map((row) => [row.uid ?? "", row]));
    const wanted = new Set(read.map((busy) => busy.uid));
    const upserts = read.filter((busy) => byUid.get(busy.uid)?.nights !== toDateRange(busy));
    const vanished = existing.filter((row) => !wanted.has(row.uid ?? "")).map((row) => row.id);

    for (let at = 0; at < upserts.length; at += CHUNK)
      await tx
        .insert(calendarEntries)
        .values(
          upserts.slice(at, at + CHUNK).map((busy) => ({
            id: randomUUID(),
            propertyId: feed.propertyId,
            nights: toDateRange(busy),
            source: "external" as const,
            feedId,
            externalUid: busy.uid,
          })),
        )
        .onConflictDoUpdate({
          target: [calendarEntries.feedId, calendarEntries.externalUid],
          set: { nights: sql`excluded.nights` },
        });
    // New and moved busy times only: one the sync leaves as it was brings no new collision.
    await alertImportCollisions(tx, {
      feedId,
      propertyId: feed.propertyId,
      uids: upserts.map((busy) => busy.uid),
    });
    for (let at = 0; at < vanished.length; at += CHUNK)
      await tx
        .delete(calendarEntries)
        .where(inArray(calendarEntries.id, vanished.slice(at, at + CHUNK)));

    await tx
      .update(calendarFeeds)
      .set({
        lastAttemptAt: now,
        lastSuccessAt: now,
        lastError: null,
        eventCount: read.length,
        nightsClosed: outcome.nightsClosed,
        timedNightsClosed: outcome.timedNightsClosed,
        skippedEvents: outcome.skipped,
        skippedCount: outcome.skippedCount,
        nextSyncAt,
        lockedUntil: null,
      })
      .where(eq(calendarFeeds.id, feedId));
    const changed = upserts.length + vanished.length > 0;
    // Public availability and the catalogue's date filter read these nights: their cached
    // answers go (on commit) only when a night did change, not at every unchanged sync.
    if (changed) await notifyCatalogueChanged({ db: tx }, { propertyIds: [feed.propertyId] });
    return { outcome: "synced" as const, eventCount: read.length, changed };
  });
}

/** A person may have a feed read again this long after they last had it read, at the soonest. */
export const MANUAL_SYNC_GAP_MS = 60_000;

/**
 * Syncs a feed of the estate at a person's request and answers it with its new state; null
 * when the estate has no such feed. Each feed is read at a person's request at most once a
 * minute (counted in `config.manualReads`, shared by every instance): a click cannot make the
 * server fetch and parse at will. The answer then says when it may be read again.
 */
export async function syncEstateFeed(
  deps: Pick<Deps, "db" | "log">,
  config: FeedSyncConfig,
  input: { propertyId: number; feedId: string; now: Date },
): Promise<CalendarFeedView | { retryAfterSeconds: number } | null> {
  if (!(await getCalendarFeed(deps, input))) return null;
  if (config.manualReads) {
    const decision = await consumeRateLimit(
      config.manualReads,
      { name: "feed-sync", max: 1, windowMs: MANUAL_SYNC_GAP_MS },
      input.feedId,
    );
    if (!decision.allowed) return { retryAfterSeconds: decision.retryAfterSeconds };
  }
  await syncFeed(deps, config, input.feedId, input.now);
  return getCalendarFeed(deps, input);
}

/**
 * Claims the feeds due at `now` that no other instance holds (a lease: `locked_until`, taken
 * with SKIP LOCKED, so any number of instances may run this and each feed is synced by one),
 * then syncs them side by side. One feed's failure is recorded on it and touches no other.
 * Answers how many feeds it claimed.
 */
export async function syncDueFeeds(
  deps: Pick<Deps, "db" | "log">,
  config: FeedSyncConfig,
  now: Date,
): Promise<number> {
  const leaseUntil = new Date(now.getTime() + (config.leaseMs ?? DEFAULT_LEASE_MS));
  const batch = config.batch ?? DEFAULT_BATCH;
  const claimed = await deps.db
    .update(calendarFeeds)
    .set({ lockedUntil: leaseUntil })
    .where(
      inArray(
        calendarFeeds.id,
        deps.db
          .select({ id: calendarFeeds.id })
          .from(calendarFeeds)
          .where(
            and(
              lte(calendarFeeds.nextSyncAt, now),
              or(isNull(calendarFeeds.lockedUntil), lt(calendarFeeds.lockedUntil, now)),
            ),
          )
          .orderBy(calendarFeeds.nextSyncAt)
          .limit(batch)
          .for("update", { skipLocked: true }),
      ),
    )
    .returning({ id: calendarFeeds.id });
  await Promise.all(
    claimed.map(async ({ id }) => {
      try {
        await syncFeed(deps, config, id, now);
      } catch (error) {
        // The database failed under this feed's writes: its lease runs out and it is tried again.
        deps.log.warn({ err: error, feedId: id }, "calendar feed sync could not be recorded");
      }
    }),
  );
  return claimed.length;
}

export interface FeedSyncWorker {
  /** Look for due feeds now (a feed was added) instead of at the next tick. */
  kick(): void;
  /** Waits for a run in progress, then stops. */
  stop(): Promise<void>;
}

/**
 * Every `pollMs` (and when kicked), syncs the feeds due, batch after batch until none is left;
 * one run at a time on this instance. Every instance runs one: leases keep them apart.
 */
export function startFeedSyncWorker(
  deps: Pick<Deps, "db" | "log">,
  config: FeedSyncConfig,
  options: { pollMs?: number; now?: () => Date; jobs?: JobRunner } = {},
): FeedSyncWorker {
  const now = options.now ?? (() => new Date());
  const batch = config.batch ?? DEFAULT_BATCH;
  const jobs = options.jobs ?? new JobRunner(deps.log);
  return jobs.start("calendar-feed-sync", {
    everyMs: options.pollMs ?? 60_000,
    run: async (isStopped) => {
      // A full batch means more may be due.
      while (!isStopped() && (await syncDueFeeds(deps, config, now())) >= batch);
    },
  });
}

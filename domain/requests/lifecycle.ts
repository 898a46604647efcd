import { and, asc, eq, gt, inArray, isNotNull, isNull, lte, sql } from "drizzle-orm";
import { withTransaction } from "../../db/client.ts";
import { guestRequests, guestRequestStatusHistory } from "../../db/schema/index.ts";
import { isLanguage, type Language } from "../../i18n/config.ts";
import { translate } from "../../i18n/translate.ts";
import { releaseStay } from "../calendar/stays.ts";
import type { Deps } from "../deps.ts";
import { recordRequestEvent } from "../events/request-events.ts";
import { enqueueMail } from "../mail/outbox.ts";
import { renderExpiry, renderStaffReminder } from "../mail/templates.ts";
import { staffDetailsUrl } from "../staff/collections.ts";
import type { RequestKind, RequestStatus } from "./options.ts";
import { OPEN_STATUSES } from "./lifecycle-statuses.ts";

/**
 * Requests answered on time: every request gets a due time at intake; the lifecycle job,
 * run on every instance, reminds staff at three quarters of the window and at the due time
 * closes a request still open as refused by the system. Exactly once is a property of the
 * statements, not of timing: each run locks the rows it acts on (FOR UPDATE SKIP LOCKED), acts
 * only on rows still open and due (or not yet reminded) once locked, and enqueues the mail and
 * the events in the same transaction that changes the row. Another instance skips the locked
 * rows, and a later run (or a restarted instance) finds them closed or reminded.
 */

export { OPEN_STATUSES };

const openStatusesOf = (kind: RequestKind) =>
  OPEN_STATUSES[kind === "membership" ? "membership" : "booking"];

/** The status the system closes an expired request with. */
const expiredStatusOf = (kind: RequestKind): RequestStatus =>
  kind === "membership" ? "Declined" : "Rejected";

/** Who the history and the events name for what the lifecycle job does. */
export const SYSTEM_ACTOR = "system" as const;

/** The share of the window after which staff are reminded. */
export const REMINDER_SHARE = 0.75;

export interface ResponseWindows {
  /** REQUEST_RESPONSE_HOURS: booking requests and property bookings. */
  responseHours: number;
  /** MEMBERSHIP_RESPONSE_HOURS: unset, membership applications never expire. */
  membershipResponseHours?: number;
}

/**
 * The hours staff have to answer a request of `kind`: the estate's own hours when it has some,
 * else the configured window; null when the request never expires.
 */
export function responseHoursOf(
  kind: RequestKind,
  estateHours: number | null,
  windows: ResponseWindows,
): number | null {
  if (kind === "membership") return windows.membershipResponseHours ?? null;
  return estateHours ?? windows.responseHours;
}

/** The due and reminder times of a window of `hours` starting at `from`. */
export function dueTimesOf(from: Date, hours: number): { dueAt: Date; remindAt: Date } {
  const ms = hours * 3_600_000;
  return {
    dueAt: new Date(from.getTime() + ms),
    remindAt: new Date(from.getTime() + ms * REMINDER_SHARE),
  };
}

export interface LifecycleConfig extends ResponseWindows {
  staffEmail: string;
  staffLanguage: Language;
  publicUrl: string;
  /** The clock; tests hand in their own. */
  now?: () => Date;
  /** Rows per transaction (default 50). */
  batchSize?: number;
}

export interface LifecycleReport {
  reminded: number;
  expired: number;
}

/**
 * Sends the due reminders: one mail to staff per request whose reminder time has passed while
 * it is still open and not yet due. Returns how many were sent.
 */
export async function remindDueRequests(
  deps: Pick<Deps, "db">,
  config: LifecycleConfig,
): Promise<number> {
  const now = (config.now ?? (() => new Date()))();
  const batch = config.batchSize ?? 50;
  let total = 0;
  for (;;) {
    const done = await withTransaction(deps.db, async (db) => {
      const rows = await db
        .select()
        .from(guestRequests)
        .where(
          and(
            isNull(guestRequests.remindedAt),
            isNotNull(guestRequests.remindAt),
            lte(guestRequests.remindAt, now),
            gt(guestRequests.dueAt, now),
            sql`${guestRequests.status} IN ('New', 'Contacted', 'In progress', 'In review')`,
          ),
        )
        .orderBy(asc(guestRequests.remindAt))
        .limit(batch)
        .for("update", { skipLocked: true });
      const open = rows.filter((row) => openStatusesOf(row.kind).includes(row.status));
      if (open.length === 0) return rows.length;
      await db
        .update(guestRequests)
        .set({ remindedAt: now })
        .where(
          inArray(
            guestRequests.id,
            open.map((row) => row.id),
          ),
        );
      await enqueueMail(
        db,
        open.map((row) => ({
          template: `${row.kind}.reminder`,
          recipient: config.staffEmail,
          requestId: row.id,
          ...renderStaffReminder(
            {
              kind: row.kind,
              reference: row.reference,
              firstName: row.firstName,
              lastName: row.lastName,
              dueAt: row.dueAt as Date,
            },
            config.staffLanguage,
            staffDetailsUrl(config.publicUrl, row.kind, row.id),
          ),
        })),
      );
      total += open.length;
      return rows.length;
    });
    if (done < batch) return total;
  }
}

/**
 * Closes every open request whose due time has passed: Rejected (Declined for a membership
 * application) by the system, with the reason shown to the guest in their language, any stay
 * released, the guest mailed and `request.expired` and `request.status_changed` recorded, all
 * in one transaction per batch. Returns how many were closed.
 */
export async function expireDueRequests(
  deps: Pick<Deps, "db">,
  config: LifecycleConfig,
): Promise<number> {
  const now = (config.now ?? (() => new Date()))();
  const batch = config.batchSize ?? 50;
  let total = 0;
  for (;;) {
    const seen = await withTransaction(deps.db, async (db) => {
      // Locked rows are another instance's: skipped, not waited for. Once locked, a row read
      // here is the committed one, so a request staff answered meanwhile is no longer open.
      const rows = await db
        .select()
        .from(guestRequests)
        .where(
          and(
            isNotNull(guestRequests.dueAt),
            lte(guestRequests.dueAt, now),
            sql`${guestRequests.status} IN ('New', 'Contacted', 'In progress', 'In review')`,
          ),
        )
        .orderBy(asc(guestRequests.dueAt))
        .limit(batch)
        .for("update", { skipLocked: true });
      for (const row of rows) {
        if (!openStatusesOf(row.kind).includes(row.status)) continue;
        const language: Language = isLanguage(row.language) ? row.language : "en";
        const status = expiredStatusOf(row.kind);
        // The reason is stored as the guest reads it: their status page shows it as written.
        const reason = translate(language, "lifecycle.expiredReason");
        // Guarded again by the same conditions: the row is ours, and changes only if still due.
        const changed = await db
          .update(guestRequests)
          .set({ status, version: sql`${guestRequests.version} + 1`, updatedAt: now })
          .where(
            and(
              eq(guestRequests.id, row.id),
              inArray(guestRequests.status, [...openStatusesOf(row.kind)]),
              lte(guestRequests.dueAt, now),
            ),
          )
          .returning({ id: guestRequests.id });
        if (changed.length === 0) continue;
        await releaseStay(db, row.id);
        await db.insert(guestRequestStatusHistory).values({
          requestId: row.id,
          fromStatus: row.status,
          toStatus: status,
          changedBy: SYSTEM_ACTOR,
          reason,
          reasonShared: true,
          changedAt: now,
        });
        await enqueueMail(db, [
          {
            template: `${row.kind}.expired`,
            recipient: row.email,
            requestId: row.id,
            ...renderExpiry({
              kind: row.kind,
              reference: row.reference,
              language,
              firstName: row.firstName,
              lastName: row.lastName,
              email: row.email,
              details: row.details,
            }),
          },
        ]);
        await recordRequestEvent(db, {
          type: "request.expired",
          requestId: row.id,
          actor: SYSTEM_ACTOR,
          extra: { previousStatus: row.status, dueAt: row.dueAt?.toISOString() },
        });
        await recordRequestEvent(db, {
          type: "request.status_changed",
          requestId: row.id,
          actor: SYSTEM_ACTOR,
          extra: { previousStatus: row.status },
        });
        total += 1;
      }
      return rows.length;
    });
    if (seen < batch) return total;
  }
}

/** One run of the job: reminders first (a request past due is closed, not reminded). */
export async function runLifecycle(
  deps: Pick<Deps, "db">,
  config: LifecycleConfig,
): Promise<LifecycleReport> {
  const expired = await expireDueRequests(deps, config);
  const reminded = await remindDueRequests(deps, config);
  return { reminded, expired };
}

export interface LifecycleJob {
  /** Run now (tests, or after a change) instead of waiting for the next tick. */
  runNow(): Promise<LifecycleReport>;
  /** Waits for a run in progress, then stops. */
  stop(): Promise<void>;
}

/**
 * Runs the lifecycle every `intervalMs` on this instance. Every instance runs it; the row locks
 * keep them from acting twice on one request. `onMailQueued` kicks the mail worker.
 */
export function startLifecycleJob(
  deps: Deps,
  config: LifecycleConfig & { intervalMs: number; onMailQueued?: () => void },
): LifecycleJob {
  let running: Promise<LifecycleReport> | null = null;
  let stopped = false;
  const runNow = () => {
    if (running) return running;
    running = runLifecycle(deps, config)
      .then((report) => {
        if (report.expired + report.reminded > 0) {
          config.onMailQueued?.();
          deps.log.info(report, "request lifecycle run");
        }
        return report;
      })
      .finally(() => {
        running = null;
      });
    return running;
  };
  const timer = setInterval(() => {
    if (stopped) return;
    runNow().catch((error: unknown) => deps.log.warn({ err: error }, "request lifecycle failed"));
  }, config.intervalMs);
  timer.unref();
  return {
    runNow,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running?.catch(() => undefined);
    },
  };
}

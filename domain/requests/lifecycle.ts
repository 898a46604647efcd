import { and, asc, gt, isNotNull, isNull, lte, type SQL, sql } from "drizzle-orm";
import { type Database, withTransaction } from "#db/client.ts";
import { guestRequests } from "#db/schema/index.ts";
import { nowOf } from "../clock.ts";
import type { Deps } from "../deps.ts";
import { JobRunner } from "../jobs/job-runner.ts";
import { type OfferLifecycleReport, runOfferLifecycle } from "../offers/offer-lifecycle.ts";
import type { PolledWorker } from "../jobs/polled-worker.ts";
import { type Actor, applyTransition } from "./apply-transition.ts";
import type { RequestKind } from "./options.ts";
import { ANY_OPEN_STATUSES_SQL } from "./process.ts";

/**
 * Requests answered on time: every request gets a due time at intake; the lifecycle job,
 * run on every instance, reminds staff at three quarters of the window and at the due time
 * closes a request still open as refused by the system. Exactly once is a property of the
 * statements, not of timing: each run locks the rows it acts on (FOR UPDATE SKIP LOCKED), acts
 * only on rows still open and due (or not yet reminded) once locked, and records the events
 * (which the mail follows) in the same transaction that changes the row. Another instance skips the locked
 * rows, and a later run (or a restarted instance) finds them closed or reminded.
 */

/** The lifecycle job acts as the system. */
const SYSTEM: Actor = { kind: "system" };

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

export interface LifecycleConfig extends ResponseWindows {
  /** Rows per transaction (default 50). */
  batchSize?: number;
}

export interface LifecycleReport extends OfferLifecycleReport {
  reminded: number;
  expired: number;
}

/** Locks up to `batch` rows matching `where`, skipping rows another instance holds. */
function lockBatch(tx: Database, where: SQL | undefined, order: SQL, batch: number) {
  // Locked rows are another instance's: skipped, not waited for. Once locked, a row read here
  // is the committed one, so a request staff answered meanwhile is no longer open.
  return tx
    .select()
    .from(guestRequests)
    .where(where)
    .orderBy(order)
    .limit(batch)
    .for("update", { skipLocked: true });
}

const OPEN = sql.raw(ANY_OPEN_STATUSES_SQL);

/**
 * Records the due reminders: one `request.reminder_due` (a mail to staff) per request whose
 * reminder time has passed while it is still open and not yet due. Returns how many.
 */
export async function remindDueRequests(
  deps: Pick<Deps, "db" | "clock">,
  config: LifecycleConfig,
): Promise<number> {
  const now = nowOf(deps);
  const batch = config.batchSize ?? 50;
  let total = 0;
  for (;;) {
    const seen = await withTransaction(deps.db, async (tx) => {
      const rows = await lockBatch(
        tx,
        and(
          isNull(guestRequests.remindedAt),
          isNotNull(guestRequests.remindAt),
          lte(guestRequests.remindAt, now),
          gt(guestRequests.dueAt, now),
          sql`${guestRequests.status} IN ${OPEN}`,
        ),
        asc(guestRequests.remindAt),
        batch,
      );
      for (const row of rows) {
        const result = await applyTransition(tx, row, { type: "remind" }, SYSTEM, now);
        if (result.outcome === "applied") total += 1;
      }
      return rows.length;
    });
    if (seen < batch) return total;
  }
}

/**
 * Closes every open request whose due time has passed: Rejected (Declined for a membership
 * application) by the system, with the reason shown to the guest in their language, any stay
 * released, and `request.expired` (the guest's mail) and `request.status_changed` recorded,
 * all in one transaction per batch. Returns how many were closed.
 */
export async function expireDueRequests(
  deps: Pick<Deps, "db" | "clock">,
  config: LifecycleConfig,
): Promise<number> {
  const now = nowOf(deps);
  const batch = config.batchSize ?? 50;
  let total = 0;
  for (;;) {
    const seen = await withTransaction(deps.db, async (tx) => {
      const rows = await lockBatch(
        tx,
        and(
          isNotNull(guestRequests.dueAt),
          lte(guestRequests.dueAt, now),
          sql`${guestRequests.status} IN ${OPEN}`,
        ),
        asc(guestRequests.dueAt),
        batch,
      );
      for (const row of rows) {
        const result = await applyTransition(tx, row, { type: "expire" }, SYSTEM, now);
        if (result.outcome === "applied") total += 1;
      }
      return rows.length;
    });
    if (seen < batch) return total;
  }
}

/** One run of the job: reminders first (a request past due is closed, not reminded). */
export async function runLifecycle(
  deps: Pick<Deps, "db" | "clock">,
  config: LifecycleConfig,
): Promise<LifecycleReport> {
  const expired = await expireDueRequests(deps, config);
  const reminded = await remindDueRequests(deps, config);
  const offers = await runOfferLifecycle(deps, config);
  return { reminded, expired, ...offers };
}

/**
 * Runs the lifecycle every `intervalMs` on this instance, as the job `request-lifecycle` of
 * `jobs`. Every instance runs it; the row locks keep them from acting twice on one request.
 * `onMailQueued` kicks the mail job.
 */
export function startLifecycleJob(
  deps: Deps,
  config: LifecycleConfig & { intervalMs: number; onMailQueued?: () => void; jobs?: JobRunner },
): PolledWorker {
  const jobs = config.jobs ?? new JobRunner(deps.log);
  return jobs.start("request-lifecycle", {
    everyMs: config.intervalMs,
    async run() {
      const report = await runLifecycle(deps, config);
      if (Object.values(report).some((count) => count > 0)) {
        config.onMailQueued?.();
        deps.log.info(report, "request lifecycle run");
      }
    },
  });
}

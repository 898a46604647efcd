import { eq } from "drizzle-orm";
import { randomUUID } from "node:crypto";
import { calendarEntries } from "#db/schema/index.ts";
import type { Database } from "#db/client.ts";
import { notifyCatalogueChanged } from "../catalogue/catalogue-changes.ts";
import { type EventActor, recordRequestEvent } from "../events/request-events.ts";
import type { CollidingEntry } from "./calendar.schema.ts";
import { isDeadlock, isExclusionViolation } from "./collisions.ts";
import { type Nights, toDateRange } from "./nights.ts";

/**
 * A request's claim on an estate's nights (decision 0015). While a booking request or property
 * booking is Confirmed and has an estate and nights, it holds one `stay` row in calendar_entries;
 * the exclusion constraint then keeps every other stay and block off those nights. These
 * functions run inside the transaction that changes the request, so the status and the calendar
 * never disagree.
 */

/** The estate and nights a request row would take, if it has them. */
export function stayOf(row: {
  propertyId: number | null;
  stayStart: string | null;
  stayEnd: string | null;
}): { propertyId: number; nights: Nights } | null {
  if (row.propertyId === null || row.stayStart === null || row.stayEnd === null) return null;
  return { propertyId: row.propertyId, nights: { start: row.stayStart, end: row.stayEnd } };
}

/** Thrown inside a transaction to roll it back when the database refuses the nights. */
export class NightsTaken extends Error {
  readonly propertyId: number;
  readonly nights: Nights;
  constructor(propertyId: number, nights: Nights) {
    super("the nights are taken");
    this.propertyId = propertyId;
    this.nights = nights;
  }
}

/**
 * Takes the nights of a request for its estate (or moves them there): the database refuses
 * nights that a stay or block already holds, and this throws NightsTaken then. The announcement
 * lets every instance drop cached availability once the transaction commits.
 */
export async function holdStay(
  tx: Database,
  requestId: string,
  stay: { propertyId: number; nights: Nights },
  /** Who took them: staff confirming or setting a stay, or a guest accepting an offer. */
  actor: EventActor = "staff",
): Promise<void> {
  await releaseStay(tx, requestId);
  try {
    await tx.insert(calendarEntries).values({
      id: randomUUID(),
      propertyId: stay.propertyId,
      nights: toDateRange(stay.nights),
      source: "stay",
      requestId,
    });
  } catch (error) {
    // The refused statement ends the transaction (on PostgreSQL): the caller rolls back.
    if (isExclusionViolation(error)) throw new NightsTaken(stay.propertyId, stay.nights);
    throw error;
  }
  await recordRequestEvent(tx, { type: "stay.confirmed", requestId, actor });
  await notifyCatalogueChanged({ db: tx }, { propertyIds: [stay.propertyId] });
}

/** Frees the nights a request held, if any. */
export async function releaseStay(tx: Database, requestId: string): Promise<void> {
  const released = await tx
    .delete(calendarEntries)
    .where(eq(calendarEntries.requestId, requestId))
    .returning({ propertyId: calendarEntries.propertyId });
  if (released.length > 0)
    await notifyCatalogueChanged(
      { db: tx },
      { propertyIds: released.map((row) => row.propertyId) },
    );
}

/**
 * Runs `work`; when the database refuses the nights, reads what holds them and answers
 * `collision`. Should they be freed between the refusal and that read (the other stay was
 * cancelled meanwhile), the work runs again, a few times at most.
 *
 * Two transactions inserting overlapping stays at the same moment may each find the other's
 * uncommitted entry in the exclusion index and wait for it: PostgreSQL ends one of them as a
 * deadlock (40P01) rather than as the constraint's refusal. That one runs again too, and then
 * meets the winner's committed stay as a collision (the topology journey saw a 500 instead).
 */
export async function retryOnTakenNights<T>(
  work: () => Promise<T>,
  collisionsOf: (taken: NightsTaken) => Promise<CollidingEntry[]>,
): Promise<T | { outcome: "collision"; collidesWith: [CollidingEntry, ...CollidingEntry[]] }> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (isDeadlock(error) && attempt < MAX_ATTEMPTS) continue;
      if (!(error instanceof NightsTaken)) throw error;
      const [first, ...rest] = await collisionsOf(error);
      if (first) return { outcome: "collision", collidesWith: [first, ...rest] };
      if (attempt >= MAX_ATTEMPTS) throw error;
    }
  }
}

const MAX_ATTEMPTS = 3;

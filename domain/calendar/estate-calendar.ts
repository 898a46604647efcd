import { randomUUID } from "node:crypto";
import { aliasedTable, and, asc, eq, inArray, ne, or, sql } from "drizzle-orm";
import { type Database, withTransaction } from "#db/client.ts";
import { calendarEntries, guestRequests, properties } from "#db/schema/index.ts";
import { notifyCatalogueChanged } from "../catalogue/catalogue-changes.ts";
import type { Deps } from "../deps.ts";
import { NotFoundError, ValidationError } from "../errors.ts";
import { recordEvent } from "../events/record-event.ts";
import { earliestBookableDate } from "../requests/dates.ts";
import type { RequestStatus } from "../requests/options.ts";
import { PROCESSES } from "../requests/process.ts";
import type { BlockKind, CollidingEntry } from "./calendar.schema.ts";
import { findCollisions, isDeadlock, isExclusionViolation } from "./collisions.ts";
import { fromDateRange, type Nights, toDateRange } from "./nights.ts";

/**
 * An estate's calendar as staff and its owner see it: the nights confirmed
 * stays and blocks take, the requests still pending on them, the busy times imported from
 * other calendars, and where an imported busy time overlaps a stay or block. Blocks are added
 * and removed here too.
 */

export type CalendarViewer = "staff" | "owner";
/** Who acts on an estate's blocks. */
export interface BlockActor {
  role: CalendarViewer;
  email: string;
}

/** The staff collection of a request: its details live under this name. */
export type RequestCollection = "bookings" | "booking-requests";

/** A confirmed stay, or a request still waiting on its nights. */
export interface CalendarRequestEntry extends Nights {
  requestId: string;
  collection: RequestCollection;
  reference: string;
  status: RequestStatus;
  /** Staff only: null for the owner. */
  guestName: string | null;
  /** As the guest gave it; null when the form had none. */
  guests: number | null;
}

export interface CalendarBlock extends Nights {
  id: string;
  kind: BlockKind;
  note: string | null;
  createdBy: CalendarViewer;
  /** Whether this viewer may remove it (see `mayRemoveBlock`). */
  removable: boolean;
}

export interface CalendarExternalBusy extends Nights {
  id: string;
  feedId: string;
  summary: string | null;
}

/** An imported busy time over a stay or a block: kept and shown, never allowed to cancel. */
export interface CalendarCollisionEntry {
  external: CalendarExternalBusy;
  collidesWith: CollidingEntry & { id: string };
}

export interface EstateCalendar {
  propertyId: number;
  from: string;
  to: string;
  stays: CalendarRequestEntry[];
  tentative: CalendarRequestEntry[];
  /**
   * Confirmed requests on the estate whose nights are not on the calendar: two stays confirmed
   * on the same nights before the calendar existed (migration 0008 kept the earlier one).
   */
  unplaced: CalendarRequestEntry[];
  blocks: CalendarBlock[];
  external: CalendarExternalBusy[];
  collisions: CalendarCollisionEntry[];
}

/** Pending requests: tentative, they close no nights to guests. */
const PENDING = PROCESSES.booking.open;

const COLLECTION_OF = {
  property_booking: "bookings",
  booking_request: "booking-requests",
} as const satisfies Record<string, RequestCollection>;

/** Where a block's author is recorded: "staff:<email>" or "owner:<email>". */
function authorOf(actor: BlockActor): string {
  return `${actor.role}:${actor.email.trim().toLowerCase()}`;
}

function roleOfAuthor(createdBy: string | null): CalendarViewer {
  return createdBy?.startsWith("owner:") ? "owner" : "staff";
}

/**
 * Who may remove a block: staff any block of the estate; an owner only the blocks an owner
 * made (any owner of the estate on record, so a block survives a change of email between
 * co-owners), never one staff made, for instance for maintenance the network arranged.
 */
export function mayRemoveBlock(viewer: CalendarViewer, createdBy: CalendarViewer): boolean {
  return viewer === "staff" || createdBy === "owner";
}

function guestsOf(details: Record<string, unknown>): number | null {
  const value = details.numberOfGuests ?? details.estimatedGuests;
  return typeof value === "number" && Number.isInteger(value) ? value : null;
}

const overlapsWindow = (window: Nights) =>
  sql`${calendarEntries.nights} && ${toDateRange(window)}::daterange`;

/**
 * The estate's calendar over the nights [from, to) for `viewer`. The owner sees each stay's and
 * request's reference, dates, status and number of guests, but not the guest's name or
 * contact: what an owner may learn about a guest is for the request lifecycle issue to decide,
 * so until then the calendar shows an owner only what the export feed's busy times and the
 * guest count imply. Notes of blocks are the estate's own and shown to both.
 * @throws NotFoundError when the estate does not exist
 */
export async function readEstateCalendar(
  deps: Pick<Deps, "db">,
  propertyId: number,
  from: string,
  to: string,
  viewer: CalendarViewer,
): Promise<EstateCalendar> {
  const { db } = deps;
  const window = { start: from, end: to };
  const [estate] = await db
    .select({ id: properties.id })
    .from(properties)
    .where(eq(properties.id, propertyId));
  if (!estate) throw new NotFoundError("errors.propertyNotFound");

  const [entries, requests, collisions] = await Promise.all([
    db
      .select({
        id: calendarEntries.id,
        source: calendarEntries.source,
        nights: calendarEntries.nights,
        kind: calendarEntries.kind,
        note: calendarEntries.note,
        createdBy: calendarEntries.createdBy,
        feedId: calendarEntries.feedId,
        summary: calendarEntries.summary,
        requestId: calendarEntries.requestId,
      })
      .from(calendarEntries)
      .where(and(eq(calendarEntries.propertyId, propertyId), overlapsWindow(window)))
      .orderBy(sql`lower(${calendarEntries.nights})`, asc(calendarEntries.id)),
    // Every request on the estate with nights in the window, and every one whose stay row is
    // in it: those with a stay row are the stays; the pending ones and any confirmed one
    // without a row are listed apart.
    db
      .select({ ...REQUEST_ON_CALENDAR, placed: calendarEntries.id })
      .from(guestRequests)
      .leftJoin(calendarEntries, eq(calendarEntries.requestId, guestRequests.id))
      .where(
        and(
          eq(guestRequests.propertyId, propertyId),
          inArray(guestRequests.kind, ["property_booking", "booking_request"]),
          or(
            and(
              inArray(guestRequests.status, [...PENDING, "Confirmed"]),
              sql`${guestRequests.stayStart} < ${to}::date`,
              sql`${guestRequests.stayEnd} > ${from}::date`,
            ),
            overlapsWindow(window),
          ),
        ),
      )
      .orderBy(asc(guestRequests.stayStart), asc(guestRequests.reference)),
    readCollisions(db, propertyId, window),
  ]);

  const toRequestEntry = (row: (typeof requests)[number]): CalendarRequestEntry => ({
    requestId: row.id,
    collection: COLLECTION_OF[row.kind as keyof typeof COLLECTION_OF],
    reference: row.reference,
    status: row.status,
    start: row.start!,
    end: row.end!,
    guestName: viewer === "staff" ? `${row.firstName} ${row.lastName}`.trim() || null : null,
    guests: guestsOf(row.details),
  });
  const byId = new Map(requests.map((row) => [row.id, row]));

  const stays: CalendarRequestEntry[] = [];
  const blocks: CalendarBlock[] = [];
  const external: CalendarExternalBusy[] = [];
  for (const entry of entries) {
    const nights = fromDateRange(entry.nights);
    if (entry.source === "stay") {
      const request = entry.requestId ? byId.get(entry.requestId) : undefined;
      if (request) stays.push({ ...toRequestEntry(request), ...nights });
    } else if (entry.source === "block") {
      const createdBy = roleOfAuthor(entry.createdBy);
      blocks.push({
        id: entry.id,
        ...nights,
        kind: entry.kind ?? "other",
        note: entry.note,
        createdBy,
        removable: mayRemoveBlock(viewer, createdBy),
      });
    } else
      external.push({ id: entry.id, ...nights, feedId: entry.feedId!, summary: entry.summary });
  }

  const pending = requests.filter(
    (row) => row.placed === null && PENDING.includes(row.status) && row.start && row.end,
  );
  const unplaced = requests.filter(
    (row) => row.placed === null && row.status === "Confirmed" && row.start && row.end,
  );
  return {
    propertyId,
    from,
    to,
    stays,
    tentative: pending.map(toRequestEntry),
    unplaced: unplaced.map(toRequestEntry),
    blocks,
    external,
    collisions,
  };
}

/**
 * Each imported busy time in the window that overlaps a stay or block, with that stay or
 * block, even when the latter lies partly outside the window.
 */
async function readCollisions(
  db: Database,
  propertyId: number,
  window: Nights,
): Promise<CalendarCollisionEntry[]> {
  const held = aliasedTable(calendarEntries, "held");
  const rows = await db
    .select({
      id: calendarEntries.id,
      nights: calendarEntries.nights,
      feedId: calendarEntries.feedId,
      summary: calendarEntries.summary,
      heldId: held.id,
      heldSource: held.source,
      heldNights: held.nights,
      heldKind: held.kind,
      reference: guestRequests.reference,
    })
    .from(calendarEntries)
    .innerJoin(
      held,
      and(
        eq(held.propertyId, calendarEntries.propertyId),
        ne(held.source, "external"),
        sql`${held.nights} && ${calendarEntries.nights}`,
      ),
    )
    .leftJoin(guestRequests, eq(guestRequests.id, held.requestId))
    .where(
      and(
        eq(calendarEntries.propertyId, propertyId),
        eq(calendarEntries.source, "external"),
        overlapsWindow(window),
      ),
    )
    .orderBy(sql`lower(${calendarEntries.nights})`, asc(calendarEntries.id), asc(held.id));
  return rows.map((row) => ({
    external: {
      id: row.id,
      ...fromDateRange(row.nights),
      feedId: row.feedId!,
      summary: row.summary,
    },
    collidesWith: {
      id: row.heldId,
      source: row.heldSource,
      reference: row.heldSource === "stay" ? (row.reference ?? null) : null,
      kind: row.heldSource === "block" ? (row.heldKind ?? "other") : null,
      ...fromDateRange(row.heldNights),
    },
  }));
}

/**
 * Records `block.changed` in the writer's transaction: the estate, the block's id, nights and
 * kind, whether it was added or removed, and the role (not the person) that did it. Never the
 * note, which is for the estate's people only.
 */
async function recordBlockEvent(
  tx: Database,
  input: {
    change: "added" | "removed";
    blockId: string;
    propertyId: number;
    nights: Nights;
    kind: string | null;
    actor: BlockActor;
  },
): Promise<void> {
  const [estate] = await tx
    .select({ slug: properties.slug })
    .from(properties)
    .where(eq(properties.id, input.propertyId));
  await recordEvent(tx, {
    type: "block.changed",
    data: {
      change: input.change,
      blockId: input.blockId,
      propertyId: input.propertyId,
      propertySlug: estate?.slug ?? null,
      start: input.nights.start,
      end: input.nights.end,
      kind: input.kind,
      actor: input.actor.role,
    },
  });
}

export type AddBlockResult =
  | {
      outcome: "added";
      block: CalendarBlock;
      /** Pending requests on some of the nights: the block stands, but someone should know. */
      pendingRequests: CalendarRequestEntry[];
    }
  | { outcome: "collision"; collidesWith: CollidingEntry[] };

/**
 * Blocks the nights for a reason of `kind`. Refused (nothing written) when a stay or another
 * block already holds one of them: the read names what for the message, and the database's
 * exclusion constraint is what refuses, so two writers racing past the read still cannot both
 * win. Pending requests on the nights do not refuse it (they hold nothing yet), but the answer
 * names them, as the actor may see them (the owner without the guest's name), so that whoever
 * blocks learns they are blocking nights someone asked for. A block may not lie entirely in the past (`today`: the earliest date still "today"
 * somewhere). Announces the change so cached availability drops on every instance.
 * @throws NotFoundError when the estate does not exist; ValidationError for past nights
 */
export async function addBlock(
  deps: Pick<Deps, "db">,
  input: {
    propertyId: number;
    nights: Nights;
    kind: BlockKind;
    note?: string | null;
    actor: BlockActor;
    today?: string;
  },
): Promise<AddBlockResult> {
  const { propertyId, nights } = input;
  if (nights.end <= (input.today ?? earliestBookableDate()))
    throw new ValidationError([{ path: "end", message: "owner.calendar.validation.inPast" }]);
  const note = input.note?.trim() || null;
  for (let attempt = 1; ; attempt++) {
    try {
      return await insertBlock(deps.db, { ...input, note });
    } catch (error) {
      // Inserting at the very moment another writer did: run again (collisions.ts, isDeadlock).
      if (isDeadlock(error) && attempt < 3) continue;
      // Another writer took the nights between the read and the insert: name what took them.
      if (!isExclusionViolation(error)) throw error;
      const collidesWith = await findCollisions(deps.db, propertyId, nights);
      if (collidesWith.length > 0) return { outcome: "collision", collidesWith };
      // That write was undone since: the nights are free again, so try once more.
      if (attempt >= 2) throw error;
    }
  }
}

async function insertBlock(
  db: Database,
  input: {
    propertyId: number;
    nights: Nights;
    kind: BlockKind;
    note: string | null;
    actor: BlockActor;
  },
): Promise<AddBlockResult> {
  const { propertyId, nights, note } = input;
  return withTransaction(db, async (tx) => {
    const [estate] = await tx
      .select({ id: properties.id })
      .from(properties)
      .where(eq(properties.id, propertyId));
    if (!estate) throw new NotFoundError("errors.propertyNotFound");
    const collidesWith = await findCollisions(tx, propertyId, nights);
    if (collidesWith.length > 0) return { outcome: "collision", collidesWith } as const;
    const id = randomUUID();
    await tx.insert(calendarEntries).values({
      id,
      propertyId,
      nights: toDateRange(nights),
      source: "block",
      kind: input.kind,
      note,
      createdBy: authorOf(input.actor),
    });
    await recordBlockEvent(tx, {
      change: "added",
      blockId: id,
      propertyId,
      nights,
      kind: input.kind,
      actor: input.actor,
    });
    await notifyCatalogueChanged({ db: tx }, { propertyIds: [propertyId] });
    const createdBy = input.actor.role;
    return {
      outcome: "added",
      block: {
        id,
        ...nights,
        kind: input.kind,
        note,
        createdBy,
        removable: mayRemoveBlock(input.actor.role, createdBy),
      },
      pendingRequests: await readPendingOn(tx, propertyId, nights, input.actor.role),
    } as const;
  });
}

/** What the calendar shows of a request, read for its stays and for a block's warning alike. */
const REQUEST_ON_CALENDAR = {
  id: guestRequests.id,
  kind: guestRequests.kind,
  reference: guestRequests.reference,
  status: guestRequests.status,
  firstName: guestRequests.firstName,
  lastName: guestRequests.lastName,
  details: guestRequests.details,
  start: guestRequests.stayStart,
  end: guestRequests.stayEnd,
};

/** The pending requests of the estate whose nights share one with `nights`, earliest first. */
async function readPendingOn(
  db: Database,
  propertyId: number,
  nights: Nights,
  viewer: CalendarViewer,
): Promise<CalendarRequestEntry[]> {
  const rows = await db
    .select(REQUEST_ON_CALENDAR)
    .from(guestRequests)
    .where(
      and(
        eq(guestRequests.propertyId, propertyId),
        inArray(guestRequests.kind, ["property_booking", "booking_request"]),
        inArray(guestRequests.status, PENDING),
        sql`${guestRequests.stayStart} < ${nights.end}::date`,
        sql`${guestRequests.stayEnd} > ${nights.start}::date`,
      ),
    )
    .orderBy(asc(guestRequests.stayStart), asc(guestRequests.reference));
  return rows.map((row) => ({
    requestId: row.id,
    collection: COLLECTION_OF[row.kind as keyof typeof COLLECTION_OF],
    reference: row.reference,
    status: row.status,
    start: row.start!,
    end: row.end!,
    guestName: viewer === "staff" ? `${row.firstName} ${row.lastName}`.trim() || null : null,
    guests: guestsOf(row.details),
  }));
}

export type RemoveBlockResult =
  { outcome: "removed" } | { outcome: "not_found" } | { outcome: "forbidden" };

/**
 * Removes a block of the estate (never a stay or an imported busy time, and never another
 * estate's: either is `not_found`). Staff remove any block; an owner only blocks owners made
 * (`mayRemoveBlock`), else `forbidden`. Announces the change so cached availability drops.
 */
export async function removeBlock(
  deps: Pick<Deps, "db">,
  input: { propertyId: number; blockId: string; actor: BlockActor },
): Promise<RemoveBlockResult> {
  return withTransaction(deps.db, async (tx) => {
    const [block] = await tx
      .select({
        createdBy: calendarEntries.createdBy,
        nights: calendarEntries.nights,
        kind: calendarEntries.kind,
      })
      .from(calendarEntries)
      .where(
        and(
          eq(calendarEntries.id, input.blockId),
          eq(calendarEntries.propertyId, input.propertyId),
          eq(calendarEntries.source, "block"),
        ),
      )
      .for("update");
    if (!block) return { outcome: "not_found" } as const;
    if (!mayRemoveBlock(input.actor.role, roleOfAuthor(block.createdBy)))
      return { outcome: "forbidden" } as const;
    await tx.delete(calendarEntries).where(eq(calendarEntries.id, input.blockId));
    await recordBlockEvent(tx, {
      change: "removed",
      blockId: input.blockId,
      propertyId: input.propertyId,
      nights: fromDateRange(block.nights),
      kind: block.kind,
      actor: input.actor,
    });
    await notifyCatalogueChanged({ db: tx }, { propertyIds: [input.propertyId] });
    return { outcome: "removed" } as const;
  });
}

import { createHash, randomUUID } from "node:crypto";
import { calendarEntries, calendarFeeds, guestRequests } from "#db/schema/index.ts";
import { addDays, type Nights, toDateRange } from "#domain/calendar/nights.ts";
import type { Deps } from "#domain/deps.ts";
import { addMonths, utcToday } from "#domain/requests/dates.ts";
import type { RequestStatus } from "#domain/requests/options.ts";

/**
 * Calendars for tests: requests on an estate's nights, the stay rows their confirmation writes,
 * and imported feeds with their busy times, written straight into the tables.
 */

/** The first day of the month two months from now: nights after it are never in the past. */
export function calendarBase(): string {
  return `${addMonths(utcToday(), 2).slice(0, 7)}-01`;
}

/** The nights from `offset` days after `base`, `length` of them. */
export function nightsAt(base: string, offset: number, length: number): Nights {
  return { start: addDays(base, offset), end: addDays(base, offset + length) };
}

let counter = 0;

/** A request on the estate's nights; a Confirmed one also takes them (`placed`, default). */
export async function insertCalendarRequest(
  deps: Pick<Deps, "db">,
  input: {
    propertyId: number;
    nights: Nights;
    status: RequestStatus;
    kind?: "property_booking" | "booking_request";
    firstName?: string;
    lastName?: string;
    guests?: number;
    placed?: boolean;
  },
): Promise<{ id: string; reference: string; entryId: string | null }> {
  const id = randomUUID();
  counter += 1;
  const reference = `CAS-CAL${String(counter).padStart(3, "0")}-${id.slice(0, 4).toUpperCase()}`;
  const kind = input.kind ?? "property_booking";
  await deps.db.insert(guestRequests).values({
    id,
    kind,
    reference,
    status: input.status,
    language: "en",
    email: `guest${counter}@example.com`,
    firstName: input.firstName ?? "Ada",
    lastName: input.lastName ?? `Guest${counter}`,
    propertyId: input.propertyId,
    stayStart: input.nights.start,
    stayEnd: input.nights.end,
    details:
      kind === "property_booking"
        ? { numberOfGuests: input.guests ?? 2 }
        : { estimatedGuests: input.guests ?? 4 },
    statusTokenHash: createHash("sha256").update(id).digest("hex"),
  });
  if (input.status !== "Confirmed" || input.placed === false)
    return { id, reference, entryId: null };
  const entryId = randomUUID();
  await deps.db.insert(calendarEntries).values({
    id: entryId,
    propertyId: input.propertyId,
    nights: toDateRange(input.nights),
    source: "stay",
    requestId: id,
  });
  return { id, reference, entryId };
}

/** An imported feed of the estate. */
export async function insertCalendarFeed(
  deps: Pick<Deps, "db">,
  propertyId: number,
): Promise<string> {
  const id = randomUUID();
  await deps.db.insert(calendarFeeds).values({
    id,
    propertyId,
    url: `https://calendar.example/${id}.ics`,
    createdBy: "staff:admin@castellum.test",
  });
  return id;
}

/** A busy time read from `feedId`. */
export async function insertExternalBusy(
  deps: Pick<Deps, "db">,
  input: { propertyId: number; feedId: string; nights: Nights; summary?: string },
): Promise<string> {
  const id = randomUUID();
  await deps.db.insert(calendarEntries).values({
    id,
    propertyId: input.propertyId,
    nights: toDateRange(input.nights),
    source: "external",
    feedId: input.feedId,
    externalUid: `${id}@calendar.example`,
    summary: input.summary ?? "Airbnb (Not available)",
  });
  return id;
}

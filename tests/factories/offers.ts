import { randomUUID } from "node:crypto";
import { guestRequests, guestRequestStatusHistory } from "#db/schema/index.ts";
import type { Nights } from "#domain/calendar/nights.ts";
import type { Deps } from "#domain/deps.ts";
import {
  hashStatusToken,
  makeReference,
  makeStatusToken,
} from "#domain/requests/intake/reference.ts";
import type { RequestKind, RequestStatus } from "#domain/requests/options.ts";
import type { Language } from "#i18n/config.ts";

/**
 * A request staff may send an offer on: an estate, nights and guests, and a status link whose
 * token the test keeps (the guest's side of the offer), written as intake stores it.
 */
export async function insertOfferableRequest(
  deps: Pick<Deps, "db">,
  input: {
    propertyId: number;
    nights: Nights;
    kind?: Exclude<RequestKind, "membership">;
    language?: Language;
    status?: RequestStatus;
    guests?: number;
    createdAt?: Date;
  },
): Promise<{ id: string; token: string; reference: string; kind: RequestKind; email: string }> {
  const id = randomUUID();
  const token = makeStatusToken();
  const kind = input.kind ?? "property_booking";
  const reference = makeReference(kind);
  const email = `guest-${id.slice(0, 8)}@example.com`;
  const createdAt = input.createdAt ?? new Date();
  await deps.db.insert(guestRequests).values({
    id,
    kind,
    reference,
    status: input.status ?? "In progress",
    language: input.language ?? "en",
    email,
    firstName: "Camille",
    lastName: "Durand",
    propertyId: input.propertyId,
    stayStart: input.nights.start,
    stayEnd: input.nights.end,
    details:
      kind === "property_booking"
        ? { numberOfGuests: input.guests ?? 2 }
        : { estimatedGuests: input.guests ?? 2 },
    statusTokenHash: hashStatusToken(token),
    createdAt,
    updatedAt: createdAt,
    dueAt: new Date(createdAt.getTime() + 48 * 3_600_000),
    remindAt: new Date(createdAt.getTime() + 36 * 3_600_000),
  });
  await deps.db
    .insert(guestRequestStatusHistory)
    .values({ requestId: id, toStatus: "New", changedBy: "guest", changedAt: createdAt });
  return { id, token, reference, kind, email };
}

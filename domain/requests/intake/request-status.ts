import { desc, eq } from "drizzle-orm";
import { guestRequests, guestRequestStatusHistory } from "#db/schema/index.ts";
import type { Deps } from "#domain/deps.ts";
import type { RequestKind, RequestStatus } from "../options.ts";
import { hashStatusToken } from "./reference.ts";

export interface GuestRequestView {
  kind: RequestKind;
  reference: string;
  status: RequestStatus;
  createdAt: string;
  updatedAt: string;
  details: Record<string, unknown>;
  /** The reason staff gave for the current status, when they chose to share it with the guest. */
  reason: string | null;
}

/** Status tokens are 32 base64url characters; anything else is not worth a query. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{32}$/;

/** The request behind a guest's status link, or null for any token that opens nothing. */
export async function findRequestByStatusToken(
  deps: Deps,
  token: string,
): Promise<GuestRequestView | null> {
  if (!TOKEN_SHAPE.test(token)) return null;
  const [row] = await deps.db
    .select()
    .from(guestRequests)
    .where(eq(guestRequests.statusTokenHash, hashStatusToken(token)));
  if (!row) return null;
  const [latest] = await deps.db
    .select({
      toStatus: guestRequestStatusHistory.toStatus,
      reason: guestRequestStatusHistory.reason,
      reasonShared: guestRequestStatusHistory.reasonShared,
    })
    .from(guestRequestStatusHistory)
    .where(eq(guestRequestStatusHistory.requestId, row.id))
    .orderBy(desc(guestRequestStatusHistory.changedAt), desc(guestRequestStatusHistory.id))
    .limit(1);
  const reason =
    latest && latest.toStatus === row.status && latest.reasonShared ? latest.reason : null;
  return {
    kind: row.kind,
    reference: row.reference,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    details: row.details,
    reason,
  };
}

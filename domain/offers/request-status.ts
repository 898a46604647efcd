import { and, eq } from "drizzle-orm";
import { guestRequests } from "#db/schema/index.ts";
import type { Deps } from "../deps.ts";
import type { RequestKind, RequestStatus } from "../requests/options.ts";

/** The status of one request of `kind`, or null when there is none with this id. */
export async function getRequestStatus(
  deps: Pick<Deps, "db">,
  kind: RequestKind,
  id: string,
): Promise<RequestStatus | null> {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) return null;
  const [row] = await deps.db
    .select({ status: guestRequests.status })
    .from(guestRequests)
    .where(and(eq(guestRequests.id, id), eq(guestRequests.kind, kind)));
  return row?.status ?? null;
}

import { and, desc, eq, inArray, like, lt, notInArray, or, type SQL } from "drizzle-orm";
import type { Deps } from "../deps.ts";
import { securityEvents } from "#db/schema/index.ts";
import {
  isFailureEventType,
  SECURITY_EVENT_GROUPS,
  type SecurityEventFilter,
  type SecurityEventItem,
  type SecurityEventPageQuery,
} from "./security-log.contract.ts";
import { SECURITY_EVENT_TYPES } from "./security-log.ts";
import { csvCell } from "../csv/safe-csv.ts";
import { dayRangeConditions } from "../requests/day-filter.ts";

const FAILURE_TYPES = SECURITY_EVENT_TYPES.filter(isFailureEventType);

/** The filter's WHERE clause (shared by the page and the export). */
function whereOf(filter: SecurityEventFilter): SQL | undefined {
  const conditions: (SQL | undefined)[] = [];
  if (filter.type) {
    conditions.push(
      SECURITY_EVENT_GROUPS.includes(filter.type)
        ? or(eq(securityEvents.type, filter.type), like(securityEvents.type, `${filter.type}.%`))
        : eq(securityEvents.type, filter.type),
    );
  }
  if (filter.email)
    conditions.push(eq(securityEvents.actorEmail, filter.email.trim().toLowerCase()));
  if (filter.ip) conditions.push(eq(securityEvents.ip, filter.ip.trim()));
  conditions.push(...dayRangeConditions(securityEvents.at, filter));
  if (filter.outcome === "failure") conditions.push(inArray(securityEvents.type, FAILURE_TYPES));
  if (filter.outcome === "success") conditions.push(notInArray(securityEvents.type, FAILURE_TYPES));
  return and(...conditions);
}

type Row = typeof securityEvents.$inferSelect;

const toItem = (row: Row): SecurityEventItem => ({
  id: row.id,
  at: row.at.toISOString(),
  type: row.type,
  actorKind: row.actorKind,
  staffUserId: row.staffUserId,
  actorEmail: row.actorEmail,
  ip: row.ip,
  userAgent: row.userAgent,
  data: row.data,
});

/**
 * One page of the security log, newest first (by id, which grows with time): the entries with
 * an id below `cursor`, and the cursor of the next page when there is one (keyset paging).
 */
export async function listSecurityEvents(
  deps: Pick<Deps, "db">,
  query: SecurityEventPageQuery,
): Promise<{ events: SecurityEventItem[]; nextCursor: number | null }> {
  const where = whereOf(query);
  const rows = await deps.db
    .select()
    .from(securityEvents)
    .where(query.cursor ? and(where, lt(securityEvents.id, query.cursor)) : where)
    .orderBy(desc(securityEvents.id))
    .limit(query.limit + 1);
  const page = rows.slice(0, query.limit);
  return {
    events: page.map(toItem),
    nextCursor: rows.length > query.limit ? page.at(-1)!.id : null,
  };
}

/** Every entry matching the filter, newest first, read in batches (for the CSV export). */
export async function* streamSecurityEvents(
  deps: Pick<Deps, "db">,
  filter: SecurityEventFilter,
  batchSize = 500,
): AsyncGenerator<SecurityEventItem> {
  let cursor: number | undefined;
  for (;;) {
    const page = await listSecurityEvents(deps, { ...filter, cursor, limit: batchSize });
    yield* page.events;
    if (page.nextCursor === null) return;
    cursor = page.nextCursor;
  }
}

/** The CSV's columns, in order (machine names: the file is for tools as much as people). */
export const SECURITY_CSV_COLUMNS = [
  "id",
  "at",
  "type",
  "actorKind",
  "actorEmail",
  "ip",
  "userAgent",
  "data",
] as const;

/** One entry as CSV cells, each made safe by the shared `csvCell` (domain/csv/safe-csv.ts), in SECURITY_CSV_COLUMNS order. */
export function securityCsvRowOf(event: SecurityEventItem): string[] {
  return [
    String(event.id),
    event.at,
    event.type,
    event.actorKind,
    event.actorEmail ?? "",
    event.ip ?? "",
    event.userAgent ?? "",
    JSON.stringify(event.data),
  ].map(csvCell);
}

import {
  and,
  asc,
  count,
  desc,
  eq,
  gte,
  ilike,
  inArray,
  isNotNull,
  lt,
  lte,
  or,
  type SQL,
  sql,
} from "drizzle-orm";
import {
  calendarEntries,
  guestRequestNotes,
  guestRequests,
  guestRequestStatusHistory,
  propertyTranslations,
  offers,
} from "#db/schema/index.ts";
import { requestMoneyColumn, requestsInMoneyState } from "../offers/money-state.ts";
import type { RequestMoney } from "../offers/offer.schema.ts";
import type { CollidingEntry, ImportedBusy } from "../calendar/calendar.schema.ts";
import { findCollisions, findImportedBusy } from "../calendar/collisions.ts";
import type { Database } from "#db/client.ts";
import { nowOf } from "../clock.ts";
import type { Deps } from "../deps.ts";
import type { Language } from "#i18n/config.ts";
import { latestOwnerViews, listOwnerViews } from "../owners/owner-requests.ts";
import { ValidationError } from "../errors.ts";
import { type RequestKind, type RequestStatus, statusesOf } from "../requests/options.ts";
import { ANY_OPEN_STATUSES_SQL, isOpenStatus } from "../requests/process.ts";
import type { z } from "zod";
import type {
  InboxItemSchema,
  InboxOverviewSchema,
  RequestDetailSchema,
  RequestNoteSchema,
  StatusHistoryEntrySchema,
  WeeklyCountsSchema,
} from "./inbox.contract.ts";
import type { InboxFilter } from "./inbox.schema.ts";
import { unreadMessagesOf } from "../conversation/unread.ts";
import { dayRangeConditions } from "../requests/day-filter.ts";
import { isUuid } from "../uuid.ts";

/** One row of the staff inbox: the inbox's columns plus what the detail view needs. */
export type InboxItem = z.infer<typeof InboxItemSchema>;

export interface InboxPage {
  items: InboxItem[];
  /** Pass as `after` for the next page; null on the last page. */
  nextCursor: string | null;
  /** How many requests match the filter (all pages). */
  total: number;
}

const columns = {
  id: guestRequests.id,
  kind: guestRequests.kind,
  reference: guestRequests.reference,
  status: guestRequests.status,
  version: guestRequests.version,
  language: guestRequests.language,
  firstName: guestRequests.firstName,
  lastName: guestRequests.lastName,
  email: guestRequests.email,
  phone: guestRequests.phone,
  memberStatus: guestRequests.memberStatus,
  propertyId: guestRequests.propertyId,
  stayStart: guestRequests.stayStart,
  stayEnd: guestRequests.stayEnd,
  createdAt: guestRequests.createdAt,
  updatedAt: guestRequests.updatedAt,
  details: guestRequests.details,
  dueAt: guestRequests.dueAt,
  erasedAt: guestRequests.erasedAt,
};

type Row = {
  [K in keyof typeof columns]: (typeof columns)[K]["_"]["notNull"] extends true
    ? (typeof columns)[K]["_"]["data"]
    : (typeof columns)[K]["_"]["data"] | null;
} & { unreadMessages: number; money: RequestMoney | null };

/** A row's columns, the guest's unread messages and where its money stands on `today`. */
function itemColumnsOn(now: Date) {
  return {
    ...columns,
    unreadMessages: unreadMessagesOf,
    money: requestMoneyColumn(now.toISOString().slice(0, 10)),
  };
}

function toItem(row: Row, now: Date): Omit<InboxItem, "ownerView"> {
  const status = row.status as RequestStatus;
  return {
    ...row,
    // Stored as text; intake and status changes write only these values.
    status,
    memberStatus: row.memberStatus as InboxItem["memberStatus"],
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    dueAt: row.dueAt ? row.dueAt.toISOString() : null,
    erasedAt: row.erasedAt ? row.erasedAt.toISOString() : null,
    // Open and past its due time: the lifecycle job closes it at its next run.
    overdue: Boolean(row.dueAt && row.dueAt <= now && isOpen(row.kind, status)),
  };
}

const isOpen = isOpenStatus;
const OPEN = sql.raw(ANY_OPEN_STATUSES_SQL);

/** Sorting by due time: open requests with a due time first, soonest first; the rest after. */
const dueKey = sql`coalesce(case when ${guestRequests.status} in ${OPEN} then ${guestRequests.dueAt} end, 'infinity'::timestamptz)`;

/** Items with the estate owner's latest view of each, read in one query. */
async function withOwnerViews(
  db: Database,
  items: Omit<InboxItem, "ownerView">[],
): Promise<InboxItem[]> {
  const views = await latestOwnerViews(
    db,
    items.filter((item) => item.propertyId !== null).map((item) => item.id),
  );
  return items.map((item) => ({ ...item, ownerView: views.get(item.id) ?? null }));
}

/** Refuses a status that requests of this kind never have (e.g. Accepted for a booking). */
export function assertStatusOfKind(kind: RequestKind, status: string | undefined) {
  if (status !== undefined && !statusesOf(kind).includes(status as RequestStatus))
    throw new ValidationError([{ path: "status", message: "staff.validation.statusInvalid" }]);
}

/** `%`, `_` and `\` are wildcards in LIKE; a search for them means the characters themselves. */
function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The filter's WHERE clause without the page cursor (shared by the page, the count and CSV);
 * the money state is that of `now`'s day.
 */
function whereOf(filter: InboxFilter, now: Date): SQL {
  const conditions: SQL[] = [eq(guestRequests.kind, filter.kind)];
  if (filter.money)
    conditions.push(
      sql`${guestRequests.id} in ${requestsInMoneyState(filter.money, now.toISOString().slice(0, 10))}`,
    );
  if (filter.status) conditions.push(eq(guestRequests.status, filter.status));
  if (filter.memberStatus) conditions.push(eq(guestRequests.memberStatus, filter.memberStatus));
  if (filter.propertyId) conditions.push(eq(guestRequests.propertyId, filter.propertyId));
  conditions.push(...dayRangeConditions(guestRequests.createdAt, filter));
  if (filter.q) {
    const q = filter.q;
    const pattern = likePattern(q);
    const matches = [
      eq(guestRequests.reference, q.toUpperCase()),
      ilike(guestRequests.email, pattern),
      ilike(sql`${guestRequests.firstName} || ' ' || ${guestRequests.lastName}`, pattern),
    ];
    // Phone numbers are searched by their digits, whatever spacing the guest typed.
    const digits = q.replace(/\D/g, "");
    if (digits.length >= 3)
      matches.push(
        sql`regexp_replace(${guestRequests.phone}, '[^0-9]', '', 'g') like ${`%${digits}%`}`,
      );
    conditions.push(or(...matches) as SQL);
  }
  return and(...conditions) as SQL;
}

/** The page-order key of a row: its arrival, or for `sort=due` its open due time. */
function sortKeyOf(row: Row, filter: InboxFilter): string {
  if (filter.sort !== "due") return row.createdAt.toISOString();
  return row.dueAt && isOpen(row.kind, row.status as RequestStatus)
    ? row.dueAt.toISOString()
    : "infinity";
}

function encodeCursor(row: Row, filter: InboxFilter): string {
  return Buffer.from(`${sortKeyOf(row, filter)}|${row.id}`).toString("base64url");
}

function decodeCursor(cursor: string, filter: InboxFilter): { at: string; id: string } {
  const [at, id] = Buffer.from(cursor, "base64url").toString("utf8").split("|");
  const valid =
    at !== undefined &&
    (!Number.isNaN(new Date(at).getTime()) || (filter.sort === "due" && at === "infinity"));
  if (!id || !/^[0-9a-f-]{36}$/.test(id) || !valid)
    throw new ValidationError([{ path: "after", message: "staff.validation.cursorInvalid" }]);
  return { at: at === "infinity" ? at : new Date(at).toISOString(), id };
}

/** Keyset condition: rows strictly after the cursor in the page order (stable under inserts). */
function afterCursor(filter: InboxFilter): SQL | undefined {
  if (!filter.after) return undefined;
  const cursor = decodeCursor(filter.after, filter);
  const at = sql`(${cursor.at}::timestamptz, ${cursor.id}::uuid)`;
  if (filter.sort === "due") return sql`(${dueKey}, ${guestRequests.id}) > ${at}`;
  const key = sql`(${guestRequests.createdAt}, ${guestRequests.id})`;
  return filter.sort === "oldest" ? sql`${key} > ${at}` : sql`${key} < ${at}`;
}

function orderOf(filter: InboxFilter) {
  if (filter.sort === "due") return [asc(dueKey), asc(guestRequests.id)];
  return filter.sort === "oldest"
    ? [asc(guestRequests.createdAt), asc(guestRequests.id)]
    : [desc(guestRequests.createdAt), desc(guestRequests.id)];
}

/**
 * One page of the inbox, newest first by default, paged by (created_at, id): a page costs the
 * same wherever it is, and a request arriving meanwhile neither repeats nor hides a row.
 */
export async function listInbox(
  deps: Pick<Deps, "db" | "clock">,
  filter: InboxFilter,
): Promise<InboxPage> {
  assertStatusOfKind(filter.kind, filter.status);
  const now = nowOf(deps);
  const where = whereOf(filter, now);
  const cursor = afterCursor(filter);
  const [rows, [total]] = await Promise.all([
    deps.db
      .select(itemColumnsOn(now))
      .from(guestRequests)
      .where(cursor ? and(where, cursor) : where)
      .orderBy(...orderOf(filter))
      .limit(filter.limit + 1),
    deps.db.select({ n: count() }).from(guestRequests).where(where),
  ]);
  const page = rows.slice(0, filter.limit);
  const last = page.at(-1);
  return {
    items: await withOwnerViews(
      deps.db,
      page.map((row) => toItem(row, now)),
    ),
    nextCursor: rows.length > filter.limit && last ? encodeCursor(last, filter) : null,
    total: total?.n ?? 0,
  };
}

/** Every request matching the filter, in page order, a batch at a time (for the CSV export). */
export async function* streamInboxBatches(
  deps: Pick<Deps, "db" | "clock">,
  filter: InboxFilter,
  batchSize = 500,
): AsyncGenerator<InboxItem[]> {
  assertStatusOfKind(filter.kind, filter.status);
  let page: InboxFilter = { ...filter, after: undefined, limit: batchSize };
  for (;;) {
    const now = nowOf(deps);
    const cursor = afterCursor(page);
    const where = whereOf(page, now);
    const rows = await deps.db
      .select(itemColumnsOn(now))
      .from(guestRequests)
      .where(cursor ? and(where, cursor) : where)
      .orderBy(...orderOf(page))
      .limit(batchSize);
    if (rows.length > 0)
      yield await withOwnerViews(
        deps.db,
        rows.map((row) => toItem(row, now)),
      );
    const last = rows.at(-1);
    if (rows.length < batchSize || !last) return;
    page = { ...page, after: encodeCursor(last, page) };
  }
}

/** Requests of a kind per status, and their total (the inbox's count cards). */
export async function countInboxByStatus(
  deps: Pick<Deps, "db">,
  kind: RequestKind,
): Promise<{ total: number; byStatus: Record<string, number> }> {
  const rows = await deps.db
    .select({ status: guestRequests.status, n: count() })
    .from(guestRequests)
    .where(eq(guestRequests.kind, kind))
    .groupBy(guestRequests.status);
  const byStatus: Record<string, number> = Object.fromEntries(statusesOf(kind).map((s) => [s, 0]));
  let total = 0;
  for (const row of rows) {
    byStatus[row.status] = row.n;
    total += row.n;
  }
  return { total, byStatus };
}

export type StatusHistoryEntry = z.infer<typeof StatusHistoryEntrySchema>;

export type RequestNote = z.infer<typeof RequestNoteSchema>;

/** One request with its status history and internal notes (oldest first). */
export type RequestDetail = z.infer<typeof RequestDetailSchema>;

/** One request with its status history and internal notes, or null for an unknown id. */
export async function getRequestDetail(
  deps: Pick<Deps, "db" | "clock">,
  id: string,
  kind?: RequestKind,
): Promise<RequestDetail | null> {
  if (!isUuid(id)) return null;
  const now = nowOf(deps);
  const [row] = await deps.db
    .select(itemColumnsOn(now))
    .from(guestRequests)
    .where(
      kind ? and(eq(guestRequests.id, id), eq(guestRequests.kind, kind)) : eq(guestRequests.id, id),
    );
  if (!row) return null;
  const [history, notes, calendar, ownerViews] = await Promise.all([
    deps.db
      .select()
      .from(guestRequestStatusHistory)
      .where(eq(guestRequestStatusHistory.requestId, id))
      .orderBy(asc(guestRequestStatusHistory.changedAt), asc(guestRequestStatusHistory.id)),
    deps.db
      .select()
      .from(guestRequestNotes)
      .where(eq(guestRequestNotes.requestId, id))
      .orderBy(asc(guestRequestNotes.createdAt), asc(guestRequestNotes.id)),
    readStayCalendar(deps, row),
    listOwnerViews(deps.db, id),
  ]);
  return {
    ...toItem(row, now),
    ownerView: ownerViews.at(-1) ?? null,
    ownerViews,
    history: history.map((entry) => ({
      fromStatus: entry.fromStatus as RequestStatus | null,
      toStatus: entry.toStatus as RequestStatus,
      changedBy: entry.changedBy,
      changedAt: entry.changedAt.toISOString(),
      reason: entry.reason,
      reasonShared: entry.reasonShared,
      event: entry.event,
      dueAt: entry.dueAt ? entry.dueAt.toISOString() : null,
      stay:
        entry.event === "stay" && entry.stayPropertyId && entry.stayStart && entry.stayEnd
          ? { propertyId: entry.stayPropertyId, start: entry.stayStart, end: entry.stayEnd }
          : null,
    })),
    notes: notes.map((note) => ({
      id: note.id,
      authorName: note.authorName,
      body: note.body,
      createdAt: note.createdAt.toISOString(),
    })),
    ...calendar,
  };
}

/**
 * Whether the request holds its nights, what its nights collide with if it does not, and the
 * busy times imported calendars hold on them (shown before a confirmation and after one).
 */
async function readStayCalendar(
  deps: Pick<Deps, "db">,
  row: Pick<Row, "id" | "propertyId" | "stayStart" | "stayEnd">,
): Promise<{ stayHeld: boolean; collisions: CollidingEntry[]; importedBusy: ImportedBusy[] }> {
  const { id, propertyId, stayStart, stayEnd } = row;
  if (propertyId === null || stayStart === null || stayEnd === null)
    return { stayHeld: false, collisions: [], importedBusy: [] };
  const nights = { start: stayStart, end: stayEnd };
  const [[held], busy] = await Promise.all([
    deps.db
      .select({ id: calendarEntries.id })
      .from(calendarEntries)
      .where(eq(calendarEntries.requestId, id)),
    findImportedBusy(deps.db, propertyId, nights),
  ]);
  const importedBusy = busy.map(({ feedId, feed, start, end }) => ({ feedId, feed, start, end }));
  if (held) return { stayHeld: true, collisions: [], importedBusy };
  return {
    stayHeld: false,
    collisions: await findCollisions(deps.db, propertyId, nights),
    importedBusy,
  };
}

export type WeeklyCounts = z.infer<typeof WeeklyCountsSchema>;

/** Requests of every kind per week of arrival and current status, and those waiting too long. */
export type InboxOverview = z.infer<typeof InboxOverviewSchema>;

/** The last `weeks` weeks of arrivals by status, and how many requests have waited too long. */
/**
 * The estates the inbox's estate filter offers: those with at least one property booking, and
 * the one already chosen (`include`), by name in `language`. Filtering by any other estate
 * finds nothing, and the list grows with the bookings, not with the catalogue (decision 0025).
 */
export async function listBookedEstateChoices(
  deps: Pick<Deps, "db">,
  input: { language: Language; include?: number },
): Promise<{ id: number; name: string }[]> {
  const booked = deps.db
    .selectDistinct({ id: guestRequests.propertyId })
    .from(guestRequests)
    .where(and(eq(guestRequests.kind, "property_booking"), isNotNull(guestRequests.propertyId)));
  const rows = await deps.db
    .select({ id: propertyTranslations.propertyId, name: propertyTranslations.name })
    .from(propertyTranslations)
    .where(
      and(
        eq(propertyTranslations.lang, input.language),
        input.include === undefined
          ? inArray(propertyTranslations.propertyId, booked)
          : or(
              inArray(propertyTranslations.propertyId, booked),
              eq(propertyTranslations.propertyId, input.include),
            ),
      ),
    );
  return rows.sort((a, b) => a.name.localeCompare(b.name, input.language));
}

export async function getInboxOverview(
  deps: Pick<Deps, "db" | "clock">,
  options: { weeks?: number } = {},
): Promise<InboxOverview> {
  const weeks = options.weeks ?? 12;
  const now = nowOf(deps);
  const thisMonday = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  thisMonday.setUTCDate(thisMonday.getUTCDate() - ((thisMonday.getUTCDay() + 6) % 7));
  const first = new Date(thisMonday);
  first.setUTCDate(first.getUTCDate() - 7 * (weeks - 1));
  const week = sql<string>`to_char(date_trunc('week', ${guestRequests.createdAt} at time zone 'UTC'), 'YYYY-MM-DD')`;
  const today = now.toISOString().slice(0, 10);
  const [rows, [waiting], [overdue], [awaiting], [balances]] = await Promise.all([
    deps.db
      .select({ week, status: guestRequests.status, n: count() })
      .from(guestRequests)
      .where(gte(guestRequests.createdAt, first))
      .groupBy(week, guestRequests.status),
    deps.db
      .select({ n: count() })
      .from(guestRequests)
      .where(
        and(
          eq(guestRequests.status, "New"),
          lt(guestRequests.createdAt, new Date(now.getTime() - 48 * 60 * 60_000)),
        ),
      ),
    deps.db
      .select({ n: count() })
      .from(guestRequests)
      .where(and(sql`${guestRequests.status} in ${OPEN}`, lte(guestRequests.dueAt, now))),
    deps.db.select({ n: count() }).from(offers).where(eq(offers.status, "sent")),
    deps.db
      .select({ n: count() })
      .from(guestRequests)
      .where(sql`${guestRequests.id} in ${requestsInMoneyState("balance_overdue", today)}`),
  ]);
  const result: WeeklyCounts[] = [];
  for (let i = 0; i < weeks; i++) {
    const start = new Date(first);
    start.setUTCDate(first.getUTCDate() + 7 * i);
    result.push({ weekStart: start.toISOString().slice(0, 10), byStatus: {} });
  }
  for (const row of rows) {
    const entry = result.find((w) => w.weekStart === row.week);
    if (entry) entry.byStatus[row.status] = (entry.byStatus[row.status] ?? 0) + row.n;
  }
  return {
    weeks: result,
    waitingOver48h: waiting?.n ?? 0,
    overdue: overdue?.n ?? 0,
    offersAwaitingAnswer: awaiting?.n ?? 0,
    balancesOverdue: balances?.n ?? 0,
  };
}

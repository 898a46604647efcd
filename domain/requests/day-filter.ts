import { gte, lt, type SQL } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import { LAST_STORABLE_DAY } from "./filter-day.schema.ts";

/**
 * `column` from the start of day `from` to the end of day `to` (UTC), either bound optional.
 * The end is the next midnight, left out; up to the last storable day is every row, so no bound.
 */
export function dayRangeConditions(
  column: PgColumn,
  range: { from?: string | undefined; to?: string | undefined },
): SQL[] {
  const conditions: SQL[] = [];
  if (range.from) conditions.push(gte(column, new Date(`${range.from}T00:00:00Z`)));
  if (range.to && range.to < LAST_STORABLE_DAY) {
    const end = new Date(`${range.to}T00:00:00Z`);
    end.setUTCDate(end.getUTCDate() + 1);
    conditions.push(lt(column, end));
  }
  return conditions;
}

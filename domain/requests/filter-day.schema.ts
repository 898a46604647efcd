import { z } from "zod";
import { isIsoDate } from "./dates.ts";

/*
 * Kept apart from dates.ts, which the catalogue page's browser code imports, so that zod stays
 * out of that page's first load (bench:js).
 */

/**
 * The days a `timestamp with time zone` filter can name: PostgreSQL refuses year 0 and the day
 * after 9999-12-31 (which JavaScript writes as "+010000-01-01"). The GET fuzz found both as 500s.
 */
const FIRST_STORABLE_DAY = "0001-01-01";
export const LAST_STORABLE_DAY = "9999-12-31";

/** A calendar day in a filter ('YYYY-MM-DD', a real day, one PostgreSQL can compare with). */
export const filterDaySchema = (message: string) =>
  z.string().refine((value) => isIsoDate(value) && value >= FIRST_STORABLE_DAY, message);

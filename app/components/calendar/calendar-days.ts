import type { BlockKind } from "#domain/calendar/calendar.schema.ts";
import type { EstateCalendarAnswer } from "#domain/calendar/calendar.contract.ts";
import { addDays, type Nights } from "#domain/calendar/nights.ts";

/**
 * What each night of a calendar window holds, read from the calendar call's answer: the
 * month grids draw it and say it. A night may hold several things at once (a pending request
 * on a confirmed stay's nights, an imported busy time over a block).
 */

/** What a night can hold, in the order the grids and the legend name them. */
export const NIGHT_KINDS = ["collision", "stay", "block", "external", "tentative"] as const;
export type NightKind = (typeof NIGHT_KINDS)[number];

export interface NightFacts {
  /** References of the confirmed stays. */
  stays: string[];
  /** References of the pending requests. */
  tentative: string[];
  blocks: BlockKind[];
  /** How many imported busy times. */
  external: number;
  /** An imported busy time over a stay or block. */
  collision: boolean;
}

/** The kinds present on a night, in NIGHT_KINDS order. */
export function kindsOf(facts: NightFacts | undefined): NightKind[] {
  if (!facts) return [];
  const present: Record<NightKind, boolean> = {
    collision: facts.collision,
    stay: facts.stays.length > 0,
    block: facts.blocks.length > 0,
    external: facts.external > 0,
    tentative: facts.tentative.length > 0,
  };
  return NIGHT_KINDS.filter((kind) => present[kind]);
}

/** Calls `visit` for each night of `nights` within [from, to). */
function eachNight(nights: Nights, from: string, to: string, visit: (date: string) => void) {
  const end = nights.end < to ? nights.end : to;
  for (let date = nights.start > from ? nights.start : from; date < end; date = addDays(date, 1))
    visit(date);
}

/** Every night of the window that holds something, with what it holds. */
export function nightsOf(calendar: EstateCalendarAnswer): Map<string, NightFacts> {
  const nights = new Map<string, NightFacts>();
  const at = (date: string) => {
    let facts = nights.get(date);
    if (!facts) {
      facts = { stays: [], tentative: [], blocks: [], external: 0, collision: false };
      nights.set(date, facts);
    }
    return facts;
  };
  const { from, to } = calendar;
  for (const stay of calendar.stays)
    eachNight(stay, from, to, (date) => at(date).stays.push(stay.reference));
  for (const request of calendar.tentative)
    eachNight(request, from, to, (date) => at(date).tentative.push(request.reference));
  for (const block of calendar.blocks)
    eachNight(block, from, to, (date) => at(date).blocks.push(block.kind));
  for (const busy of calendar.external)
    eachNight(busy, from, to, (date) => (at(date).external += 1));
  // Only the nights both share are the collision's.
  for (const { external, collidesWith } of calendar.collisions) {
    const shared = {
      start: external.start > collidesWith.start ? external.start : collidesWith.start,
      end: external.end < collidesWith.end ? external.end : collidesWith.end,
    };
    eachNight(shared, from, to, (date) => (at(date).collision = true));
  }
  return nights;
}

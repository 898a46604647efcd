import { and, desc, eq, sql } from "drizzle-orm";
import { type Database, withTransaction } from "#db/client.ts";
import { estateRateRevisions, properties } from "#db/schema/index.ts";
import { nowOf } from "../clock.ts";
import type { Deps } from "../deps.ts";
import { notifyCatalogueChanged } from "../catalogue/catalogue-changes.ts";
import { NotFoundError, ValidationError } from "../errors.ts";
import { fieldIssues } from "../requests/fields.ts";
import { type Currency, isCurrency } from "./money.ts";
import { fromNightly } from "./quote.ts";
import { type Rates, ratesSchema } from "./rates.schema.ts";

/**
 * An estate's rates, kept as revisions (db/schema/pricing.ts): reading the latest, saving a
 * new one, listing them and putting an earlier one back. Staff and owners save through the same
 * function; who saved is part of the revision.
 */

export interface RatesActor {
  role: "staff" | "owner" | "seed";
  email: string | null;
}

export interface RatesRevision {
  revision: number;
  rates: Rates;
  actorRole: RatesActor["role"];
  actorEmail: string | null;
  revertOf: number | null;
  createdAt: Date;
}

/**
 * A save's outcome: saved, or refused because someone saved since the revision the caller
 * edited (they reload and decide again).
 */
export type SaveOutcome =
  { outcome: "saved"; revision: RatesRevision } | { outcome: "changed"; currentRevision: number };

const columns = {
  revision: estateRateRevisions.revision,
  rates: estateRateRevisions.rates,
  actorRole: estateRateRevisions.actorRole,
  actorEmail: estateRateRevisions.actorEmail,
  revertOf: estateRateRevisions.revertOf,
  createdAt: estateRateRevisions.createdAt,
};

function toRevision(row: {
  revision: number;
  rates: Record<string, unknown>;
  actorRole: RatesActor["role"];
  actorEmail: string | null;
  revertOf: number | null;
  createdAt: Date;
}): RatesRevision {
  // Stored rates passed the schema when saved; reading them through it again keeps a row an
  // operator edited by hand from reaching the arithmetic unchecked.
  return { ...row, rates: ratesSchema.parse(row.rates) };
}

/** The estate's rates now, or null when it has none yet. */
export async function readRates(
  deps: { db: Database },
  propertyId: number,
): Promise<RatesRevision | null> {
  const [row] = await deps.db
    .select(columns)
    .from(estateRateRevisions)
    .where(eq(estateRateRevisions.propertyId, propertyId))
    .orderBy(desc(estateRateRevisions.revision))
    .limit(1);
  return row ? toRevision(row) : null;
}

/** The estate's latest revisions, newest first. */
export async function listRateRevisions(
  deps: { db: Database },
  propertyId: number,
  limit = 20,
): Promise<RatesRevision[]> {
  const rows = await deps.db
    .select(columns)
    .from(estateRateRevisions)
    .where(eq(estateRateRevisions.propertyId, propertyId))
    .orderBy(desc(estateRateRevisions.revision))
    .limit(limit);
  return rows.map(toRevision);
}

/** Validates a rates body with the schema the forms use; a ValidationError names each field. */
export function parseRates(input: unknown): Rates {
  const parsed = ratesSchema.safeParse(input);
  if (!parsed.success) throw new ValidationError(fieldIssues(parsed.error));
  return parsed.data;
}

/**
 * Saves `input` as the estate's next revision. With `basedOn`, the revision the caller edited,
 * a save made meanwhile by someone else is refused (`changed`) rather than overwritten.
 * The estate's row is locked for the save, so two saves take turns and number their revisions
 * one after the other.
 */
export async function saveRates(
  deps: Deps,
  propertyId: number,
  input: unknown,
  actor: RatesActor,
  options: { basedOn?: number; revertOf?: number } = {},
): Promise<SaveOutcome> {
  const rates = parseRates(input);
  return withTransaction(deps.db, async (tx) => {
    const [estate] = await tx
      .select({ id: properties.id })
      .from(properties)
      .where(eq(properties.id, propertyId))
      .for("update");
    if (!estate) throw new NotFoundError("errors.propertyNotFound");
    const [latest] = await tx
      .select({ revision: sql<number>`coalesce(max(${estateRateRevisions.revision}), 0)::int` })
      .from(estateRateRevisions)
      .where(eq(estateRateRevisions.propertyId, propertyId));
    const current = latest?.revision ?? 0;
    if (options.basedOn !== undefined && options.basedOn !== current)
      return { outcome: "changed", currentRevision: current } as const;
    const [row] = await tx
      .insert(estateRateRevisions)
      .values({
        propertyId,
        revision: current + 1,
        rates: rates as unknown as Record<string, unknown>,
        actorRole: actor.role,
        actorEmail: actor.email,
        revertOf: options.revertOf ?? null,
        createdAt: nowOf(deps),
      })
      .returning(columns);
    // Cached quotes and pages of the estate drop on every instance once this commits.
    await notifyCatalogueChanged({ db: tx }, { propertyIds: [propertyId] });
    return { outcome: "saved", revision: toRevision(row!) } as const;
  });
}

/**
 * Puts revision `revision` back: a new revision with its rates, marked as a revert of it; null
 * when the estate has no such revision.
 */
export async function revertRates(
  deps: Deps,
  propertyId: number,
  revision: number,
  actor: RatesActor,
): Promise<RatesRevision | null> {
  const [row] = await deps.db
    .select({ rates: estateRateRevisions.rates })
    .from(estateRateRevisions)
    .where(
      and(
        eq(estateRateRevisions.propertyId, propertyId),
        eq(estateRateRevisions.revision, revision),
      ),
    );
  if (!row) return null;
  const saved = await saveRates(deps, propertyId, row.rates, actor, { revertOf: revision });
  return saved.outcome === "saved" ? saved.revision : null;
}

/** The seed's pricing of an estate: its starting price, and the top of its range if known. */
export interface SeedPricing {
  startingPrice: { amount: number; currency: string } | null;
  priceRange: { min: number; max: number; currency: string } | null;
  guestCapacity: number;
  region: string;
}

/** Countries whose guests see prices with the tax in them, and the accommodation rate. */
const TAX_BY_REGION: Record<string, { taxPercent: number; taxIncluded: boolean }> = {
  uk: { taxPercent: 20, taxIncluded: true },
  france: { taxPercent: 10, taxIncluded: true },
  italy: { taxPercent: 10, taxIncluded: true },
  spain: { taxPercent: 10, taxIncluded: true },
  portugal: { taxPercent: 6, taxIncluded: true },
  germany: { taxPercent: 7, taxIncluded: true },
  austria: { taxPercent: 10, taxIncluded: true },
  switzerland: { taxPercent: 3.8, taxIncluded: true },
};

/**
 * Plausible rates for a demo estate from its seed pricing: the starting price a night, a
 * summer season (July and August, a week at least) at the middle of its range and the festive
 * fortnight at the top of it, for this year and the next; extra guests and cleaning in
 * proportion; the tax of its country. Null when the seed has no price.
 */
export function demoRates(seed: SeedPricing, today: string): Rates | null {
  const price = seed.startingPrice;
  if (!price || !isCurrency(price.currency) || price.amount <= 0) return null;
  const nightly = Math.round(price.amount * 100);
  const top =
    seed.priceRange && seed.priceRange.currency === price.currency
      ? Math.max(nightly, Math.round(seed.priceRange.max * 100))
      : Math.round(nightly * 1.6);
  const summer = Math.round((nightly + top) / 2);
  const year = Number(today.slice(0, 4));
  const seasons = [year, year + 1].flatMap((y) => [
    { start: `${y}-07-01`, end: `${y}-09-01`, nightly: summer, minNights: 7 },
    { start: `${y}-12-20`, end: `${y + 1}-01-03`, nightly: top, minNights: 5 },
  ]);
  const tax = TAX_BY_REGION[seed.region] ?? { taxPercent: 0, taxIncluded: true };
  return ratesSchema.parse({
    currency: price.currency,
    nightly,
    minNights: 2,
    includedGuests: Math.max(1, Math.min(seed.guestCapacity, Math.ceil(seed.guestCapacity * 0.75))),
    extraGuestNightly: roundTo(nightly * 0.04, 500),
    cleaningFee: roundTo(nightly * 0.25, 1_000),
    ...tax,
    depositPercent: 30,
    balanceDueDays: 30,
    cancellationPolicy: nightly >= 300_000 ? "strict" : "moderate",
    seasons,
  });
}

/** `amount` rounded to the nearest `step` minor units (a demo's round figures). */
const roundTo = (amount: number, step: number) => Math.max(0, Math.round(amount / step) * step);

/** The lowest nightly price an estate asks and its currency ("from £2,100 a night"), or null. */
export async function readFromPrice(
  deps: { db: Database },
  propertyId: number,
): Promise<{ currency: Currency; nightly: number } | null> {
  const current = await readRates(deps, propertyId);
  if (!current) return null;
  return { currency: current.rates.currency, nightly: fromNightly(current.rates) };
}

/** An estate's rates as a caller reads them: in force, and the latest revisions. */
export interface EstateRatesView {
  propertyId: number;
  revision: number | null;
  rates: Rates | null;
  revisions: {
    revision: number;
    actorRole: RatesActor["role"];
    actorEmail: string | null;
    revertOf: number | null;
    createdAt: string;
  }[];
}

/**
 * The estate's rates and latest revisions as `viewer` may see them: staff see who saved each
 * revision; an owner sees their own email and no staff member's.
 */
export async function estateRatesView(
  deps: { db: Database },
  propertyId: number,
  viewer: { role: "staff" | "owner"; email: string | null },
): Promise<EstateRatesView> {
  const [current, revisions] = await Promise.all([
    readRates(deps, propertyId),
    listRateRevisions(deps, propertyId),
  ]);
  const authorOf = (revision: RatesRevision) =>
    viewer.role === "staff" || revision.actorEmail === viewer.email ? revision.actorEmail : null;
  return {
    propertyId,
    revision: current?.revision ?? null,
    rates: current?.rates ?? null,
    revisions: revisions.map((revision) => ({
      revision: revision.revision,
      actorRole: revision.actorRole,
      actorEmail: authorOf(revision),
      revertOf: revision.revertOf,
      createdAt: revision.createdAt.toISOString(),
    })),
  };
}

import { eq } from "drizzle-orm";
import { properties } from "#db/schema/index.ts";
import type { Language } from "#i18n/config.ts";
import type { Deps } from "../deps.ts";
import { getOwnerPropertyDetails } from "../owners/estates.ts";
import type {
  EstateActor,
  OwnerPropertyDetails,
  StaleTranslation,
} from "../owners/owner-property.ts";
import {
  type EstateRevision,
  listEstateRevisions,
  listStaleTranslations,
} from "../owners/revisions.ts";

type Db = Pick<Deps, "db">;

/** What staff see of one estate: its owner record, its history of changes, its stale text. */
export interface StaffEstateRecord {
  estate: OwnerPropertyDetails;
  /** Changes by owners and staff, newest first. */
  revisions: EstateRevision[];
  /** Translations flagged as out of date, by field then language. */
  stale: StaleTranslation[];
  /** Hours staff have to answer a request for it; null: REQUEST_RESPONSE_HOURS. */
  responseHours: number | null;
  /** The network's share on its owner's statements; null: OWNER_COMMISSION_PERCENT. */
  commissionPercent: number | null;
}

/**
 * One estate for the staff area's support page, in `language` (English text where that
 * language has none).
 * @throws NotFoundError when the estate does not exist.
 */
export async function getEstateForStaff(
  deps: Db,
  actor: EstateActor & { role: "staff" },
  input: { propertyId: number; language: Language },
): Promise<StaffEstateRecord> {
  // The details first: they throw NotFoundError for an estate that does not exist.
  const estate = await getOwnerPropertyDetails(deps, actor, input);
  const [revisions, stale, [row]] = await Promise.all([
    listEstateRevisions(deps, { propertyId: input.propertyId }),
    listStaleTranslations(deps, { propertyId: input.propertyId }),
    deps.db
      .select({
        responseHours: properties.responseHours,
        commissionPercent: properties.commissionPercent,
      })
      .from(properties)
      .where(eq(properties.id, input.propertyId)),
  ]);
  return {
    estate,
    revisions,
    stale,
    responseHours: row?.responseHours ?? null,
    commissionPercent: row?.commissionPercent ?? null,
  };
}

/**
 * Sets an estate's own response hours; null returns to the site's default. Applies
 * to requests that arrive from then on (a request's due time is set at intake). Returns false
 * when the estate does not exist.
 */
export async function setEstateResponseHours(
  deps: Db,
  input: { propertyId: number; hours: number | null },
): Promise<boolean> {
  const updated = await deps.db
    .update(properties)
    .set({ responseHours: input.hours })
    .where(eq(properties.id, input.propertyId))
    .returning({ id: properties.id });
  return updated.length > 0;
}

/**
 * Sets the network's commission on an estate's stays; null returns to the site's default.
 * Returns false when the estate does not exist.
 */
export async function setEstateCommission(
  deps: Db,
  input: { propertyId: number; percent: number | null },
): Promise<boolean> {
  const updated = await deps.db
    .update(properties)
    .set({ commissionPercent: input.percent })
    .where(eq(properties.id, input.propertyId))
    .returning({ id: properties.id });
  return updated.length > 0;
}

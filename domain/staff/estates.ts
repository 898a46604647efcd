import type { Language } from "../../i18n/config.ts";
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
  const [revisions, stale] = await Promise.all([
    listEstateRevisions(deps, { propertyId: input.propertyId }),
    listStaleTranslations(deps, { propertyId: input.propertyId }),
  ]);
  return { estate, revisions, stale };
}

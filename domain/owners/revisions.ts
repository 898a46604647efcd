import { and, asc, count, desc, eq, gt, ilike, inArray, isNull, max, or, sql } from "drizzle-orm";
import { withTransaction } from "#db/client.ts";
import {
  properties,
  propertyClaims,
  propertyRevisions,
  propertyStaleTranslations,
  propertyTranslations,
} from "#db/schema/index.ts";
import { isLanguage, type Language } from "#i18n/config.ts";
import type { Deps } from "../deps.ts";
import { normaliseEmail, storedValues } from "./estates.ts";
import { recordChange, selectedImageKeys, writeFieldValue, writeImageSelection } from "./edits.ts";
import {
  formatFieldValue,
  isEditableField,
  isSameValue,
  type StoredValue,
} from "./owner-fields.ts";
import type { EstateActor } from "./owner-property.ts";
import type { z } from "zod";
import type { EstateRevisionSchema, StaffEstateRowSchema } from "../staff/estates.contract.ts";

type Db = Pick<Deps, "db">;

/** One change to an estate by an owner or staff, both values also as the editor shows them. */
export type EstateRevision = z.infer<typeof EstateRevisionSchema>;

const REVERTABLE = (field: string) =>
  isEditableField(field) || field === "images" || field === "owner_email";

/** Fields an estate cannot be without: a change that gave one its first value cannot be undone. */
const REQUIRED = new Set(["name", "location", "description", "facilities", "activities"]);
const canRevert = (field: string, oldValue: unknown) =>
  REVERTABLE(field) && !(REQUIRED.has(field) && (oldValue === null || oldValue === undefined));

function asText(field: string, value: unknown): string {
  if (value === null || value === undefined) return "";
  if (isEditableField(field)) return formatFieldValue(field, value);
  if (Array.isArray(value)) return value.join("\n");
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

/** An estate's changes by people, newest first. */
export async function listEstateRevisions(
  deps: Db,
  input: { propertyId: number; limit?: number },
): Promise<EstateRevision[]> {
  const rows = await deps.db
    .select()
    .from(propertyRevisions)
    .where(eq(propertyRevisions.propertyId, input.propertyId))
    .orderBy(desc(propertyRevisions.createdAt), desc(propertyRevisions.id))
    .limit(input.limit ?? 200);
  return rows.map((row) => ({
    id: row.id,
    field: row.field,
    lang: row.lang,
    oldValue: row.oldValue,
    newValue: row.newValue,
    oldText: asText(row.field, row.oldValue),
    newText: asText(row.field, row.newValue),
    actorRole: row.actorRole,
    actor: row.actor,
    createdAt: row.createdAt.toISOString(),
    revertedAt: row.revertedAt?.toISOString() ?? null,
    revertedBy: row.revertedBy,
    revertOf: row.revertOf,
    revertable: row.revertedAt === null && canRevert(row.field, row.oldValue),
  }));
}

export type RevertResult =
  | { outcome: "reverted"; revisionId: number }
  | { outcome: "not_found" }
  | { outcome: "not_revertable" }
  | { outcome: "already_reverted" }
  /** The field has changed again since: reverting would silently undo the later change. */
  | { outcome: "conflict"; current: string };

/**
 * Puts a field back to the value it had before `revisionId`, as a new revision by `actor`
 * (staff). Refused when the field has changed since, so no later change is lost unseen.
 */
export async function revertEstateRevision(
  deps: Db,
  actor: EstateActor & { role: "staff" },
  input: { propertyId: number; revisionId: number },
): Promise<RevertResult> {
  return withTransaction(deps.db, async (tx) => {
    const [revision] = await tx
      .select()
      .from(propertyRevisions)
      .where(
        and(
          eq(propertyRevisions.id, input.revisionId),
          eq(propertyRevisions.propertyId, input.propertyId),
        ),
      )
      .for("update");
    if (!revision) return { outcome: "not_found" };
    if (!canRevert(revision.field, revision.oldValue)) return { outcome: "not_revertable" };
    if (revision.revertedAt) return { outcome: "already_reverted" };
    const [row] = await tx
      .select()
      .from(properties)
      .where(eq(properties.id, revision.propertyId))
      .for("update");
    if (!row) return { outcome: "not_found" };

    let current: unknown;
    if (revision.field === "images") current = await selectedImageKeys(tx, row.id);
    else if (revision.field === "owner_email") current = normaliseEmail(row.ownerEmail);
    else {
      const lang = isLanguage(revision.lang) ? revision.lang : "en";
      const [text] = await tx
        .select()
        .from(propertyTranslations)
        .where(
          and(eq(propertyTranslations.propertyId, row.id), eq(propertyTranslations.lang, lang)),
        );
      if (!text) return { outcome: "not_found" };
      current = storedValues(row, text)[revision.field as keyof ReturnType<typeof storedValues>];
    }
    if (!isSameValue(current, revision.newValue))
      return { outcome: "conflict", current: asText(revision.field, current) };

    const restored = revision.oldValue;
    if (revision.field === "images") {
      await writeImageSelection(tx, row.id, (restored as string[] | null) ?? []);
    } else if (revision.field === "owner_email") {
      await tx
        .update(properties)
        .set({ ownerEmail: String(restored ?? row.ownerEmail), updatedAt: sql`now()` })
        .where(eq(properties.id, row.id));
    } else if (isEditableField(revision.field)) {
      const lang: Language = isLanguage(revision.lang) ? revision.lang : "en";
      await writeFieldValue(tx, row.id, revision.field, lang, restored as StoredValue);
      // The other languages were flagged because of the change now undone.
      await tx
        .delete(propertyStaleTranslations)
        .where(
          and(
            eq(propertyStaleTranslations.propertyId, row.id),
            eq(propertyStaleTranslations.field, revision.field),
            eq(propertyStaleTranslations.sourceLang, lang),
          ),
        );
    }
    const id = await recordChange(tx, actor, {
      propertyId: row.id,
      field: revision.field as "images",
      lang: revision.lang,
      oldValue: revision.newValue,
      newValue: restored,
      revertOf: revision.id,
    });
    await tx
      .update(propertyRevisions)
      .set({ revertedAt: sql`now()`, revertedBy: actor.email })
      .where(eq(propertyRevisions.id, revision.id));
    return { outcome: "reverted", revisionId: id };
  });
}

/** The translations of an estate flagged as out of date. */
export async function listStaleTranslations(deps: Db, input: { propertyId: number }) {
  const rows = await deps.db
    .select()
    .from(propertyStaleTranslations)
    .where(eq(propertyStaleTranslations.propertyId, input.propertyId))
    .orderBy(asc(propertyStaleTranslations.field), asc(propertyStaleTranslations.lang));
  return rows.map((row) => ({
    field: row.field,
    lang: row.lang,
    sourceLang: row.sourceLang,
    since: row.since.toISOString(),
  }));
}

/** One estate of the staff list: its name, owner email, last claim and counts of changes. */
export type StaffEstateRow = z.infer<typeof StaffEstateRowSchema>;

/**
 * The estates for the staff area, by id, 50 at a time (keyset on the id), optionally matching
 * `q` in the name (any language) or the owner email.
 */
export async function listEstatesForStaff(
  deps: Db,
  input: { language: Language; q?: string; after?: number; limit?: number },
): Promise<{ estates: StaffEstateRow[]; nextAfter: number | null }> {
  const limit = input.limit ?? 50;
  const q = input.q?.trim();
  const pattern = q ? `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
  const rows = await deps.db
    .select({ id: properties.id, ownerEmail: properties.ownerEmail })
    .from(properties)
    .where(
      and(
        input.after !== undefined ? gt(properties.id, input.after) : undefined,
        pattern
          ? or(
              ilike(properties.ownerEmail, pattern),
              sql`exists (select 1 from ${propertyTranslations} t where t.property_id = ${properties.id} and t.name ilike ${pattern})`,
            )
          : undefined,
      ),
    )
    .orderBy(asc(properties.id))
    .limit(limit + 1);
  const ids = rows.slice(0, limit).map((row) => row.id);
  if (ids.length === 0) return { estates: [], nextAfter: null };
  // Each estate's name in the staff member's language, else in English.
  const texts = await deps.db
    .select({
      id: propertyTranslations.propertyId,
      lang: propertyTranslations.lang,
      name: propertyTranslations.name,
      location: propertyTranslations.location,
    })
    .from(propertyTranslations)
    .where(
      and(
        inArray(propertyTranslations.propertyId, ids),
        inArray(propertyTranslations.lang, [input.language, "en"]),
      ),
    );
  const page = rows.slice(0, limit).map((row) => {
    const text =
      texts.find((t) => t.id === row.id && t.lang === input.language) ??
      texts.find((t) => t.id === row.id);
    return { ...row, name: text?.name ?? `#${row.id}`, location: text?.location ?? "" };
  });
  const idList = sql.join(
    ids.map((id) => sql`${id}`),
    sql`, `,
  );
  const [claims, stale, revisions] = await Promise.all([
    deps.db
      .select({
        propertyId: propertyClaims.propertyId,
        email: propertyClaims.email,
        at: max(propertyClaims.claimedAt),
      })
      .from(propertyClaims)
      .where(and(sql`${propertyClaims.propertyId} in (${idList})`, isNull(propertyClaims.endedAt)))
      .groupBy(propertyClaims.propertyId, propertyClaims.email),
    deps.db
      .select({ propertyId: propertyStaleTranslations.propertyId, n: count() })
      .from(propertyStaleTranslations)
      .where(sql`${propertyStaleTranslations.propertyId} in (${idList})`)
      .groupBy(propertyStaleTranslations.propertyId),
    deps.db
      .select({
        propertyId: propertyRevisions.propertyId,
        n: count(),
        last: max(propertyRevisions.createdAt),
      })
      .from(propertyRevisions)
      .where(
        and(
          sql`${propertyRevisions.propertyId} in (${idList})`,
          isNull(propertyRevisions.revertOf),
        ),
      )
      .groupBy(propertyRevisions.propertyId),
  ]);
  return {
    estates: page.map((row) => {
      const claim = claims.find(
        (c) => c.propertyId === row.id && c.email === normaliseEmail(row.ownerEmail),
      );
      const revision = revisions.find((r) => r.propertyId === row.id);
      return {
        ...row,
        claimedAt: claim?.at ? new Date(claim.at).toISOString() : null,
        staleCount: stale.find((s) => s.propertyId === row.id)?.n ?? 0,
        revisionCount: revision?.n ?? 0,
        lastChangeAt: revision?.last ? new Date(revision.last).toISOString() : null,
      };
    }),
    nextAfter: rows.length > limit ? (page.at(-1)?.id ?? null) : null,
  };
}

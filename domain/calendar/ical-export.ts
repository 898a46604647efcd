import { createHmac, timingSafeEqual } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { calendarExports, properties } from "#db/schema/index.ts";
import { NotFoundError } from "../errors.ts";
import { getOrCreateSecret } from "../app-secrets.ts";
import type { Deps } from "../deps.ts";

/**
 * The secret address of an estate's export feed (decision 0015). The token is
 * `<estate id>.<HMAC-SHA256 of "<estate id>:<generation>">` under an application secret: the
 * database keeps only the generation, any instance can check a token, and rotating raises the
 * generation so every older URL stops working.
 */
const SECRET_NAME = "calendar_export";

/** Where the export feeds are served; the token follows. */
export const EXPORT_PATH = "/api/ical";

/**
 * The estate's export generation, made on first use. Only for an estate that exists: the row is
 * inserted from `properties`, so an unknown id is a NotFoundError here, whatever else the
 * caller is reading at the same time (not a foreign-key failure, which would be a 500).
 */
async function generationOf(deps: Pick<Deps, "db">, propertyId: number): Promise<number> {
  await deps.db.execute(
    sql`insert into ${calendarExports} (property_id)
      select ${properties.id} from ${properties} where ${properties.id} = ${propertyId}
      on conflict do nothing`,
  );
  const [row] = await deps.db
    .select({ generation: calendarExports.generation })
    .from(calendarExports)
    .where(eq(calendarExports.propertyId, propertyId));
  if (!row) throw new NotFoundError("errors.propertyNotFound");
  return row.generation;
}

function sign(secret: string, propertyId: number, generation: number): string {
  return createHmac("sha256", secret).update(`${propertyId}:${generation}`).digest("base64url");
}

/** The estate's export feed token now. */
export async function calendarExportToken(
  deps: Pick<Deps, "db">,
  propertyId: number,
): Promise<string> {
  const [secret, generation] = await Promise.all([
    getOrCreateSecret(deps, SECRET_NAME),
    generationOf(deps, propertyId),
  ]);
  return `${propertyId}.${sign(secret, propertyId, generation)}`;
}

/** The estate's export feed URL now, for staff and the owner (never shown to guests). */
export async function calendarExportUrl(
  deps: Pick<Deps, "db">,
  publicUrl: string,
  propertyId: number,
): Promise<string> {
  return `${publicUrl}${EXPORT_PATH}/${await calendarExportToken(deps, propertyId)}.ics`;
}

/** Makes a new URL for the estate's export feed; the old one answers 404 from now on. */
export async function rotateCalendarExport(
  deps: Pick<Deps, "db">,
  propertyId: number,
): Promise<void> {
  const rotated = await deps.db.execute(
    sql`insert into ${calendarExports} (property_id, generation)
      select ${properties.id}, 2 from ${properties} where ${properties.id} = ${propertyId}
      on conflict (property_id) do update
        set generation = ${calendarExports.generation} + 1, rotated_at = now()
      returning property_id`,
  );
  if ((rotated as unknown as { rows: unknown[] }).rows.length === 0)
    throw new NotFoundError("errors.propertyNotFound");
}

/** The estate a token opens, or null when it is malformed, forged or rotated away. */
export async function estateOfExportToken(
  deps: Pick<Deps, "db">,
  token: string,
): Promise<number | null> {
  const match = /^([1-9]\d{0,9})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return null;
  const propertyId = Number(match[1]);
  if (propertyId > 2_147_483_647) return null;
  const [row] = await deps.db
    .select({ generation: calendarExports.generation })
    .from(calendarExports)
    .where(eq(calendarExports.propertyId, propertyId));
  if (!row) return null;
  const expected = Buffer.from(
    sign(await getOrCreateSecret(deps, SECRET_NAME), propertyId, row.generation),
  );
  const given = Buffer.from(match[2]!);
  return given.length === expected.length && timingSafeEqual(given, expected) ? propertyId : null;
}

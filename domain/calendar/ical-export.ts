import { createHmac, timingSafeEqual } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { calendarExports } from "../../db/schema/index.ts";
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

async function generationOf(deps: Pick<Deps, "db">, propertyId: number): Promise<number> {
  await deps.db.insert(calendarExports).values({ propertyId }).onConflictDoNothing();
  const [row] = await deps.db
    .select({ generation: calendarExports.generation })
    .from(calendarExports)
    .where(eq(calendarExports.propertyId, propertyId));
  if (!row) throw new Error(`estate ${propertyId} has no export generation`);
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
  await deps.db
    .insert(calendarExports)
    .values({ propertyId, generation: 2 })
    .onConflictDoUpdate({
      target: calendarExports.propertyId,
      set: { generation: sql`${calendarExports.generation} + 1`, rotatedAt: sql`now()` },
    });
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

import { eq, sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { securityEvents } from "#db/schema/index.ts";
import { describeEachBackend } from "#tests/setup/database.ts";
import { pruneSecurityEvents, recordSecurityEvent } from "./security-log.ts";

/** The database's own message for a refused statement (drizzle wraps it as the cause). */
async function refusal(statement: PromiseLike<unknown>): Promise<string> {
  try {
    await statement;
  } catch (error) {
    const cause = (error as { cause?: { message?: string } }).cause;
    return cause?.message ?? String(error);
  }
  return "not refused";
}

describeEachBackend(
  "the security log",
  (database) => {
    const ADA = {
      kind: "staff",
      staffUserId: crypto.randomUUID(),
      email: "Ada@Castellum.example",
    } as const;

    it("keeps who, when, from where and what, with the email lowercased", async () => {
      const { db } = database().deps;
      await recordSecurityEvent(db, {
        type: "sign_in.failed",
        actor: { kind: "anonymous", email: " Mallory@Example.COM " },
        client: { ip: "203.0.113.9", userAgent: "curl/8" },
        data: { reason: "wrong_password" },
      });
      const [row] = await db
        .select()
        .from(securityEvents)
        .where(eq(securityEvents.actorEmail, "mallory@example.com"));
      expect(row).toMatchObject({
        type: "sign_in.failed",
        actorKind: "anonymous",
        staffUserId: null,
        ip: "203.0.113.9",
        userAgent: "curl/8",
        data: { reason: "wrong_password" },
      });
      expect(Date.now() - row!.at.getTime()).toBeLessThan(60_000);
    });

    it("refuses to change or delete an entry, even by SQL", async () => {
      const { db } = database().deps;
      await recordSecurityEvent(db, { type: "sign_in.succeeded", actor: ADA });
      const where = eq(securityEvents.staffUserId, ADA.staffUserId);
      expect(
        await refusal(db.update(securityEvents).set({ type: "sign_out" }).where(where)),
      ).toMatch(/append-only/);
      expect(await refusal(db.delete(securityEvents).where(where))).toMatch(/append-only/);
      expect(await refusal(db.execute(sql`truncate security_events`))).toMatch(/append-only/);
      const rows = await db.select().from(securityEvents).where(where);
      expect(rows.map((row) => row.type)).toEqual(["sign_in.succeeded"]);
    });

    it("prunes only what is older than the retention, and only through the prune", async () => {
      const { db } = database().deps;
      const old = {
        kind: "staff",
        staffUserId: crypto.randomUUID(),
        email: "old@castellum.example",
      } as const;
      await recordSecurityEvent(db, { type: "sign_out", actor: old });
      await recordSecurityEvent(db, { type: "sign_in.succeeded", actor: old });
      // Age one entry by 400 days (the triggers are bypassed for this set-up only).
      await db.transaction(async (tx) => {
        await tx.execute(sql`set local session_replication_role = replica`);
        await tx.execute(
          sql`update security_events set at = now() - interval '400 days' where staff_user_id = ${old.staffUserId} and type = 'sign_out'`,
        );
      });
      const pruned = await pruneSecurityEvents(db, 365);
      expect(pruned).toBe(1);
      const rows = await db
        .select({ type: securityEvents.type })
        .from(securityEvents)
        .where(eq(securityEvents.staffUserId, old.staffUserId));
      expect(rows).toEqual([{ type: "sign_in.succeeded" }]);
      // The prune's permission ended with its transaction.
      expect(
        await refusal(
          db.delete(securityEvents).where(eq(securityEvents.staffUserId, old.staffUserId)),
        ),
      ).toMatch(/append-only/);
    });
  },
  { seed: false },
);

import { eq, sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { securityEvents } from "#db/schema/index.ts";
import { describeEachBackend } from "#tests/setup/database.ts";
import { startSecurityLogRetention } from "./retention.ts";
import { recordSecurityEvent } from "./security-log.ts";

describeEachBackend(
  "the security log's retention job",
  (database) => {
    it("prunes what is older than the retention when it runs, and is harmless run twice", async () => {
      const { deps } = database();
      const actor = {
        kind: "staff",
        staffUserId: crypto.randomUUID(),
        email: "retention@castellum.example",
      } as const;
      for (const type of ["sign_out", "sign_in.failed", "sign_in.succeeded"] as const)
        await recordSecurityEvent(deps.db, { type, actor });
      // Age two entries past a 30-day retention (the triggers are bypassed for this set-up only).
      await deps.db.transaction(async (tx) => {
        await tx.execute(sql`set local session_replication_role = replica`);
        await tx.execute(
          sql`update security_events set at = now() - interval '31 days' where staff_user_id = ${actor.staffUserId} and type <> 'sign_in.succeeded'`,
        );
      });
      const remaining = () =>
        deps.db
          .select({ type: securityEvents.type })
          .from(securityEvents)
          .where(eq(securityEvents.staffUserId, actor.staffUserId));
      expect(await remaining()).toHaveLength(3);

      // Two instances start at once: each runs a prune at start. Stopping a job waits for the
      // pass in progress, here that first one, and starts no other.
      const jobs = [
        startSecurityLogRetention(deps, { retentionDays: 30 }),
        startSecurityLogRetention(deps, { retentionDays: 30 }),
      ];
      await Promise.all(jobs.map((job) => job.stop()));
      expect(await remaining()).toEqual([{ type: "sign_in.succeeded" }]);
    });
  },
  { seed: false },
);

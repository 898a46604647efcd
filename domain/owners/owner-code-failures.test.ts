import { eq, sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { ownerCodeFailures, ownerCodes } from "#db/schema/index.ts";
import { describeEachBackend } from "#tests/setup/database.ts";
import { purgeExpiredOwnerCodes, purgeOldOwnerCodeFailures } from "./verification.ts";

describeEachBackend(
  "forgetting old wrong owner codes",
  (database) => {
    it("drops the wrong codes past the 24-hour window and keeps those that still count", async () => {
      const { deps } = database();
      const email = "forgetful.owner@example.com";
      await deps.db
        .insert(ownerCodeFailures)
        .values([
          { email, at: sql`now() - interval '25 hours'` },
          { email, at: sql`now() - interval '23 hours'` },
          { email },
        ]);
      expect(await purgeOldOwnerCodeFailures(deps)).toBe(1);
      const left = await deps.db
        .select({ age: sql<number>`extract(epoch from now() - ${ownerCodeFailures.at})::int` })
        .from(ownerCodeFailures)
        .where(eq(ownerCodeFailures.email, email));
      expect(left.map((row) => Math.round(row.age / 3600)).sort()).toEqual([0, 23]);
    });

    it("forgets codes a day after they and their proof expired, with the IP they came from", async () => {
      const { deps } = database();
      const at = (hoursAgo: number) => new Date(Date.now() - hoursAgo * 3_600_000);
      const code = (
        email: string,
        expiredHoursAgo: number,
        proofExpiredHoursAgo: number | null,
      ) => ({
        id: randomUUID(),
        email,
        codeHash: "x",
        ip: "203.0.113.9",
        expiresAt: at(expiredHoursAgo),
        proofExpiresAt: proofExpiredHoursAgo === null ? null : at(proofExpiredHoursAgo),
      });
      await deps.db
        .insert(ownerCodes)
        .values([
          code("long.gone@example.com", 30, null),
          code("proven.gone@example.com", 30, 26),
          code("proof.alive@example.com", 30, 2),
          code("just.expired@example.com", 2, null),
        ]);
      expect(await purgeExpiredOwnerCodes(deps)).toBe(2);
      const left = await deps.db.select({ email: ownerCodes.email }).from(ownerCodes);
      expect(left.map((row) => row.email).sort()).toEqual([
        "just.expired@example.com",
        "proof.alive@example.com",
      ]);
    });
  },
  { seed: false },
);

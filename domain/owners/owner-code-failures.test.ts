import { eq, sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { ownerCodeFailures } from "#db/schema/index.ts";
import { describeEachBackend } from "#tests/setup/database.ts";
import { purgeOldOwnerCodeFailures } from "./verification.ts";

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
  },
  { seed: false },
);

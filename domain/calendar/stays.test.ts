import { describe, expect, it } from "vitest";
import type { CollidingEntry } from "./calendar.schema.ts";
import { isDeadlock } from "./collisions.ts";
import { NightsTaken, retryOnTakenNights } from "./stays.ts";

/** What the driver throws for a deadlock, wrapped as Drizzle wraps a failed query. */
const deadlock = () =>
  Object.assign(new Error("Failed query: insert into calendar_entries …"), {
    cause: Object.assign(new Error("deadlock detected"), { code: "40P01" }),
  });
const TAKEN = new NightsTaken(1, { start: "2030-01-03", end: "2030-01-06" });
const WINNER: CollidingEntry = {
  source: "stay",
  reference: "PB-AAAA-BBBB",
  kind: null,
  start: "2030-01-01",
  end: "2030-01-04",
};

/** A unit of work that throws the given errors in turn, then answers "changed". */
function failing(...errors: Error[]) {
  let calls = 0;
  return {
    get calls() {
      return calls;
    },
    work: async () => {
      const error = errors[calls++];
      if (error) throw error;
      return { outcome: "changed" as const };
    },
  };
}

describe("confirming a stay while another takes the same nights", () => {
  it("runs again when PostgreSQL ends the race as a deadlock, and answers the collision then", async () => {
    const attempt = failing(deadlock(), TAKEN);
    const result = await retryOnTakenNights(attempt.work, async () => [WINNER]);
    expect(result).toEqual({ outcome: "collision", collidesWith: [WINNER] });
    expect(attempt.calls).toBe(2);
  });

  it("runs again after a deadlock that the other side lost", async () => {
    const attempt = failing(deadlock());
    expect(await retryOnTakenNights(attempt.work, async () => [])).toEqual({
      outcome: "changed",
    });
  });

  it("gives up after three attempts, with the database's error", async () => {
    const attempt = failing(deadlock(), deadlock(), deadlock());
    await expect(retryOnTakenNights(attempt.work, async () => [])).rejects.toSatisfy(isDeadlock);
    expect(attempt.calls).toBe(3);
  });

  it("lets any other error through at once", async () => {
    const attempt = failing(Object.assign(new Error("boom"), { code: "23505" }));
    await expect(retryOnTakenNights(attempt.work, async () => [])).rejects.toThrow("boom");
    expect(attempt.calls).toBe(1);
  });
});

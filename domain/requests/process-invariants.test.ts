import { randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import fc from "fast-check";
import { expect, it } from "vitest";
import {
  calendarEntries,
  domainEvents,
  guestRequests,
  guestRequestStatusHistory,
  mailOutbox,
} from "#db/schema/index.ts";
import { DEMO_CATALOGUE, describeEachBackend, secondInstance } from "#tests/setup/database.ts";
import { fromDateRange } from "../calendar/nights.ts";
import { manualClock } from "../clock.ts";
import type { Deps } from "../deps.ts";
import { hashStatusToken, makeReference, makeStatusToken } from "./intake/reference.ts";
import { type Actor, transitionRequest } from "./apply-transition.ts";
import { runLifecycle } from "./lifecycle.ts";
import type { RequestKind, RequestStatus } from "./options.ts";
import { processOf } from "./process.ts";

/**
 * Random sequences of transitions, taken two at a time from two instances (two connection pools
 * to one PostgreSQL database; on PGlite both are the one embedded database), must keep the
 * process's invariants whatever the interleaving:
 * - a confirmed request with an estate and nights holds exactly that stay, any other none;
 * - every change of status in the history has exactly one `request.status_changed` event;
 * - each due time expires a request at most once.
 */

const T0 = new Date("2027-03-01T08:00:00Z");
const HOUR = 3_600_000;
const ESTATE = DEMO_CATALOGUE[0]?.id ?? 1;
const STAFF: Actor = { kind: "staff", id: randomUUID(), email: "anna@castellum.test" };
/** Overlapping nights, so that two confirmations compete for them. */
const NIGHTS = [
  { start: "2029-05-01", end: "2029-05-05" },
  { start: "2029-05-03", end: "2029-05-07" },
] as const;
const KINDS: RequestKind[] = [
  "property_booking",
  "property_booking",
  "booking_request",
  "membership",
];
const LIFECYCLE = {
  responseHours: 1,
  staffEmail: "staff@castellum.test",
  staffLanguage: "en" as const,
  publicUrl: "https://castellum.test",
};

type Step =
  /** `to` picks one of the request kind's own states, in workflow order. */
  | { op: "status"; request: number; to: number }
  | { op: "due"; request: number; hours: number }
  | { op: "stay"; request: number; nights: 0 | 1 }
  | { op: "lifecycle" }
  | { op: "tick"; hours: number };

const stepArbitrary: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      op: fc.constant("status" as const),
      request: fc.nat(3),
      to: fc.nat(4),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant("due" as const),
      request: fc.nat(3),
      hours: fc.integer({ min: 1, max: 3 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant("stay" as const),
      request: fc.nat(2),
      nights: fc.constantFrom(0 as const, 1 as const),
    }),
  },
  { weight: 2, arbitrary: fc.constant({ op: "lifecycle" as const }) },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant("tick" as const),
      hours: fc.integer({ min: 1, max: 2 }),
    }),
  },
);

describeEachBackend("the request process under concurrent transitions", (database, backend) => {
  it("keeps its invariants for random sequences from two instances", async () => {
    const first = database().deps;
    const { deps: second, close: closeSecond } = await secondInstance(database(), backend);
    try {
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.tuple(stepArbitrary, stepArbitrary), { minLength: 1, maxLength: 12 }),
          async (pairs) => {
            const clock = manualClock(T0);
            const instances = [
              { ...first, clock },
              { ...second, clock },
            ];
            const ids = await freshRequests(first);
            for (const pair of pairs)
              await Promise.all(
                pair.map((step, index) => run(instances[index] as Deps, ids, step, clock)),
              );
            await checkInvariants(first, ids);
          },
        ),
        { numRuns: 25 },
      );
    } finally {
      await closeSecond();
    }
  });
});

async function freshRequests(deps: Deps): Promise<string[]> {
  await deps.db.delete(mailOutbox);
  await deps.db.delete(domainEvents);
  await deps.db.delete(calendarEntries).where(eq(calendarEntries.source, "stay"));
  await deps.db.delete(guestRequests);
  const ids: string[] = [];
  for (const [index, kind] of KINDS.entries()) {
    const id = randomUUID();
    const nights = kind === "property_booking" ? NIGHTS[index % 2] : undefined;
    await deps.db.insert(guestRequests).values({
      id,
      kind,
      reference: makeReference(kind),
      status: "New",
      language: "en",
      email: `guest-${index}@example.com`,
      firstName: "Camille",
      lastName: "Durand",
      propertyId: nights ? ESTATE : null,
      stayStart: nights?.start ?? null,
      stayEnd: nights?.end ?? null,
      details: {},
      statusTokenHash: hashStatusToken(makeStatusToken()),
      createdAt: T0,
      updatedAt: T0,
      dueAt: new Date(T0.getTime() + HOUR),
      remindAt: new Date(T0.getTime() + 0.75 * HOUR),
    });
    await deps.db.insert(guestRequestStatusHistory).values({
      requestId: id,
      toStatus: "New",
      changedBy: "guest",
      changedAt: T0,
    });
    ids.push(id);
  }
  return ids;
}

async function run(
  deps: Deps,
  ids: string[],
  step: Step,
  clock: ReturnType<typeof manualClock>,
): Promise<void> {
  if (step.op === "tick") return clock.advance(step.hours * HOUR);
  if (step.op === "lifecycle") {
    await runLifecycle(deps, LIFECYCLE);
    return;
  }
  const index = step.request;
  const id = ids[index] as string;
  const kind = KINDS[index] as RequestKind;
  const transition =
    step.op === "status"
      ? {
          type: "set_status" as const,
          to: processOf(kind).states[step.to] as RequestStatus,
          reason: "Fully booked",
          notifyGuest: true,
        }
      : step.op === "due"
        ? { type: "set_due" as const, dueAt: new Date(clock().getTime() + step.hours * HOUR) }
        : {
            type: "set_stay" as const,
            propertyId: ESTATE,
            nights: NIGHTS[step.nights],
          };
  const result = await transitionRequest(deps, { id, kind, transition, actor: STAFF });
  // Whatever the interleaving, a transition ends in one of the process's answers, never an error.
  expect(["applied", "unchanged", "refused", "collision", "imported_busy"]).toContain(
    result.outcome,
  );
}

async function checkInvariants(deps: Deps, ids: string[]): Promise<void> {
  for (const id of ids) {
    const [request] = await deps.db.select().from(guestRequests).where(eq(guestRequests.id, id));
    if (!request) throw new Error("request lost");
    const stays = await deps.db
      .select({ propertyId: calendarEntries.propertyId, nights: calendarEntries.nights })
      .from(calendarEntries)
      .where(eq(calendarEntries.requestId, id));
    const holds =
      request.status === "Confirmed" && request.propertyId !== null && request.stayStart !== null;
    expect(
      stays.map((stay) => ({ propertyId: stay.propertyId, ...fromDateRange(stay.nights) })),
      `${request.kind} ${request.status}`,
    ).toEqual(
      holds
        ? [{ propertyId: request.propertyId, start: request.stayStart, end: request.stayEnd }]
        : [],
    );
    const changes = await deps.db
      .select({ id: guestRequestStatusHistory.id })
      .from(guestRequestStatusHistory)
      .where(
        and(
          eq(guestRequestStatusHistory.requestId, id),
          eq(guestRequestStatusHistory.event, "status"),
          sql`${guestRequestStatusHistory.fromStatus} is not null`,
        ),
      );
    const events = await deps.db
      .select({ type: domainEvents.type, data: domainEvents.data })
      .from(domainEvents)
      .where(sql`${domainEvents.data}->>'id' = ${id}`);
    expect(events.filter((event) => event.type === "request.status_changed")).toHaveLength(
      changes.length,
    );
    const expiredDue = events
      .filter((event) => event.type === "request.expired")
      .map((event) => String(event.data.dueAt));
    expect(new Set(expiredDue).size).toBe(expiredDue.length);
  }
}

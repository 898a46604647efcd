import { randomUUID } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { count, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { Database } from "#db/client.ts";
import {
  calendarEntries,
  domainEvents,
  guestRequests,
  guestRequestStatusHistory,
  mailOutbox,
} from "#db/schema/index.ts";
import { withTransaction } from "#db/client.ts";
import { DEMO_CATALOGUE, describeEachBackend, ROOT_DIR } from "#tests/setup/database.ts";
import { holdStay } from "../calendar/stays.ts";
import { type EventMailConfig, mailFromEvents } from "../mail/mail-from-events.ts";
import { hashStatusToken, makeReference, makeStatusToken } from "./intake/reference.ts";
import {
  type Actor,
  applyTransition,
  type ApplyResult,
  type GuestRequestRow,
  type Transition,
} from "./apply-transition.ts";
import {
  REQUEST_KINDS,
  REQUEST_STATUSES,
  type RequestKind,
  type RequestStatus,
} from "./options.ts";
import {
  ACTOR_KINDS,
  type ActorKind,
  decide,
  processDiagram,
  PROCESSES,
  processOf,
  TRANSITION_NAMES,
  type TransitionName,
} from "./process.ts";

const OPEN: Record<RequestKind, RequestStatus[]> = {
  booking_request: ["New", "Contacted", "In progress"],
  property_booking: ["New", "Contacted", "In progress"],
  membership: ["New", "Contacted", "In review"],
};
const BOOKING: RequestStatus[] = [
  "New",
  "Contacted",
  "In progress",
  "Offered",
  "Awaiting deposit",
  "Confirmed",
  "Rejected",
  "Cancelled",
];
const STATES: Record<RequestKind, RequestStatus[]> = {
  booking_request: BOOKING,
  property_booking: BOOKING,
  membership: ["New", "Contacted", "In review", "Accepted", "Declined"],
};
/** States only the offer's own transitions enter. */
const MANAGED: RequestStatus[] = ["Offered", "Awaiting deposit", "Cancelled"];

/** The offer's transitions: who, from where, to where (bookings only). */
const OFFER_RULES = {
  send_offer: {
    actors: ["staff"],
    from: ["New", "Contacted", "In progress", "Offered"],
    to: "Offered",
  },
  withdraw_offer: { actors: ["staff"], from: ["Offered"], to: "In progress" },
  accept_offer: { actors: ["guest"], from: ["Offered"], to: "Awaiting deposit" },
  decline_offer: { actors: ["guest"], from: ["Offered"], to: "In progress" },
  expire_offer: { actors: ["system"], from: ["Offered"], to: "In progress" },
  confirm_paid: { actors: ["system"], from: ["Awaiting deposit"], to: "Confirmed" },
  expire_deposit: { actors: ["system"], from: ["Awaiting deposit"], to: "Cancelled" },
  cancel: { actors: ["staff", "guest"], from: ["Awaiting deposit", "Confirmed"], to: "Cancelled" },
} satisfies Partial<
  Record<TransitionName, { actors: ActorKind[]; from: RequestStatus[]; to: RequestStatus }>
>;
const isOfferTransition = (name: TransitionName): name is keyof typeof OFFER_RULES =>
  name in OFFER_RULES;

/**
 * The process as the product describes it, written out independently of process.ts: who may
 * take which transition from where. The table test below compares the two on every
 * combination of kind, state, transition, actor and chosen state.
 */
function expected(
  kind: RequestKind,
  from: RequestStatus | null,
  transition: TransitionName,
  actor: ActorKind,
  chosen: RequestStatus | undefined,
): string {
  const own = from === null || STATES[kind].includes(from);
  const open = from !== null && OPEN[kind].includes(from);
  switch (transition) {
    case "submit":
      if (actor !== "guest") return "actor";
      return from === null ? "to New" : "from_status";
    case "set_status":
      if (actor !== "staff") return "actor";
      if (from === null || !own) return "from_status";
      if (chosen === undefined || !STATES[kind].includes(chosen)) return "invalid_status";
      if (MANAGED.includes(chosen) && chosen !== from) return "invalid_status";
      return chosen === from ? `same ${chosen}` : `to ${chosen}`;
    case "expire":
      if (actor !== "system") return "actor";
      if (!open) return "from_status";
      return `to ${kind === "membership" ? "Declined" : "Rejected"}`;
    case "remind":
    case "set_due":
      if (actor !== (transition === "remind" ? "system" : "staff")) return "actor";
      return open ? `same ${from}` : "from_status";
    case "set_stay":
      if (actor !== "staff") return "actor";
      if (kind === "membership") return "no_stay";
      return from !== null && own ? `same ${from}` : "from_status";
    default: {
      const rule = OFFER_RULES[transition];
      if (!(rule.actors as ActorKind[]).includes(actor)) return "actor";
      if (kind === "membership") return "no_stay";
      if (from === null || !(rule.from as RequestStatus[]).includes(from)) return "from_status";
      return `to ${rule.to}`;
    }
  }
}

const describeDecision = (decision: ReturnType<typeof decide>) =>
  decision.allowed ? `${decision.changes ? "to" : "same"} ${decision.to}` : decision.refusal;

describe("the request process", () => {
  it("allows and refuses every (kind, state, transition, actor) as the product says", () => {
    let cases = 0;
    for (const kind of REQUEST_KINDS)
      for (const from of [null, ...REQUEST_STATUSES])
        for (const transition of TRANSITION_NAMES)
          for (const actor of ACTOR_KINDS)
            for (const chosen of transition === "set_status" ? REQUEST_STATUSES : [undefined]) {
              cases += 1;
              const decision = decide(kind, from, transition, actor, chosen);
              expect(
                describeDecision(decision),
                `${kind} ${from} ${transition} by ${actor}${chosen ? ` to ${chosen}` : ""}`,
              ).toBe(expected(kind, from, transition, actor, chosen));
            }
    expect(cases).toBe(3 * 12 * (11 * 4 + 13 * 4));
  });

  it("is drawn in docs/architecture.md as the module declares it", () => {
    const architecture = readFileSync(join(ROOT_DIR, "docs/architecture.md"), "utf8");
    for (const kind of ["booking", "membership"] as const)
      expect(architecture).toContain(["```mermaid", processDiagram(kind), "```"].join("\n"));
  });

  it("names as open exactly the states the due-time index covers", () => {
    const schema = readFileSync(join(ROOT_DIR, "db/schema/requests.ts"), "utf8");
    const open = [...new Set([...PROCESSES.booking.open, ...PROCESSES.membership.open])];
    expect(schema).toContain(`IN (${open.map((status) => `'${status}'`).join(", ")})`);
  });

  it("is the only code that writes a request's row", () => {
    const writers = sourceFiles()
      .filter((file) => !file.endsWith(".test.ts"))
      .filter((file) =>
        /\.(insert|update)\(\s*guestRequests\s*\)/.test(readFileSync(join(ROOT_DIR, file), "utf8")),
      );
    expect(writers).toEqual([
      // Erasure blanks the guest's own columns (name, contact, free text), never the status.
      "domain/privacy/erase-guest.ts",
      "domain/requests/apply-transition.ts",
      "domain/requests/transition-writes.ts",
    ]);
    const erasure = readFileSync(join(ROOT_DIR, "domain/privacy/erase-guest.ts"), "utf8");
    expect(erasure).not.toMatch(/\b(status|version|stayStart|stayEnd|propertyId):/);
  });
});

function sourceFiles(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(join(ROOT_DIR, dir), { withFileTypes: true })) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(path);
      else if (/\.tsx?$/.test(entry.name)) out.push(path);
    }
  };
  // Benchmarks and tests load fixture rows in bulk; every other writer goes through the process.
  for (const dir of ["app", "server", "domain", "db", "content", "scripts"]) walk(dir);
  return out.sort();
}

const T0 = new Date("2027-01-10T09:00:00Z");
const HOUR = 3_600_000;
const ESTATE = DEMO_CATALOGUE[0]?.id ?? 1;
const OTHER_ESTATE = DEMO_CATALOGUE[1]?.id ?? 2;
const STAFF_ACTOR: Actor = { kind: "staff", id: randomUUID(), email: "anna@castellum.test" };
const STAFF_MAIL: EventMailConfig = {
  staffEmail: "staff@castellum.test",
  staffLanguage: "en",
  publicUrl: "https://castellum.test",
};

/** What a transition left behind for one request. */
interface Trace {
  status: RequestStatus;
  version: number;
  dueAt: number | null;
  remindedAt: number | null;
  propertyId: number | null;
  history: number;
  events: string[];
  /** The mail its events call for, once the mail job has taken them. */
  mails: number;
  stays: number;
}

async function traceOf(db: Database, id: string): Promise<Trace> {
  await mailFromEvents({ db, clock: () => T0 }, STAFF_MAIL);
  const [row] = await db.select().from(guestRequests).where(eq(guestRequests.id, id));
  if (!row) throw new Error("no such request");
  const [history] = await db
    .select({ n: count() })
    .from(guestRequestStatusHistory)
    .where(eq(guestRequestStatusHistory.requestId, id));
  const events = await db
    .select({ type: domainEvents.type })
    .from(domainEvents)
    .where(sql`${domainEvents.data}->>'id' = ${id}`)
    .orderBy(domainEvents.seq);
  const [mails] = await db
    .select({ n: count() })
    .from(mailOutbox)
    .where(eq(mailOutbox.requestId, id));
  const [stays] = await db
    .select({ n: count() })
    .from(calendarEntries)
    .where(eq(calendarEntries.requestId, id));
  return {
    status: row.status,
    version: row.version,
    dueAt: row.dueAt?.getTime() ?? null,
    remindedAt: row.remindedAt?.getTime() ?? null,
    propertyId: row.propertyId,
    history: history?.n ?? 0,
    events: events.map((event) => event.type),
    mails: mails?.n ?? 0,
    stays: stays?.n ?? 0,
  };
}

describeEachBackend("the request process, applied", (database) => {
  let nightsUsed = 0;
  /** Nights no request has held yet. */
  const freshNights = () => {
    const start = new Date(Date.UTC(2028, 0, 1) + nightsUsed * 4 * 86_400_000);
    nightsUsed += 1;
    return {
      start: start.toISOString().slice(0, 10),
      end: new Date(start.getTime() + 3 * 86_400_000).toISOString().slice(0, 10),
    };
  };
  /** A request of `kind` in state `status`, due an hour after T0, with nights no other has. */
  async function requestIn(kind: RequestKind, status: RequestStatus): Promise<GuestRequestRow> {
    const { db } = database().deps;
    const nights = freshNights();
    const withStay = kind === "property_booking";
    const id = randomUUID();
    const [row] = await db
      .insert(guestRequests)
      .values({
        id,
        kind,
        reference: makeReference(kind),
        status,
        language: "fr",
        email: `guest-${id.slice(0, 8)}@example.com`,
        firstName: "Camille",
        lastName: "Durand",
        propertyId: withStay ? ESTATE : null,
        stayStart: withStay ? nights.start : null,
        stayEnd: withStay ? nights.end : null,
        details: { firstName: "Camille", lastName: "Durand" },
        statusTokenHash: hashStatusToken(makeStatusToken()),
        createdAt: T0,
        updatedAt: T0,
        dueAt: new Date(T0.getTime() + HOUR),
        remindAt: new Date(T0.getTime() + 0.75 * HOUR),
      })
      .returning();
    if (!row) throw new Error("not stored");
    if (withStay && status === "Confirmed")
      await withTransaction(db, (tx) => holdStay(tx, id, { propertyId: ESTATE, nights }));
    await db.delete(domainEvents).where(sql`${domainEvents.data}->>'id' = ${id}`);
    return row;
  }

  const apply = async (row: GuestRequestRow, transition: Transition, actor: Actor, now: Date) =>
    withTransaction(database().deps.db, async (tx): Promise<ApplyResult> => {
      const [locked] = await tx
        .select()
        .from(guestRequests)
        .where(eq(guestRequests.id, row.id))
        .for("update");
      return applyTransition(tx, locked ?? null, transition, actor, now);
    });

  const actorOf = (kind: ActorKind): Actor =>
    kind === "staff" ? STAFF_ACTOR : kind === "owner" ? ({ kind: "owner" } as never) : { kind };

  /** The transition of each name, as its allowed actor would take it at `now`. */
  const transitionOf = (
    name: Exclude<TransitionName, "submit" | keyof typeof OFFER_RULES>,
    to: RequestStatus,
  ): Transition => {
    switch (name) {
      case "set_status":
        return { type: name, to, reason: "Fully booked", shareReason: true, notifyGuest: true };
      case "expire":
        return { type: name };
      case "remind":
        return { type: name };
      case "set_due":
        return { type: name, dueAt: new Date(T0.getTime() + 48 * HOUR) };
      case "set_stay":
        return {
          type: name,
          propertyId: OTHER_ESTATE,
          nights: freshNights(),
        };
    }
  };

  /** When each transition is due: reminders at three quarters of the hour, expiry after it. */
  const timeOf = (name: TransitionName) =>
    new Date(T0.getTime() + (name === "remind" ? 0.8 * HOUR : name === "expire" ? 2 * HOUR : 0));

  it("carries out every allowed transition with its effects, and writes nothing for the rest", async () => {
    const { db } = database().deps;
    for (const kind of REQUEST_KINDS) {
      const process = processOf(kind);
      for (const from of process.states)
        // The offer's transitions need an offer: domain/offers/offers.test.ts carries them out.
        for (const name of TRANSITION_NAMES.filter(
          (name) => name !== "submit" && !isOfferTransition(name),
        ))
          for (const to of name === "set_status" ? process.states : [from]) {
            const label = `${kind} ${from} ${name}${name === "set_status" ? ` ${to}` : ""}`;
            const row = await requestIn(kind, from);
            const before = await traceOf(db, row.id);
            const transition = transitionOf(name, to);
            // Every actor the process refuses first: each is refused and writes nothing...
            const refused = ACTOR_KINDS.filter(
              (actor) => !decide(kind, from, name, actor, to).allowed,
            );
            for (const actor of refused) {
              const decision = decide(kind, from, name, actor, to);
              expect(
                await apply(row, transition, actorOf(actor), timeOf(name)),
                `${label} by ${actor}`,
              ).toEqual({
                outcome: "refused",
                refusal: decision.allowed ? null : decision.refusal,
              });
            }
            expect(await traceOf(db, row.id), label).toEqual(before);
            // ...then the one it allows, if any.
            const allowed = ACTOR_KINDS.find(
              (actor) => decide(kind, from, name, actor, to).allowed,
            );
            if (!allowed) continue;
            const decision = decide(kind, from, name, allowed, to);
            if (!decision.allowed) continue;
            const result = await apply(row, transition, actorOf(allowed), timeOf(name));
            const after = await traceOf(db, row.id);
            if (name === "set_status" && !decision.changes) {
              expect(result, label).toEqual({ outcome: "unchanged" });
              expect(after, label).toEqual(before);
              continue;
            }
            expect(result, label).toMatchObject({ outcome: "applied", to: decision.to });
            expectEffects(label, kind, name, from, after.status, before, after);
          }
    }
  });

  function expectEffects(
    label: string,
    kind: RequestKind,
    name: TransitionName,
    from: RequestStatus,
    to: RequestStatus,
    before: Trace,
    after: Trace,
  ) {
    const holdsStay = processOf(kind).holdsStay;
    const hasStay = kind === "property_booking" || name === "set_stay";
    switch (name) {
      case "set_status":
      case "expire":
        expect(after.version, label).toBe(before.version + 1);
        expect(after.history, label).toBe(before.history + 1);
        expect(after.events, label).toEqual(
          name === "expire"
            ? [...before.events, "request.expired", "request.status_changed"]
            : holdsStay.includes(to) && hasStay
              ? [...before.events, "stay.confirmed", "request.status_changed"]
              : [...before.events, "request.status_changed"],
        );
        expect(after.mails, label).toBe(before.mails + 1);
        expect(after.stays, label).toBe(holdsStay.includes(to) && hasStay ? 1 : 0);
        // Reopening a closed request gives it its window again from now.
        if (!OPEN[kind].includes(from) && OPEN[kind].includes(to))
          expect(after.dueAt, label).toBe(timeOf(name).getTime() + HOUR);
        else expect(after.dueAt, label).toBe(before.dueAt);
        break;
      case "remind":
        expect(after, label).toEqual({
          ...before,
          remindedAt: timeOf(name).getTime(),
          events: [...before.events, "request.reminder_due"],
          mails: before.mails + 1,
        });
        break;
      case "set_due":
        expect(after, label).toEqual({
          ...before,
          version: before.version + 1,
          dueAt: T0.getTime() + 48 * HOUR,
          history: before.history + 1,
        });
        break;
      case "set_stay":
        expect(after.propertyId, label).toBe(OTHER_ESTATE);
        expect(after.history, label).toBe(before.history + 1);
        // The owners of the newly named estate hear of the request.
        expect(after.events, label).toEqual([
          ...before.events,
          "request.estate_assigned",
          ...(holdsStay.includes(from) ? ["stay.confirmed"] : []),
        ]);
        expect(after.stays, label).toBe(holdsStay.includes(from) ? 1 : 0);
        expect(after.mails, label).toBeGreaterThanOrEqual(before.mails);
        break;
      case "submit":
        throw new Error("submit is applied by intake");
    }
  }

  it("makes a move to the same status no change: no history row, no event, no mail", async () => {
    const { db } = database().deps;
    const row = await requestIn("property_booking", "Confirmed");
    const before = await traceOf(db, row.id);
    const result = await apply(
      row,
      { type: "set_status", to: "Confirmed", notifyGuest: true },
      STAFF_ACTOR,
      T0,
    );
    expect(result).toEqual({ outcome: "unchanged" });
    expect(await traceOf(db, row.id)).toEqual(before);
  });

  it("refuses a refusal without a reason, and expiry or a reminder before its time", async () => {
    const { db } = database().deps;
    const row = await requestIn("booking_request", "New");
    const before = await traceOf(db, row.id);
    expect(await apply(row, { type: "set_status", to: "Rejected" }, STAFF_ACTOR, T0)).toEqual({
      outcome: "refused",
      refusal: "reason_required",
    });
    expect(await apply(row, { type: "expire" }, { kind: "system" }, T0)).toEqual({
      outcome: "refused",
      refusal: "not_due",
    });
    expect(await apply(row, { type: "remind" }, { kind: "system" }, T0)).toEqual({
      outcome: "refused",
      refusal: "not_due",
    });
    expect(await traceOf(db, row.id)).toEqual(before);
  });
});

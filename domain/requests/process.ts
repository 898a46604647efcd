import {
  BOOKING_STATUSES,
  MEMBERSHIP_STATUSES,
  type RequestKind,
  type RequestStatus,
} from "./options.ts";

/**
 * How a request moves: per kind of request, its states, the transitions between them, who may
 * take each, and what each does. This module only declares; `apply` (apply-transition.ts) is
 * the one function that carries a transition out, and the only code that writes a request's
 * status. Without database code, so pages read the same rules (which statuses are open, which
 * need a reason).
 */

/** Booking requests and property bookings share one process; membership applications have theirs. */
export type ProcessKind = "booking" | "membership";

export const processKindOf = (kind: RequestKind): ProcessKind =>
  kind === "membership" ? "membership" : "booking";

/** Who takes a transition. Owners give their view of a request but move none. */
export const ACTOR_KINDS = ["guest", "staff", "owner", "system"] as const;
export type ActorKind = (typeof ACTOR_KINDS)[number];

export interface ProcessDefinition {
  /** Every state, in workflow order. */
  states: readonly RequestStatus[];
  /** The state a new request starts in. */
  initial: RequestStatus;
  /** States in which a request waits for staff: it has a due time and the system may expire it. */
  open: readonly RequestStatus[];
  /** The state the system closes an expired request with. */
  expiresTo: RequestStatus;
  /** States that refuse the request: entering one needs a reason. */
  refusals: readonly RequestStatus[];
  /** The states in which a request holds its nights on the estate's calendar. */
  holdsStay: readonly RequestStatus[];
  /**
   * States only their own transitions enter (an offer out, an accepted offer awaiting its
   * deposit, a cancelled booking): staff's `set_status` cannot choose them.
   */
  managed: readonly RequestStatus[];
}

export const PROCESSES: Record<ProcessKind, ProcessDefinition> = {
  booking: {
    states: BOOKING_STATUSES,
    initial: "New",
    open: ["New", "Contacted", "In progress"],
    expiresTo: "Rejected",
    refusals: ["Rejected"],
    holdsStay: ["Awaiting deposit", "Confirmed"],
    managed: ["Offered", "Awaiting deposit", "Cancelled"],
  },
  membership: {
    states: MEMBERSHIP_STATUSES,
    initial: "New",
    open: ["New", "Contacted", "In review"],
    expiresTo: "Declined",
    refusals: ["Declined"],
    holdsStay: [],
    managed: [],
  },
};

export const processOf = (kind: RequestKind): ProcessDefinition => PROCESSES[processKindOf(kind)];

/** The open states of `kind`: the request waits for staff, and its due time runs. */
export const openStatusesOf = (kind: RequestKind): readonly RequestStatus[] => processOf(kind).open;

export const isOpenStatus = (kind: RequestKind, status: RequestStatus): boolean =>
  openStatusesOf(kind).includes(status);

/** Every state that is open in some process, for queries across kinds. */
export const ANY_OPEN_STATUSES: readonly RequestStatus[] = [
  ...new Set([...PROCESSES.booking.open, ...PROCESSES.membership.open]),
];

/**
 * The same set as SQL text, for the partial index on due times and the queries that must match
 * its predicate word for word (a parameter list would not let the planner use the index).
 */
export const ANY_OPEN_STATUSES_SQL = `(${ANY_OPEN_STATUSES.map((status) => `'${status}'`).join(", ")})`;

/** The effects a transition may have, in the order `apply` carries them out. */
export const EFFECTS = [
  /** The status (and version) changes. */
  "status",
  /** The request's due and reminder times are set (at intake, or again when a closed request reopens). */
  "due_times",
  /** Entering a `holdsStay` state takes the nights on the calendar; leaving them frees them. */
  "stay",
  /** An offer is written, or its status changes (domain/offers/). */
  "offer",
  /** One row in the request's history. */
  "history",
  /**
   * `request.created`, `request.status_changed`, `request.expired`, `stay.confirmed`, or an
   * internal one (`request.reminder_due`, `request.estate_assigned`).
   */
  "events",
  /** Mail to the guest, staff or the estate's owner, which the mail job derives from the events. */
  "mail",
] as const;
export type Effect = (typeof EFFECTS)[number];

/** The longest a due time may be set ahead, in days (a year). */
export const DUE_MAX_DAYS = 366;

/** Whether staff may set a request's due time to `dueAt` at `now`: after now, within a year. */
export function isDueTimeInRange(dueAt: Date, now: Date): boolean {
  const ahead = dueAt.getTime() - now.getTime();
  return ahead > 0 && ahead <= DUE_MAX_DAYS * 86_400_000;
}

export const TRANSITION_NAMES = [
  "submit",
  "set_status",
  "expire",
  "remind",
  "set_due",
  "set_stay",
  "send_offer",
  "withdraw_offer",
  "accept_offer",
  "decline_offer",
  "expire_offer",
  "confirm_paid",
  "expire_deposit",
  "cancel",
] as const;
export type TransitionName = (typeof TRANSITION_NAMES)[number];

export interface TransitionRule {
  /** Who may take it. */
  actors: readonly ActorKind[];
  /** The states it may start from: `none` for a request that does not exist yet. */
  from: "none" | "any" | "open" | readonly RequestStatus[];
  /**
   * Where it leads: a chosen state, the process's own (`initial`, `expiresTo`), nowhere
   * (`same`), or a named state.
   */
  to: "initial" | "chosen" | "expiresTo" | "same" | { state: RequestStatus };
  /** Whether requests of a kind without nights (membership) may take it. */
  needsStay?: boolean;
  effects: readonly Effect[];
  /** What a reader of the diagram needs to know beyond the table. */
  note: string;
}

export const TRANSITIONS: Record<TransitionName, TransitionRule> = {
  submit: {
    actors: ["guest"],
    from: "none",
    to: "initial",
    effects: ["status", "due_times", "history", "events", "mail"],
    note: "a guest sends a form; staff, the guest and the estate's owners are mailed",
  },
  set_status: {
    actors: ["staff"],
    from: "any",
    to: "chosen",
    effects: ["status", "due_times", "stay", "history", "events", "mail"],
    note: "staff may move a request to any state of its kind; a refusal needs a reason; the same state is no change",
  },
  expire: {
    actors: ["system"],
    from: "open",
    to: "expiresTo",
    effects: ["status", "stay", "history", "events", "mail"],
    note: "only an open request whose due time has passed",
  },
  remind: {
    actors: ["system"],
    from: "open",
    to: "same",
    effects: ["events", "mail"],
    note: "once, when three quarters of the window have passed and the request is not yet due",
  },
  set_due: {
    actors: ["staff"],
    from: "open",
    to: "same",
    effects: ["due_times", "history"],
    note: "only to a time after now",
  },
  set_stay: {
    actors: ["staff"],
    from: "any",
    to: "same",
    needsStay: true,
    effects: ["stay", "history", "events", "mail"],
    note: "a confirmed request moves its held nights; a newly assigned estate's owners are mailed",
  },
  send_offer: {
    actors: ["staff"],
    from: ["New", "Contacted", "In progress", "Offered"],
    to: { state: "Offered" },
    needsStay: true,
    effects: ["status", "offer", "history", "events", "mail"],
    note: "a price for the request's estate and nights; an offer still out is withdrawn by the new one; the staff window stops while the guest decides",
  },
  withdraw_offer: {
    actors: ["staff"],
    from: ["Offered"],
    to: { state: "In progress" },
    needsStay: true,
    effects: ["status", "due_times", "offer", "history", "events"],
    note: "only an offer not yet answered; staff get a new window",
  },
  accept_offer: {
    actors: ["guest"],
    from: ["Offered"],
    to: { state: "Awaiting deposit" },
    needsStay: true,
    effects: ["status", "stay", "offer", "history", "events", "mail"],
    note: "before the offer expires; takes the nights at once (refused when taken); Confirmed at once when no deposit is asked",
  },
  decline_offer: {
    actors: ["guest"],
    from: ["Offered"],
    to: { state: "In progress" },
    needsStay: true,
    effects: ["status", "due_times", "offer", "history", "events", "mail"],
    note: "staff get a new window to answer",
  },
  expire_offer: {
    actors: ["system"],
    from: ["Offered"],
    to: { state: "In progress" },
    needsStay: true,
    effects: ["status", "due_times", "offer", "history", "events", "mail"],
    note: "an offer unanswered at its expiry; staff get a new window",
  },
  confirm_paid: {
    actors: ["system"],
    from: ["Awaiting deposit"],
    to: { state: "Confirmed" },
    needsStay: true,
    effects: ["status", "history", "events", "mail"],
    note: "when the ledger holds the deposit",
  },
  expire_deposit: {
    actors: ["system"],
    from: ["Awaiting deposit"],
    to: { state: "Cancelled" },
    needsStay: true,
    effects: ["status", "stay", "history", "events", "mail"],
    note: "the deposit unpaid when due: the nights are freed",
  },
  cancel: {
    actors: ["staff", "guest"],
    from: ["Awaiting deposit", "Confirmed"],
    to: { state: "Cancelled" },
    needsStay: true,
    effects: ["status", "stay", "offer", "history", "events", "mail"],
    note: "frees the nights; the refund due under the offer's policy is fixed (the guest only while it refunds something)",
  },
};

/** Why the process refuses a transition. */
export type Refusal =
  /** This actor may not take this transition. */
  | "actor"
  /** Not from this state (for example, the system expires only an open request). */
  | "from_status"
  /** The chosen state is not one of this kind's. */
  | "invalid_status"
  /** Requests of this kind hold no nights. */
  | "no_stay";

export type Decision =
  { allowed: true; to: RequestStatus; changes: boolean } | { allowed: false; refusal: Refusal };

/**
 * Whether `actor` may take `transition` on a request of `kind` in state `from` (null: not yet
 * created), and where it leads. `changes` is false when the status stays as it was: a move to
 * the same status is no change at all for `set_status`.
 */
export function decide(
  kind: RequestKind,
  from: RequestStatus | null,
  transition: TransitionName,
  actor: ActorKind,
  chosen?: RequestStatus,
): Decision {
  const process = processOf(kind);
  const rule = TRANSITIONS[transition];
  if (!rule.actors.includes(actor)) return { allowed: false, refusal: "actor" };
  if (rule.needsStay && process.holdsStay.length === 0)
    return { allowed: false, refusal: "no_stay" };
  if (rule.from === "none" ? from !== null : from === null)
    return { allowed: false, refusal: "from_status" };
  if (rule.from === "open" && from !== null && !process.open.includes(from))
    return { allowed: false, refusal: "from_status" };
  if (Array.isArray(rule.from) && (from === null || !rule.from.includes(from)))
    return { allowed: false, refusal: "from_status" };
  if (from !== null && !process.states.includes(from))
    return { allowed: false, refusal: "from_status" };
  if (typeof rule.to === "object") return { allowed: true, to: rule.to.state, changes: true };
  switch (rule.to) {
    case "initial":
      return { allowed: true, to: process.initial, changes: true };
    case "expiresTo":
      return { allowed: true, to: process.expiresTo, changes: true };
    case "same":
      return { allowed: true, to: from as RequestStatus, changes: false };
    case "chosen":
      if (
        chosen === undefined ||
        !process.states.includes(chosen) ||
        (process.managed.includes(chosen) && chosen !== from)
      )
        return { allowed: false, refusal: "invalid_status" };
      return { allowed: true, to: chosen, changes: chosen !== from };
  }
}

/** Whether entering `status` needs a reason. */
export const needsReason = (kind: RequestKind, status: RequestStatus): boolean =>
  processOf(kind).refusals.includes(status);

/**
 * The states staff may choose for a request of `kind` now in `from`: every state but those only
 * their own transitions enter (the current one stays listed, as no change).
 */
export function staffChoosableStatuses(kind: RequestKind, from: RequestStatus): RequestStatus[] {
  const process = processOf(kind);
  return process.states.filter((status) => status === from || !process.managed.includes(status));
}

const stateId = (status: RequestStatus) => status.replaceAll(" ", "");

/**
 * The process of `kind` as a Mermaid state diagram, drawn from the tables above:
 * docs/architecture.md carries it, and a test keeps the two the same. The open states are one
 * box (staff move between them in any order; the arrows inside show the usual one).
 */
export function processDiagram(kind: ProcessKind): string {
  const process = PROCESSES[kind];
  const closed = process.states.filter((status) => !process.open.includes(status));
  const by = (to: RequestStatus, from: RequestStatus | "open") => {
    const labels = [
      process.refusals.includes(to) ? "set_status (staff, with a reason)" : "set_status (staff)",
    ];
    if (from === "open" && to === process.expiresTo) labels.push("expire (system, when due)");
    if (process.holdsStay.includes(to) && (from === "open" || !process.holdsStay.includes(from)))
      labels.push("takes the nights");
    if (from !== "open" && process.holdsStay.includes(from) && !process.holdsStay.includes(to))
      labels.push("frees the nights");
    return labels.join(", ");
  };
  const lines = [
    "stateDiagram-v2",
    "    direction LR",
    `    state "open: the due time runs" as Open {`,
    `        [*] --> ${stateId(process.initial)}: submit (guest)`,
  ];
  process.open.forEach((status, index) => {
    const next = process.open[index + 1];
    if (next) lines.push(`        ${stateId(status)} --> ${stateId(next)}`);
    if (status.includes(" ")) lines.push(`        ${stateId(status)}: ${status}`);
  });
  lines.push("    }");
  for (const status of closed)
    if (status.includes(" ")) lines.push(`    ${stateId(status)}: ${status}`);
  const choosable = closed.filter((status) => !process.managed.includes(status));
  for (const to of choosable) lines.push(`    Open --> ${stateId(to)}: ${by(to, "open")}`);
  for (const from of closed)
    for (const to of choosable)
      if (from !== to) lines.push(`    ${stateId(from)} --> ${stateId(to)}: ${by(to, from)}`);
  for (const from of closed)
    lines.push(
      `    ${stateId(from)} --> Open: set_status (staff), a new window${process.holdsStay.includes(from) ? ", frees the nights" : ""}`,
    );
  // The transitions of the offer, each from the states it names.
  if (process.managed.length > 0)
    for (const [name, rule] of Object.entries(TRANSITIONS)) {
      if (!Array.isArray(rule.from) || typeof rule.to !== "object") continue;
      const to = rule.to.state;
      const froms = rule.from as readonly RequestStatus[];
      const fromOpen = process.open.every((status) => froms.includes(status));
      const sources = [
        ...(fromOpen ? ["Open"] : []),
        ...froms.filter((status) => !process.open.includes(status) && status !== to).map(stateId),
      ];
      for (const source of sources)
        lines.push(`    ${source} --> ${stateId(to)}: ${name} (${rule.actors.join(", ")})`);
    }
  return lines.join("\n");
}

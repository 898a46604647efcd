/**
 * The time domain code reads. The server hands in the system clock; tests and journeys hand in
 * one they move, so that a due time, a code's step or a day boundary is reached by setting the
 * clock rather than by waiting for it. The database's `now()` is not used for domain decisions:
 * it cannot be moved, and two instances would read two clocks.
 */
export type Clock = () => Date;

export const systemClock: Clock = () => new Date();

/** The time now, as `deps` reads it. */
export function nowOf(deps: { clock?: Clock }): Date {
  return (deps.clock ?? systemClock)();
}

/** A clock a test sets and moves; it starts at `start` and stands still between moves. */
export interface ManualClock {
  (): Date;
  set(time: Date | string | number): void;
  advance(ms: number): void;
}

export function manualClock(start: Date | string | number = Date.now()): ManualClock {
  let current = new Date(start).getTime();
  const clock = (() => new Date(current)) as ManualClock;
  clock.set = (time) => {
    current = new Date(time).getTime();
  };
  clock.advance = (ms) => {
    current += ms;
  };
  return clock;
}

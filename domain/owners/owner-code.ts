/**
 * The owner's emailed code, as both sides know it (browser-safe: no server code here). The
 * server makes and checks codes by it (`verification.ts`); the verify page says how long a
 * code is and how long it works from it, so the page never promises what the server does not.
 */
export const OWNER_CODE_POLICY = {
  /** Digits in a code. */
  length: 6,
  /** How long a code works: 10 minutes. */
  ttlMs: 10 * 60_000,
  /** Wrong tries before a code is spent. */
  maxAttempts: 5,
  /** How long the proof of a correct code lets the owner claim: 10 minutes. */
  proofTtlMs: 10 * 60_000,
  /**
   * Wrong codes per email within `failureWindowMs`, across codes (decision
   * 0021). At the cap the email is locked: a code mailed before the lock is refused whatever is
   * typed, and only a code mailed after the email's latest wrong guess gets a try (one).
   */
  maxFailuresPerWindow: 10,
  failureWindowMs: 24 * 60 * 60_000,
} as const;

/** A code's validity in whole minutes, for the page and the mail. */
export const OWNER_CODE_MINUTES = OWNER_CODE_POLICY.ttlMs / 60_000;

const CODE_PATTERN = new RegExp(`^\\d{${OWNER_CODE_POLICY.length}}$`);

/** Whether `value` has the shape of a code (the right number of digits, nothing else). */
export function isOwnerCodeShape(value: string): boolean {
  return CODE_PATTERN.test(value);
}

/**
 * The owner's one-time code, as the mail, the form and the server all state it. Browser-safe:
 * the verify screen reads the same figures the server enforces.
 */
export const OWNER_CODE_POLICY = {
  /** Digits in a code. */
  length: 6,
  /** How long a code lives. */
  ttlMs: 10 * 60_000,
  /** Wrong tries before a code ends. */
  maxAttempts: 5,
  /** How long the proof of a right code lasts before the claim. */
  proofTtlMs: 10 * 60_000,
} as const;

/** Minutes a code lives, as the mail and the screen say it. */
export const OWNER_CODE_MINUTES = OWNER_CODE_POLICY.ttlMs / 60_000;

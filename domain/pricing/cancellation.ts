import { nightsBetween } from "../calendar/nights.ts";
import { share } from "./money.ts";
import type { CancellationPolicy } from "./rates.schema.ts";

/**
 * What each cancellation policy gives back: the share of the stay's total that is refundable
 * when a guest cancels at least `daysBefore` days before arrival, the steps in decreasing order.
 * Closer to arrival than the last step, nothing is refundable.
 */
export const REFUND_STEPS: Record<
  CancellationPolicy,
  readonly { daysBefore: number; refundPercent: number }[]
> = {
  flexible: [{ daysBefore: 1, refundPercent: 100 }],
  moderate: [
    { daysBefore: 14, refundPercent: 100 },
    { daysBefore: 7, refundPercent: 50 },
  ],
  strict: [
    { daysBefore: 30, refundPercent: 100 },
    { daysBefore: 14, refundPercent: 50 },
  ],
};

/** The refundable share of the total, in percent, for a cancellation on `today`. */
export function refundablePercent(
  policy: CancellationPolicy,
  checkIn: string,
  today: string,
): number {
  const daysBefore = nightsBetween(today, checkIn);
  return REFUND_STEPS[policy].find((step) => daysBefore >= step.daysBefore)?.refundPercent ?? 0;
}

/**
 * The refund due to a guest who paid `paid` of `total` and cancels on `today`: what they paid
 * beyond what the estate keeps (the non-refundable share of the total), never below zero and
 * never above what they paid.
 */
export function refundDue(
  policy: CancellationPolicy,
  { total, paid, checkIn }: { total: number; paid: number; checkIn: string },
  today: string,
): number {
  const refundable = share(total, refundablePercent(policy, checkIn, today) * 100);
  const kept = total - refundable;
  return Math.min(paid, Math.max(0, paid - kept));
}

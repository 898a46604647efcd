import {
  ALLOCATION,
  TOTAL_SUPPLY,
  type AllocationBucket,
  type AllocationKey,
} from "./token-terms.ts";

/** Average days in a month (365.25 / 12), to turn months into days for daily releases. */
export const DAYS_PER_MONTH = 30.4375;

/** The vesting rule of a bucket, without its key and share. */
export type VestingRule = Pick<
  AllocationBucket,
  "atLaunch" | "cliffMonths" | "releaseMonths" | "cadence"
>;

/**
 * The fraction (0..1) of a bucket unlocked at the end of `month` (0 = launch): the launch
 * share, then nothing more until the cliff ends, then the rest released linearly over
 * `releaseMonths` — in equal steps at each month end for a monthly cadence, continuously for a
 * daily one (day-level steps are invisible at month resolution). Before launch nothing is
 * unlocked.
 */
export function unlockedShare(bucket: VestingRule, month: number): number {
  if (!Number.isFinite(month)) throw new RangeError(`month must be finite, got ${month}`);
  if (month < 0) return 0;
  const atLaunch = bucket.atLaunch / 100;
  const elapsedMonths = month - bucket.cliffMonths;
  if (bucket.cadence === "none" || bucket.releaseMonths <= 0 || elapsedMonths <= 0) return atLaunch;

  let released: number;
  if (bucket.cadence === "monthly") {
    // The epsilon keeps a month computed from days (e.g. 365.25 / 30.4375 = 12) from
    // flooring to the step before.
    released = Math.floor(elapsedMonths + 1e-9) / bucket.releaseMonths;
  } else {
    const elapsedDays = elapsedMonths * DAYS_PER_MONTH;
    released = elapsedDays / (bucket.releaseMonths * DAYS_PER_MONTH);
  }
  // Clamp so the last step is exactly 1, not 0.1 + 0.9 × 1 with rounding error.
  if (released >= 1) return 1;
  return atLaunch + (1 - atLaunch) * released;
}

/** Tokens unlocked at the end of one month, per bucket and in total. */
export interface CirculatingSupplyPoint {
  month: number;
  /** Whole tokens unlocked per bucket. */
  byBucket: Record<AllocationKey, number>;
  /** Whole tokens unlocked in all buckets. */
  total: number;
  /** total / TOTAL_SUPPLY, 0..1. */
  shareOfSupply: number;
}

/**
 * The circulating supply at the end of each month from launch (0) to `months` inclusive, from
 * the allocation and vesting table of token-terms.ts.
 */
export function circulatingSupply(months = 60): CirculatingSupplyPoint[] {
  if (!Number.isInteger(months) || months < 0) {
    throw new RangeError(`months must be a whole number ≥ 0, got ${months}`);
  }
  const points: CirculatingSupplyPoint[] = [];
  for (let month = 0; month <= months; month++) {
    const byBucket = {} as Record<AllocationKey, number>;
    let total = 0;
    for (const bucket of ALLOCATION) {
      const tokens = Math.round(
        ((TOTAL_SUPPLY * bucket.share) / 100) * unlockedShare(bucket, month),
      );
      byBucket[bucket.key] = tokens;
      total += tokens;
    }
    points.push({ month, byBucket, total, shareOfSupply: total / TOTAL_SUPPLY });
  }
  return points;
}

import { describe, expect, it } from "vitest";
import {
  ALLOCATION,
  FDV,
  SALE_PHASES,
  TOTAL_SUPPLY,
  USE_OF_FUNDS,
  type AllocationBucket,
  type AllocationKey,
} from "./token-terms.ts";
import { circulatingSupply, unlockedShare } from "./unlock-schedule.ts";

function bucket(key: AllocationKey) {
  const found = ALLOCATION.find((b) => b.key === key);
  if (!found) throw new Error(`no bucket ${key}`);
  return found;
}

const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);

describe("the tokenomics content", () => {
  it("allocates exactly 100% of the supply", () => {
    expect(sum(ALLOCATION.map((b) => b.share))).toBeCloseTo(100, 10);
  });

  it("spends exactly 100% of the funds", () => {
    expect(sum(USE_OF_FUNDS.map((f) => f.share))).toBeCloseTo(100, 10);
  });

  it("has no locked tokens in a bucket without a release", () => {
    const buckets: readonly AllocationBucket[] = ALLOCATION;
    for (const b of buckets) {
      if (b.cadence === "none" || b.releaseMonths === 0) expect(b.atLaunch, b.key).toBe(100);
    }
  });

  it("sells 40% of the supply in eight phases, private 20% and public 20%", () => {
    expect(SALE_PHASES).toHaveLength(8);
    expect(SALE_PHASES[0]?.key).toBe("strategicPreSale");
    expect(sum(SALE_PHASES.map((p) => p.share))).toBeCloseTo(40, 10);
    for (const key of ["privateSale", "publicSale"] as const) {
      const sold = sum(SALE_PHASES.filter((p) => p.bucket === key).map((p) => p.share));
      expect(sold, key).toBeCloseTo(bucket(key).share, 10);
    }
  });

  it("raises the price at every phase, from the initial to the target FDV", () => {
    SALE_PHASES.forEach((phase, i) => {
      expect(phase.phase).toBe(i + 1);
      const previous = SALE_PHASES[i - 1];
      if (previous) expect(phase.priceChf).toBeGreaterThan(previous.priceChf);
    });
    expect(SALE_PHASES[0]!.priceChf * TOTAL_SUPPLY).toBeCloseTo(FDV.initialChf, 2);
    expect(SALE_PHASES.at(-1)!.priceChf * TOTAL_SUPPLY).toBeCloseTo(FDV.targetChf, 2);
  });

  it("nets about 4-5M CHF from the sale", () => {
    const proceeds = sum(SALE_PHASES.map((p) => ((TOTAL_SUPPLY * p.share) / 100) * p.priceChf));
    expect(proceeds).toBeGreaterThanOrEqual(4_000_000);
    expect(proceeds).toBeLessThanOrEqual(5_000_000);
  });
});

describe("unlockedShare", () => {
  it("keeps the team locked through the 12-month cliff, then releases 1/48 a month", () => {
    const team = bucket("team");
    for (let m = 0; m <= 12; m++) expect(unlockedShare(team, m), `month ${m}`).toBe(0);
    expect(unlockedShare(team, 13)).toBeCloseTo(1 / 48, 12);
    expect(unlockedShare(team, 36)).toBeCloseTo(24 / 48, 12);
    expect(unlockedShare(team, 59)).toBeCloseTo(47 / 48, 12);
    expect(unlockedShare(team, 60)).toBe(1);
  });

  it("releases a monthly bucket in steps at month ends, not within a month", () => {
    const team = bucket("team");
    expect(unlockedShare(team, 13.9)).toBeCloseTo(1 / 48, 12);
    expect(unlockedShare(team, 14)).toBeCloseTo(2 / 48, 12);
  });

  it("opens half the public sale at launch and all of it after 6 months", () => {
    const publicSale = bucket("publicSale");
    expect(unlockedShare(publicSale, 0)).toBe(0.5);
    expect(unlockedShare(publicSale, 1)).toBeCloseTo(0.5 + 0.5 / 6, 12);
    expect(unlockedShare(publicSale, 5)).toBeLessThan(1);
    expect(unlockedShare(publicSale, 6)).toBe(1);
  });

  it("opens 10% of the private pre-sale at launch and the rest over 12 months", () => {
    const privateSale = bucket("privateSale");
    expect(unlockedShare(privateSale, 0)).toBeCloseTo(0.1, 12);
    expect(unlockedShare(privateSale, 6)).toBeCloseTo(0.1 + 0.9 / 2, 12);
    expect(unlockedShare(privateSale, 11)).toBeLessThan(1);
    expect(unlockedShare(privateSale, 12)).toBe(1);
  });

  it("opens the whole AMM bucket at launch", () => {
    expect(unlockedShare(bucket("amm"), 0)).toBe(1);
    expect(unlockedShare(bucket("amm"), 60)).toBe(1);
  });

  it("releases a daily bucket continuously", () => {
    const liquidity = bucket("liquidity");
    expect(unlockedShare(liquidity, 0)).toBeCloseTo(0.2, 12);
    expect(unlockedShare(liquidity, 12)).toBeCloseTo(0.2 + 0.8 / 2, 12);
    // Half a month in, part of the month's release is already out.
    expect(unlockedShare(liquidity, 0.5)).toBeCloseTo(0.2 + (0.8 * 0.5) / 24, 12);
    expect(unlockedShare(liquidity, 24)).toBe(1);
    expect(unlockedShare(bucket("stakingRewards"), 0)).toBe(0);
    expect(unlockedShare(bucket("stakingRewards"), 30)).toBeCloseTo(0.5, 12);
    expect(unlockedShare(bucket("treasury"), 59)).toBeLessThan(1);
  });

  it("unlocks nothing before launch", () => {
    expect(unlockedShare(bucket("amm"), -1)).toBe(0);
  });

  it("rejects a month that is not a number", () => {
    expect(() => unlockedShare(bucket("team"), Number.NaN)).toThrow(RangeError);
  });

  it("follows the launch share and cliff of every bucket", () => {
    for (const b of ALLOCATION) {
      expect(unlockedShare(b, 0), b.key).toBeCloseTo(b.atLaunch / 100, 12);
      if (b.cliffMonths > 0) {
        expect(unlockedShare(b, b.cliffMonths), b.key).toBeCloseTo(b.atLaunch / 100, 12);
      }
      expect(unlockedShare(b, b.cliffMonths + b.releaseMonths), b.key).toBe(1);
    }
  });
});

describe("circulatingSupply", () => {
  const points = circulatingSupply();

  it("covers launch to month 60", () => {
    expect(points.map((p) => p.month)).toEqual(Array.from({ length: 61 }, (_, m) => m));
  });

  it("starts with 24% of the supply in circulation", () => {
    // 2 private + 10 public + 3 liquidity + 1.5 treasury + 6 AMM + 0.9 marketing
    // + 0.3 advisors + 0.3 partners.
    expect(points[0]!.total).toBe(2_400_000_000);
    expect(points[0]!.byBucket.team).toBe(0);
    expect(points[0]!.byBucket.amm).toBe(600_000_000);
  });

  it("never decreases, in any bucket or in total", () => {
    for (let i = 1; i < points.length; i++) {
      const [before, after] = [points[i - 1]!, points[i]!];
      expect(after.total).toBeGreaterThanOrEqual(before.total);
      for (const b of ALLOCATION) {
        expect(after.byBucket[b.key], `${b.key} at ${after.month}`).toBeGreaterThanOrEqual(
          before.byBucket[b.key],
        );
      }
    }
  });

  it("has everything unlocked by month 60 and not before", () => {
    const last = points.at(-1)!;
    expect(last.total).toBe(TOTAL_SUPPLY);
    expect(last.shareOfSupply).toBe(1);
    for (const b of ALLOCATION) {
      expect(last.byBucket[b.key], b.key).toBe((TOTAL_SUPPLY * b.share) / 100);
    }
    expect(points[59]!.total).toBeLessThan(TOTAL_SUPPLY);
  });

  it("adds the buckets up to the total", () => {
    for (const p of points) {
      expect(sum(Object.values(p.byBucket))).toBe(p.total);
    }
  });
});

/**
 * The $CASL token's terms: the one source for every page that speaks of supply, allocation,
 * vesting, sale, staking and revenue (decisions.md: the tokenomics page reading, 10 billion
 * supply). Numbers are typed once here; figures.ts formats them for the pages, and the display
 * names of every item are content (content/tokenomics.ts).
 *
 * Percentages are percents (20 means 20%), not fractions.
 */

export const TOKEN = "$CASL";

/** Tokens minted, all at launch; no further minting. */
export const TOTAL_SUPPLY = 10_000_000_000;

/**
 * How the locked part of a bucket is released: `monthly` in equal steps at each month end,
 * `daily` in equal daily amounts (continuous at month resolution), `none` when nothing is
 * locked.
 */
export type Cadence = "daily" | "monthly" | "none";

interface BucketShape<K extends string = string> {
  readonly key: K;
  /** Percent of TOTAL_SUPPLY. */
  readonly share: number;
  /** Percent of the bucket unlocked at launch (month 0). */
  readonly atLaunch: number;
  /** Months after launch before the first release of the rest. */
  readonly cliffMonths: number;
  /** Months over which the rest is released once the cliff ends. */
  readonly releaseMonths: number;
  readonly cadence: Cadence;
}

/** Allocation and vesting (tokenomics page). Shares sum to 100. */
export const ALLOCATION = [
  {
    key: "privateSale",
    share: 20,
    atLaunch: 10,
    cliffMonths: 0,
    releaseMonths: 12,
    cadence: "monthly",
  },
  {
    key: "publicSale",
    share: 20,
    atLaunch: 50,
    cliffMonths: 0,
    releaseMonths: 6,
    cadence: "monthly",
  },
  {
    key: "liquidity",
    share: 15,
    atLaunch: 20,
    cliffMonths: 0,
    releaseMonths: 24,
    cadence: "daily",
  },
  { key: "treasury", share: 15, atLaunch: 10, cliffMonths: 0, releaseMonths: 60, cadence: "daily" },
  { key: "team", share: 10, atLaunch: 0, cliffMonths: 12, releaseMonths: 48, cadence: "monthly" },
  { key: "amm", share: 6, atLaunch: 100, cliffMonths: 0, releaseMonths: 0, cadence: "none" },
  {
    key: "marketing",
    share: 4.5,
    atLaunch: 20,
    cliffMonths: 0,
    releaseMonths: 12,
    cadence: "daily",
  },
  {
    key: "advisors",
    share: 3,
    atLaunch: 10,
    cliffMonths: 0,
    releaseMonths: 24,
    cadence: "monthly",
  },
  {
    key: "partners",
    share: 3,
    atLaunch: 10,
    cliffMonths: 0,
    releaseMonths: 24,
    cadence: "monthly",
  },
  {
    key: "stakingRewards",
    share: 2.5,
    atLaunch: 0,
    cliffMonths: 0,
    releaseMonths: 60,
    cadence: "daily",
  },
  { key: "airdrops", share: 1, atLaunch: 0, cliffMonths: 0, releaseMonths: 24, cadence: "monthly" },
] as const satisfies readonly BucketShape[];

export type AllocationKey = (typeof ALLOCATION)[number]["key"];
export type AllocationBucket = BucketShape<AllocationKey>;

/** Fully diluted value (price × TOTAL_SUPPLY) at the first sale phase and the target. */
export const FDV = { initialChf: 10_000_000, targetChf: 30_000_000 } as const;

export type SalePhaseKey =
  | "strategicPreSale"
  | "privateSale"
  | "publicRound1"
  | "publicRound2"
  | "publicRound3"
  | "publicRound4"
  | "publicRound5"
  | "publicRound6";

export interface SalePhase {
  readonly key: SalePhaseKey;
  /** 1-based order of the phase. */
  readonly phase: number;
  /** The allocation bucket the phase sells from. */
  readonly bucket: "privateSale" | "publicSale";
  /** Percent of TOTAL_SUPPLY sold in the phase. */
  readonly share: number;
  /** Price of one token in CHF. */
  readonly priceChf: number;
}

/**
 * The eight sale phases, prices rising from FDV.initialChf (0.001 CHF) to FDV.targetChf
 * (0.003 CHF). Most tokens go early and cheap, so selling the 40% (private 20% + public 20%)
 * nets about 4.7M CHF, within the spec's "about 4-5M".
 */
export const SALE_PHASES = [
  { key: "strategicPreSale", phase: 1, bucket: "privateSale", share: 12, priceChf: 0.001 },
  { key: "privateSale", phase: 2, bucket: "privateSale", share: 8, priceChf: 0.00105 },
  { key: "publicRound1", phase: 3, bucket: "publicSale", share: 7, priceChf: 0.0011 },
  { key: "publicRound2", phase: 4, bucket: "publicSale", share: 5, priceChf: 0.0012 },
  { key: "publicRound3", phase: 5, bucket: "publicSale", share: 4, priceChf: 0.00135 },
  { key: "publicRound4", phase: 6, bucket: "publicSale", share: 2.5, priceChf: 0.0016 },
  { key: "publicRound5", phase: 7, bucket: "publicSale", share: 1, priceChf: 0.002 },
  { key: "publicRound6", phase: 8, bucket: "publicSale", share: 0.5, priceChf: 0.003 },
] as const satisfies readonly SalePhase[];

/** Percent of company profits spent buying back $CASL. */
export const BUYBACK_SHARE_OF_PROFITS = 5;

export type UseOfFundsKey =
  "parisClub" | "dapp" | "liquidity" | "operations" | "clubAssets" | "marketing";

/** Use of the sale proceeds, percent of the funds raised. Sums to 100. */
export const USE_OF_FUNDS = [
  { key: "parisClub", share: 65 },
  { key: "dapp", share: 10 },
  { key: "liquidity", share: 10 },
  { key: "operations", share: 8 },
  { key: "clubAssets", share: 5 },
  { key: "marketing", share: 2 },
] as const satisfies readonly { key: UseOfFundsKey; share: number }[];

export type StakingTierKey = "bronze" | "silver" | "gold" | "platinum";

export interface StakingTier {
  readonly key: StakingTierKey;
  readonly minStakeEur: number;
  /** Discounts in percent. */
  readonly eventsDiscount: number;
  readonly foodAndBeverageDiscount: number;
  readonly membershipDiscount: number;
  readonly lockDays: number;
  /** True when lockDays is a minimum ("at least 180 days"), false when it is the term. */
  readonly isMinimumLock: boolean;
  readonly hasEarlyEventAccess: boolean;
}

/** Staking tiers. Every tier gives early access to event tickets. */
export const STAKING_TIERS = [
  {
    key: "bronze",
    minStakeEur: 5_000,
    eventsDiscount: 10,
    foodAndBeverageDiscount: 5,
    membershipDiscount: 10,
    lockDays: 180,
    isMinimumLock: true,
    hasEarlyEventAccess: true,
  },
  {
    key: "silver",
    minStakeEur: 10_000,
    eventsDiscount: 15,
    foodAndBeverageDiscount: 10,
    membershipDiscount: 20,
    lockDays: 180,
    isMinimumLock: true,
    hasEarlyEventAccess: true,
  },
  {
    key: "gold",
    minStakeEur: 25_000,
    eventsDiscount: 20,
    foodAndBeverageDiscount: 15,
    membershipDiscount: 30,
    lockDays: 365,
    isMinimumLock: false,
    hasEarlyEventAccess: true,
  },
  {
    key: "platinum",
    minStakeEur: 50_000,
    eventsDiscount: 25,
    foodAndBeverageDiscount: 20,
    membershipDiscount: 40,
    lockDays: 365,
    isMinimumLock: false,
    hasEarlyEventAccess: true,
  },
] as const satisfies readonly StakingTier[];

export type RevenueStreamKey =
  "rwa" | "wine" | "estateBookings" | "membership" | "foodAndBeverage" | "staking";

/**
 * Revenue forecasts. Amounts per month; the spec names no currency for them.
 * `monthlyGrowth` is the percent by which a stream grows each month (compounded).
 */
export const REVENUE = {
  targetMonthly: 1_000_000,
  targetWithinYears: 5,
  streams: [
    { key: "rwa", monthly: 100_000, monthlyGrowth: 0 },
    { key: "wine", monthly: 50_000, monthlyGrowth: 0 },
    { key: "estateBookings", monthly: 5_000, monthlyGrowth: 10 },
    { key: "membership", monthly: 30_000, monthlyGrowth: 0 },
    { key: "foodAndBeverage", monthly: 20_000, monthlyGrowth: 2 },
    { key: "staking", monthly: 50_000, monthlyGrowth: 2 },
  ],
  /** Annual fees of the two membership tiers behind the ~30k per month. */
  membershipAnnualFees: [5_000, 10_000],
} as const satisfies {
  targetMonthly: number;
  targetWithinYears: number;
  streams: readonly { key: RevenueStreamKey; monthly: number; monthlyGrowth: number }[];
  membershipAnnualFees: readonly number[];
};

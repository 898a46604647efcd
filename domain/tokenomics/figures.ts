import {
  ALLOCATION,
  BUYBACK_SHARE_OF_PROFITS,
  FDV,
  REVENUE,
  STAKING_TIERS,
  TOTAL_SUPPLY,
  USE_OF_FUNDS,
  type AllocationKey,
  type StakingTier,
  type StakingTierKey,
  type UseOfFundsKey,
} from "./token-terms.ts";
import { LANGUAGE_TAGS, type Language } from "#i18n/config.ts";

/** The placeholders the tokenomics, home and FAQ texts use for token figures. */
export type TokenomicsFigures = Record<
  | "totalSupply"
  | "publicSaleShare"
  | "privateSaleShare"
  | "liquidityShare"
  | "treasuryShare"
  | "teamShare"
  | "ammShare"
  | "marketingShare"
  | "advisorsShare"
  | "partnersShare"
  | "stakingRewardsShare"
  | "airdropsShare"
  | "teamVesting"
  | "bronzeMin"
  | "silverMin"
  | "goldMin"
  | "platinumMin"
  | "bronzeLock"
  | "silverLock"
  | "goldLock"
  | "platinumLock"
  | "fundsParisClub"
  | "fundsDapp"
  | "fundsLiquidity"
  | "fundsOperations"
  | "fundsClubAssets"
  | "fundsMarketing"
  | "buybackShare"
  | "initialFdv"
  | "targetFdv"
  | "revenueTarget",
  string
>;

/** Sentence parts around formatted numbers; the numbers themselves come from Intl. */
const PHRASES: Record<
  Language,
  {
    /** `cliff` and `releases` are formatted numbers. */
    vesting: (cliff: string, releases: string, cliffDuration: string) => string;
    atLeast: (duration: string) => string;
    perMonthWithin: (amount: string, duration: string) => string;
  }
> = {
  en: {
    vesting: (cliff, releases) => `a ${cliff}-month cliff, then ${releases} monthly releases`,
    atLeast: (duration) => `at least ${duration}`,
    perMonthWithin: (amount, duration) => `${amount} per month within ${duration}`,
  },
  fr: {
    vesting: (_cliff, releases, cliffDuration) =>
      `un blocage de ${cliffDuration}, puis ${releases} déblocages mensuels`,
    atLeast: (duration) => `au moins ${duration}`,
    perMonthWithin: (amount, duration) => `${amount} par mois d’ici ${duration}`,
  },
  it: {
    vesting: (_cliff, releases, cliffDuration) =>
      `un blocco di ${cliffDuration}, poi ${releases} sblocchi mensili`,
    atLeast: (duration) => `almeno ${duration}`,
    perMonthWithin: (amount, duration) => `${amount} al mese entro ${duration}`,
  },
  zh: {
    vesting: (_cliff, releases, cliffDuration) =>
      `锁定${cliffDuration}，随后分${releases}个月按月释放`,
    atLeast: (duration) => `至少${duration}`,
    perMonthWithin: (amount, duration) => `${duration}内每月${amount}`,
  },
};

function tag(language: Language): string {
  return LANGUAGE_TAGS[language];
}

/** A percent given as a percent (20 → "20%", "20 %" in French, "4,5 %"). */
export function formatPercent(percent: number, language: Language): string {
  return new Intl.NumberFormat(tag(language), {
    style: "percent",
    maximumFractionDigits: 2,
  }).format(percent / 100);
}

/** A whole amount of euros with the currency code ("EUR 5,000", "5 000 EUR"). */
export function formatEur(amount: number, language: Language): string {
  return new Intl.NumberFormat(tag(language), {
    style: "currency",
    currency: "EUR",
    currencyDisplay: "code",
    maximumFractionDigits: 0,
  }).format(amount);
}

/** A count of days, months or years in words ("180 days", "12 mesi", "5年"). */
export function formatDuration(
  value: number,
  unit: "day" | "month" | "year",
  language: Language,
): string {
  return new Intl.NumberFormat(tag(language), {
    style: "unit",
    unit,
    unitDisplay: "long",
  }).format(value);
}

/** The lock of a staking tier: "at least 180 days" or "365 days". */
export function formatStakingLock(
  tier: Pick<StakingTier, "lockDays" | "isMinimumLock">,
  language: Language,
): string {
  const duration = formatDuration(tier.lockDays, "day", language);
  return tier.isMinimumLock ? PHRASES[language].atLeast(duration) : duration;
}

function compact(value: number, language: Language, options: Intl.NumberFormatOptions = {}) {
  return new Intl.NumberFormat(tag(language), {
    notation: "compact",
    maximumFractionDigits: 1,
    ...options,
  }).format(value);
}

function allocationShare(key: AllocationKey): number {
  return find(ALLOCATION, key).share;
}

function fundsShare(key: UseOfFundsKey): number {
  return find(USE_OF_FUNDS, key).share;
}

function tier(key: StakingTierKey): StakingTier {
  return find(STAKING_TIERS, key);
}

function find<T extends { key: string }>(items: readonly T[], key: T["key"]): T {
  const item = items.find((candidate) => candidate.key === key);
  // The keys are typed from the content, so this only fires if the content loses an item.
  if (!item) throw new Error(`tokenomics content has no item "${key}"`);
  return item;
}

/**
 * Every token figure the site's texts quote, formatted for `language` with Intl, all derived
 * from token-terms.ts so no page can contradict another.
 */
export function tokenomicsFigures(language: Language): TokenomicsFigures {
  const percent = (value: number) => formatPercent(value, language);
  const number = (value: number) => new Intl.NumberFormat(tag(language)).format(value);
  const chf = (value: number) =>
    compact(value, language, { style: "currency", currency: "CHF", currencyDisplay: "code" });
  const team = find(ALLOCATION, "team");
  const phrases = PHRASES[language];

  return {
    totalSupply: compact(TOTAL_SUPPLY, language, { compactDisplay: "long" }),
    publicSaleShare: percent(allocationShare("publicSale")),
    privateSaleShare: percent(allocationShare("privateSale")),
    liquidityShare: percent(allocationShare("liquidity")),
    treasuryShare: percent(allocationShare("treasury")),
    teamShare: percent(allocationShare("team")),
    ammShare: percent(allocationShare("amm")),
    marketingShare: percent(allocationShare("marketing")),
    advisorsShare: percent(allocationShare("advisors")),
    partnersShare: percent(allocationShare("partners")),
    stakingRewardsShare: percent(allocationShare("stakingRewards")),
    airdropsShare: percent(allocationShare("airdrops")),
    teamVesting: phrases.vesting(
      number(team.cliffMonths),
      number(team.releaseMonths),
      formatDuration(team.cliffMonths, "month", language),
    ),
    bronzeMin: formatEur(tier("bronze").minStakeEur, language),
    silverMin: formatEur(tier("silver").minStakeEur, language),
    goldMin: formatEur(tier("gold").minStakeEur, language),
    platinumMin: formatEur(tier("platinum").minStakeEur, language),
    bronzeLock: formatStakingLock(tier("bronze"), language),
    silverLock: formatStakingLock(tier("silver"), language),
    goldLock: formatStakingLock(tier("gold"), language),
    platinumLock: formatStakingLock(tier("platinum"), language),
    fundsParisClub: percent(fundsShare("parisClub")),
    fundsDapp: percent(fundsShare("dapp")),
    fundsLiquidity: percent(fundsShare("liquidity")),
    fundsOperations: percent(fundsShare("operations")),
    fundsClubAssets: percent(fundsShare("clubAssets")),
    fundsMarketing: percent(fundsShare("marketing")),
    buybackShare: percent(BUYBACK_SHARE_OF_PROFITS),
    initialFdv: chf(FDV.initialChf),
    targetFdv: chf(FDV.targetChf),
    revenueTarget: phrases.perMonthWithin(
      compact(REVENUE.targetMonthly, language),
      formatDuration(REVENUE.targetWithinYears, "year", language),
    ),
  };
}

import { describe, expect, it } from "vitest";
import { LANGUAGES } from "#i18n/config.ts";
import { tokenomicsFigures } from "./figures.ts";
import { ALLOCATION, STAKING_TIERS, USE_OF_FUNDS } from "./token-terms.ts";

/** Intl puts no-break spaces (U+00A0, U+202F) in French figures; compare them as spaces. */
function plain(figures: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(figures).map(([key, value]) => [key, value.replace(/[\u00a0\u202f]/g, " ")]),
  );
}

describe("tokenomicsFigures", () => {
  it("reads the figures in English", () => {
    expect(plain(tokenomicsFigures("en"))).toMatchObject({
      totalSupply: "10 billion",
      publicSaleShare: "20%",
      privateSaleShare: "20%",
      liquidityShare: "15%",
      treasuryShare: "15%",
      teamShare: "10%",
      ammShare: "6%",
      marketingShare: "4.5%",
      advisorsShare: "3%",
      partnersShare: "3%",
      stakingRewardsShare: "2.5%",
      airdropsShare: "1%",
      teamVesting: "a 12-month cliff, then 48 monthly releases",
      bronzeMin: "EUR 5,000",
      platinumMin: "EUR 50,000",
      bronzeLock: "at least 180 days",
      goldLock: "365 days",
      fundsParisClub: "65%",
      fundsMarketing: "2%",
      buybackShare: "5%",
      initialFdv: "CHF 10M",
      targetFdv: "CHF 30M",
      revenueTarget: "1M per month within 5 years",
    });
  });

  it("reads the figures in French, with French spacing and decimal commas", () => {
    expect(plain(tokenomicsFigures("fr"))).toMatchObject({
      totalSupply: "10 milliards",
      publicSaleShare: "20 %",
      marketingShare: "4,5 %",
      teamVesting: "un blocage de 12 mois, puis 48 déblocages mensuels",
      bronzeMin: "5 000 EUR",
      bronzeLock: "au moins 180 jours",
      goldLock: "365 jours",
      initialFdv: "10 M CHF",
      revenueTarget: "1 M par mois d’ici 5 ans",
    });
  });

  it("reads the figures in Italian", () => {
    expect(plain(tokenomicsFigures("it"))).toMatchObject({
      totalSupply: "10 miliardi",
      stakingRewardsShare: "2,5%",
      goldMin: "25.000 EUR",
      bronzeLock: "almeno 180 giorni",
      goldLock: "365 giorni",
      targetFdv: "30 Mln CHF",
    });
  });

  it("reads the figures in Chinese, counting in 万 and 亿", () => {
    expect(plain(tokenomicsFigures("zh"))).toMatchObject({
      totalSupply: "100亿",
      teamShare: "10%",
      bronzeLock: "至少180天",
      goldLock: "365天",
      revenueTarget: "5年内每月100万",
    });
  });

  it("fills every placeholder in every language", () => {
    const keys = Object.keys(tokenomicsFigures("en")).sort();
    // A figure for every term the texts quote: each allocation's share, each staking tier's
    // minimum and lock, each use of the funds (capitalised after `funds`).
    const capitalised = (key: string) => key[0]!.toUpperCase() + key.slice(1);
    expect(keys).toEqual(
      expect.arrayContaining([
        ...ALLOCATION.map((item) => `${item.key}Share`),
        ...STAKING_TIERS.flatMap((item) => [`${item.key}Min`, `${item.key}Lock`]),
        ...USE_OF_FUNDS.map((item) => `funds${capitalised(item.key)}`),
      ]),
    );
    for (const language of LANGUAGES) {
      const figures = tokenomicsFigures(language);
      expect(Object.keys(figures).sort()).toEqual(keys);
      for (const [key, value] of Object.entries(figures)) {
        expect(value.trim(), `${language}.${key}`).not.toBe("");
        expect(value, `${language}.${key}`).not.toMatch(/undefined|NaN/);
      }
    }
  });
});

import fc from "fast-check";
import { draftOffer } from "../offers/build-offer.ts";
import { describe, expect, it } from "vitest";
import { addDays } from "../calendar/nights.ts";
import { refundablePercent, refundDue } from "./cancellation.ts";
import {
  CURRENCIES,
  formatMoney,
  includedTax,
  MAX_AMOUNT,
  roundHalfUp,
  share,
  toMajorString,
} from "./money.ts";
import { MAX_QUOTE_NIGHTS, quoteStay, totalsOf } from "./quote.ts";
import { CANCELLATION_POLICIES, type Rates, ratesSchema } from "./rates.schema.ts";

const TODAY = "2027-03-01";

/** A plausible estate: €850 a night, 8 guests included, €60 per extra guest, €250 cleaning. */
const RATES: Rates = ratesSchema.parse({
  currency: "EUR",
  nightly: 85_000,
  minNights: 2,
  includedGuests: 8,
  extraGuestNightly: 6_000,
  cleaningFee: 25_000,
  taxPercent: 10,
  taxIncluded: true,
  depositPercent: 30,
  balanceDueDays: 30,
  cancellationPolicy: "moderate",
  seasons: [{ start: "2027-07-01", end: "2027-09-01", nightly: 120_000, minNights: 7 }],
});

describe("money", () => {
  it("rounds halves away from zero, and nothing else", () => {
    expect(roundHalfUp(5, 2)).toBe(3);
    expect(roundHalfUp(-5, 2)).toBe(-3);
    expect(roundHalfUp(4, 3)).toBe(1);
    expect(roundHalfUp(5, 3)).toBe(2);
    expect(roundHalfUp(0, 7)).toBe(0);
    expect(() => roundHalfUp(1.5, 2)).toThrow(RangeError);
  });

  it("takes shares and included tax in whole minor units that add back up", () => {
    // 30 % of €1,234.55 is €370.365: €370.37.
    expect(share(123_455, 3_000)).toBe(37_037);
    // €110.00 with 10 % included: net €100.00, tax €10.00.
    expect(includedTax(11_000, 1_000)).toBe(1_000);
    // €99.99 with 20 % included: net €83.325 rounds to €83.33, tax €16.66.
    expect(includedTax(9_999, 2_000)).toBe(1_666);
  });

  it("writes amounts for CSV and for each reader's locale", () => {
    expect(toMajorString(123_405, "GBP")).toBe("1234.05");
    expect(toMajorString(-5, "EUR")).toBe("-0.05");
    expect(formatMoney(123_450, "EUR", "en")).toBe("€1,234.50");
    expect(formatMoney(123_450, "EUR", "fr").replace(/\s/g, " ")).toBe("1 234,50 €");
    expect(formatMoney(123_450, "CHF", "it")).toContain("1234,50");
    expect(formatMoney(210_000, "GBP", "en", { wholeWhenRound: true })).toBe("£2,100");
    expect(formatMoney(210_050, "GBP", "en", { wholeWhenRound: true })).toBe("£2,100.50");
  });
});

describe("rates", () => {
  it("refuses overlapping seasons, a season ending before it starts, and bad amounts", () => {
    const issues = (input: object) =>
      ratesSchema.safeParse({ ...RATES, ...input }).error?.issues.map((issue) => issue.message);
    expect(
      issues({
        seasons: [
          { start: "2027-07-01", end: "2027-08-01", nightly: 1 },
          { start: "2027-07-31", end: "2027-09-01", nightly: 1 },
        ],
      }),
    ).toEqual(["pricing.seasonsOverlap"]);
    expect(issues({ seasons: [{ start: "2027-07-01", end: "2027-07-01", nightly: 1 }] })).toEqual([
      "pricing.seasonEndBeforeStart",
    ]);
    expect(issues({ nightly: 0 })).toEqual(["pricing.nightly"]);
    expect(issues({ nightly: 10.5 })).toEqual(["pricing.nightly"]);
    expect(issues({ cleaningFee: MAX_AMOUNT + 1 })).toEqual(["pricing.amountTooLarge"]);
    expect(issues({ currency: "BTC" })).toEqual(["pricing.currency"]);
    expect(issues({ taxPercent: 7.555 })).toEqual(["pricing.taxPercent"]);
    expect(issues({ depositPercent: 101 })).toEqual(["pricing.depositPercent"]);
    // Seasons that touch (one's end is the next one's start) do not overlap.
    expect(
      issues({
        seasons: [
          { start: "2027-07-01", end: "2027-08-01", nightly: 1 },
          { start: "2027-08-01", end: "2027-09-01", nightly: 1 },
        ],
      }),
    ).toBeUndefined();
  });
});

describe("a quote", () => {
  it("prices a stay across a season's start line by line", () => {
    const quote = quoteStay(
      RATES,
      { checkIn: "2027-06-28", checkOut: "2027-07-05", guests: 10 },
      TODAY,
    );
    expect(quote).toEqual({
      ok: true,
      price: {
        currency: "EUR",
        nights: 7,
        lines: [
          { code: "nights", quantity: 3, unitAmount: 85_000, amount: 255_000, season: null },
          {
            code: "nights",
            quantity: 4,
            unitAmount: 120_000,
            amount: 480_000,
            season: { start: "2027-07-01", end: "2027-09-01" },
          },
          { code: "extra_guests", quantity: 14, unitAmount: 6_000, amount: 84_000 },
          { code: "cleaning", quantity: 1, unitAmount: 25_000, amount: 25_000 },
        ],
        taxIncluded: true,
        // 844,000 holds 10 % tax: net 767,272.73 → 767,273; tax 76,727.
        tax: 76_727,
        total: 844_000,
        deposit: 253_200,
        balance: 590_800,
        balanceDueOn: "2027-05-29",
        minNights: 2,
      },
    });
  });

  it("adds tax on top where the estate's country prices without it", () => {
    const quote = quoteStay(
      { ...RATES, taxIncluded: false, taxPercent: 7.5 },
      { checkIn: "2027-04-10", checkOut: "2027-04-12", guests: 2 },
      TODAY,
    );
    if (!quote.ok) throw new Error("no price");
    // Two nights and cleaning: 195,000; 7.5 % on top is 14,625.
    expect(quote.price.tax).toBe(14_625);
    expect(quote.price.total).toBe(209_625);
  });

  it("asks for everything at once when the balance would be due already", () => {
    const quote = quoteStay(
      RATES,
      { checkIn: addDays(TODAY, 20), checkOut: addDays(TODAY, 23), guests: 2 },
      TODAY,
    );
    if (!quote.ok) throw new Error("no price");
    expect(quote.price.deposit).toBe(quote.price.total);
    expect(quote.price.balance).toBe(0);
    expect(quote.price.balanceDueOn).toBeNull();
  });

  it("refuses a stay below the minimum from its check-in, a reversed one and a too long one", () => {
    expect(
      quoteStay(RATES, { checkIn: "2027-07-10", checkOut: "2027-07-15", guests: 2 }, TODAY),
    ).toEqual({ ok: false, refusal: { reason: "min_nights", minNights: 7 } });
    expect(
      quoteStay(RATES, { checkIn: "2027-04-10", checkOut: "2027-04-11", guests: 2 }, TODAY),
    ).toEqual({ ok: false, refusal: { reason: "min_nights", minNights: 2 } });
    expect(
      quoteStay(RATES, { checkIn: "2027-04-10", checkOut: "2027-04-10", guests: 2 }, TODAY),
    ).toEqual({ ok: false, refusal: { reason: "dates" } });
    expect(
      quoteStay(
        RATES,
        { checkIn: "2027-04-10", checkOut: addDays("2027-04-10", MAX_QUOTE_NIGHTS + 1), guests: 2 },
        TODAY,
      ),
    ).toEqual({ ok: false, refusal: { reason: "too_long", maxNights: MAX_QUOTE_NIGHTS } });
  });
});

describe("cancellation", () => {
  it("refunds by the policy's steps, from what was paid", () => {
    const checkIn = addDays(TODAY, 10);
    expect(refundablePercent("flexible", checkIn, TODAY)).toBe(100);
    expect(refundablePercent("moderate", checkIn, TODAY)).toBe(50);
    expect(refundablePercent("strict", checkIn, TODAY)).toBe(0);
    expect(refundablePercent("flexible", checkIn, checkIn)).toBe(0);
    // Half refundable of 100,000: the estate keeps 50,000; a 30,000 deposit comes back not at all,
    // a payment in full comes back 50,000.
    expect(refundDue("moderate", { total: 100_000, paid: 30_000, checkIn }, TODAY)).toBe(0);
    expect(refundDue("moderate", { total: 100_000, paid: 100_000, checkIn }, TODAY)).toBe(50_000);
    expect(refundDue("flexible", { total: 100_000, paid: 30_000, checkIn }, TODAY)).toBe(30_000);
  });
});

/** Rates with random seasons that never overlap. */
const ratesArbitrary: fc.Arbitrary<Rates> = fc
  .record({
    currency: fc.constantFrom(...CURRENCIES),
    nightly: fc.integer({ min: 1, max: 5_000_000 }),
    minNights: fc.integer({ min: 1, max: 5 }),
    includedGuests: fc.integer({ min: 1, max: 20 }),
    extraGuestNightly: fc.integer({ min: 0, max: 100_000 }),
    cleaningFee: fc.integer({ min: 0, max: 1_000_000 }),
    taxPercent: fc.integer({ min: 0, max: 5_000 }).map((points) => points / 100),
    taxIncluded: fc.boolean(),
    depositPercent: fc.integer({ min: 0, max: 10_000 }).map((points) => points / 100),
    balanceDueDays: fc.integer({ min: 0, max: 90 }),
    cancellationPolicy: fc.constantFrom(...CANCELLATION_POLICIES),
    seasons: fc
      .array(
        fc.record({
          gap: fc.integer({ min: 0, max: 40 }),
          length: fc.integer({ min: 1, max: 60 }),
          nightly: fc.integer({ min: 1, max: 5_000_000 }),
          minNights: fc.option(fc.integer({ min: 1, max: 5 }), { nil: undefined }),
        }),
        { maxLength: 6 },
      )
      .map((specs) => {
        let at = TODAY;
        return specs.map(({ gap, length, nightly, minNights }) => {
          const start = addDays(at, gap);
          at = addDays(start, length);
          return { start, end: at, nightly, ...(minNights ? { minNights } : {}) };
        });
      }),
  })
  .map((rates) => ratesSchema.parse(rates));

describe("money, whatever the rates, the stay and the discount", () => {
  it("adds up: lines make the total, deposit and balance make the total, all whole", () => {
    fc.assert(
      fc.property(
        ratesArbitrary,
        fc.integer({ min: 0, max: 300 }),
        fc.integer({ min: 1, max: 60 }),
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 0, max: 50_000 }),
        (rates, offset, nights, guests, discountAmount) => {
          const checkIn = addDays(TODAY, offset);
          const quote = quoteStay(
            rates,
            { checkIn, checkOut: addDays(checkIn, nights), guests },
            TODAY,
          );
          if (!quote.ok) {
            expect(quote.refusal.reason).toBe("min_nights");
            return;
          }
          const { price } = quote;
          // A discount as staff give one on an offer, never beyond the lines.
          const sum = price.lines.reduce((total, line) => total + line.amount, 0);
          const discount = Math.min(discountAmount, sum);
          const lines = [
            ...price.lines,
            { code: "discount" as const, quantity: 1, unitAmount: -discount, amount: -discount },
          ];
          for (const { lines: shown, totals } of [
            { lines: price.lines, totals: price },
            { lines, totals: totalsOf(lines, rates, checkIn, TODAY) },
          ]) {
            const linesSum = shown.reduce((total, line) => total + line.amount, 0);
            for (const line of shown) expect(line.amount).toBe(line.quantity * line.unitAmount);
            expect(totals.total).toBe(rates.taxIncluded ? linesSum : linesSum + totals.tax);
            expect(totals.deposit + totals.balance).toBe(totals.total);
            for (const amount of [totals.tax, totals.total, totals.deposit, totals.balance]) {
              expect(Number.isSafeInteger(amount)).toBe(true);
              expect(amount).toBeGreaterThanOrEqual(0);
            }
            expect(totals.tax).toBeLessThanOrEqual(totals.total);
          }
          expect(price.nights).toBe(nights);
        },
      ),
      { numRuns: 500 },
    );
  });

  it("drafts offers that add up, whatever lines, discount and deposit staff choose", () => {
    const now = new Date(`${TODAY}T09:00:00Z`);
    fc.assert(
      fc.property(
        ratesArbitrary,
        fc.array(
          fc.record({
            code: fc.constantFrom("nights", "extra_guests", "cleaning", "extra") as fc.Arbitrary<
              "nights" | "extra_guests" | "cleaning" | "extra"
            >,
            quantity: fc.integer({ min: 1, max: 60 }),
            unitAmount: fc.integer({ min: 1, max: 5_000_000 }),
          }),
          { minLength: 1, maxLength: 8 },
        ),
        fc.option(fc.integer({ min: 1, max: 50_000_000 }), { nil: undefined }),
        fc.option(fc.integer({ min: 0, max: 10_000 }), { nil: undefined }),
        fc.integer({ min: 1, max: 200 }),
        (rates, lines, discount, depositPoints, offset) => {
          const checkIn = addDays(TODAY, offset);
          const drafted = draftOffer(
            {
              lines: lines.map((line) => ({ ...line, text: "Extra" })),
              discount,
              depositPercent: depositPoints === undefined ? undefined : depositPoints / 100,
            },
            {
              propertyId: 1,
              rates,
              quoteLines: [],
              stay: { checkIn, checkOut: addDays(checkIn, 3), guests: 2 },
              now,
              offerHours: 72,
            },
          );
          const sum =
            lines.reduce((total, line) => total + line.quantity * line.unitAmount, 0) -
            (discount ?? 0);
          if (!drafted.ok) {
            expect(sum).toBeLessThanOrEqual(0);
            return;
          }
          const { draft } = drafted;
          expect(draft.lines.reduce((total, line) => total + line.amount, 0)).toBe(sum);
          expect(draft.total).toBe(rates.taxIncluded ? sum : sum + draft.tax);
          expect(draft.deposit + draft.balance).toBe(draft.total);
          for (const amount of [draft.tax, draft.total, draft.deposit, draft.balance])
            expect(Number.isSafeInteger(amount) && amount >= 0).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("never refunds more than was paid", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...CANCELLATION_POLICIES),
        fc.integer({ min: 0, max: MAX_AMOUNT }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.integer({ min: -5, max: 60 }),
        (policy, total, paidShare, daysBefore) => {
          const paid = Math.floor(total * paidShare);
          const refund = refundDue(
            policy,
            { total, paid, checkIn: addDays(TODAY, daysBefore) },
            TODAY,
          );
          expect(Number.isSafeInteger(refund)).toBe(true);
          expect(refund).toBeGreaterThanOrEqual(0);
          expect(refund).toBeLessThanOrEqual(paid);
        },
      ),
      { numRuns: 500 },
    );
  });
});

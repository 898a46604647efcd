/**
 * Money as Castellum counts it: integer minor units (cents, pence, centimes) of one currency,
 * never a float. Every amount derived from another (a percentage, a tax share, a conversion) is
 * rounded once, by `roundHalfUp`, where it is derived; sums and differences of rounded amounts
 * are exact, so lines always add up to the total they print. docs/decisions/0032.
 */

/** The currencies an estate may price in. Each has two minor digits. */
export const CURRENCIES = ["EUR", "GBP", "USD", "CHF"] as const;
export type Currency = (typeof CURRENCIES)[number];

export const isCurrency = (value: unknown): value is Currency =>
  typeof value === "string" && (CURRENCIES as readonly string[]).includes(value);

/** Minor units in one major unit, per currency (all four: 100). */
export const MINOR_PER_MAJOR: Record<Currency, number> = { EUR: 100, GBP: 100, USD: 100, CHF: 100 };

/**
 * The largest amount Castellum stores, in minor units: 100 million in the major unit, far
 * above any stay, and small enough that a product with a percentage in hundredths (below
 * 10^4) stays an exact integer in a double (below 2^53).
 */
export const MAX_AMOUNT = 10_000_000_000;

/** Percentages are held in hundredths of a percent (basis points): 7.5 % is 750. */
export const BASIS_POINTS_PER_PERCENT = 100;
export const FULL_BASIS_POINTS = 100 * BASIS_POINTS_PER_PERCENT;

/**
 * `numerator / denominator` rounded to the nearest integer, halves away from zero: the one
 * rounding rule. Both in integers, so the division is the only inexact step.
 */
export function roundHalfUp(numerator: number, denominator: number): number {
  if (!Number.isSafeInteger(numerator) || !Number.isSafeInteger(denominator) || denominator <= 0)
    throw new RangeError(`roundHalfUp needs safe integers and a positive denominator`);
  const sign = numerator < 0 ? -1 : 1;
  const magnitude = Math.abs(numerator);
  const quotient = Math.floor(magnitude / denominator);
  const remainder = magnitude - quotient * denominator;
  return sign * (remainder * 2 >= denominator ? quotient + 1 : quotient);
}

/** `basisPoints` hundredths of a percent of `amount`, rounded once. */
export function share(amount: number, basisPoints: number): number {
  return roundHalfUp(amount * basisPoints, FULL_BASIS_POINTS);
}

/**
 * The tax a tax-inclusive `gross` holds at `basisPoints`: gross minus the net it was made
 * from, the net rounded once (so net plus tax is gross exactly).
 */
export function includedTax(gross: number, basisPoints: number): number {
  const net = roundHalfUp(gross * FULL_BASIS_POINTS, FULL_BASIS_POINTS + basisPoints);
  return gross - net;
}

/** A percentage as the forms and the API write it (7.5) in basis points (750). */
export const percentToBasisPoints = (percent: number): number =>
  Math.round(percent * BASIS_POINTS_PER_PERCENT);

/** Basis points back to the percentage a person reads. */
export const basisPointsToPercent = (basisPoints: number): number =>
  basisPoints / BASIS_POINTS_PER_PERCENT;

/** An amount in minor units as a decimal string in the major unit, for CSV and logs ("1234.50"). */
export function toMajorString(amount: number, currency: Currency): string {
  const perMajor = MINOR_PER_MAJOR[currency];
  const digits = Math.round(Math.log10(perMajor));
  const sign = amount < 0 ? "-" : "";
  const magnitude = Math.abs(amount);
  const major = Math.floor(magnitude / perMajor);
  const minor = magnitude - major * perMajor;
  return `${sign}${major}.${String(minor).padStart(digits, "0")}`;
}

/**
 * An amount formatted for a reader of `locale` ("€1,234.50", "1 234,50 €"). `wholeWhenRound`
 * leaves out the minor digits of a round amount ("from £2,100 a night").
 */
export function formatMoney(
  amount: number,
  currency: Currency,
  locale: string,
  options: { wholeWhenRound?: boolean } = {},
): string {
  const perMajor = MINOR_PER_MAJOR[currency];
  const round = options.wholeWhenRound && amount % perMajor === 0;
  return new Intl.NumberFormat(locale, {
    style: "currency",
    currency,
    ...(round ? { minimumFractionDigits: 0, maximumFractionDigits: 0 } : {}),
  }).format(amount / perMajor);
}

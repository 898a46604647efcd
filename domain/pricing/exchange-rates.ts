import { desc, sql } from "drizzle-orm";
import type { Database } from "#db/client.ts";
import { exchangeRates } from "#db/schema/index.ts";
import { nowOf } from "../clock.ts";
import type { Deps } from "../deps.ts";
import { OutboundFetchError, type OutboundPolicy, safeFetch } from "../outbound/safe-fetch.ts";
import { CURRENCIES, type Currency, MINOR_PER_MAJOR } from "./money.ts";

/**
 * The approximate price of a stay in the guest's own currency: the ECB's daily euro reference
 * rates (`eurofxref-daily.xml`), read from EXCHANGE_RATES_URL through the outbound address
 * guard once a day and kept in `exchange_rates`. Only a display: every amount a guest is asked
 * for stays in the estate's currency, and nothing here touches an offer or a payment.
 */

/** Units of each currency per euro, as the ECB wrote them (exact decimals), and their day. */
export interface ExchangeRates {
  /** The day the ECB set the rates, 'YYYY-MM-DD'. */
  asOf: string;
  /** A positive decimal string per currency; the euro's is "1". */
  rates: Record<Currency, string>;
}

/** The rates on record, and when this site fetched them. */
export type StoredExchangeRates = ExchangeRates & { fetchedAt: Date };

/** The largest file read, in bytes: the ECB's daily file is under 2 KB. */
export const MAX_RATES_BYTES = 64 * 1024;
/** The most currencies a file may list: the ECB lists about thirty. */
export const MAX_RATES_CURRENCIES = 100;
/** Rates on record younger than this are not fetched again: the ECB publishes once a day. */
export const RATES_REFRESH_MS = 24 * 60 * 60_000;
/** The whole fetch of the file, redirects included, unless the caller's policy says less. */
const FETCH_TIMEOUT_MS = 10_000;

/** The currencies a file must quote: every one an estate may price in, but the euro. */
const QUOTED: readonly Currency[] = CURRENCIES.filter((currency) => currency !== "EUR");

/** Why a rates file was refused: a short English detail for the log. */
export class ExchangeRatesError extends Error {
  readonly detail: string;
  constructor(detail: string) {
    super(`bad rates file: ${detail}`);
    this.name = "ExchangeRatesError";
    this.detail = detail;
  }
}

/**
 * One token of the file: the XML declaration, a comment, an end tag, a start or empty tag
 * (name, attributes, the closing slash), or text. Anything else (a DOCTYPE, CDATA, a processing
 * instruction, a stray `<`) matches nothing and refuses the file: no DTD, so no entities.
 */
const TOKEN =
  /<\?xml\s[^<>?]*\?>|<!--(?:(?!--)[\s\S])*-->|<\/([A-Za-z_][\w.:-]*)\s*>|<([A-Za-z_][\w.:-]*)((?:\s+[A-Za-z_][\w.:-]*\s*=\s*(?:"[^"<&]*"|'[^'<&]*'))*)\s*(\/?)>|([^<]+)/y;
const ATTRIBUTE = /\s+([A-Za-z_][\w.:-]*)\s*=\s*(?:"([^"<&]*)"|'([^'<&]*)')/y;
/** Text may hold the five predefined entities and character references, no other `&`. */
const BAD_AMPERSAND = /&(?!(?:amp|lt|gt|quot|apos|#\d{1,7}|#x[\dA-Fa-f]{1,6});)/;
/** A rate as the ECB writes one: digits, a point and more digits ("1.0812", "158.61"). */
const RATE = /^\d{1,12}(?:\.\d{1,12})?$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
/** The file nests four deep (envelope, Cube, day, rate); a little room, no more. */
const MAX_DEPTH = 8;

function attributesOf(text: string): Map<string, string> {
  const attributes = new Map<string, string>();
  ATTRIBUTE.lastIndex = 0;
  while (ATTRIBUTE.lastIndex < text.length) {
    const match = ATTRIBUTE.exec(text);
    if (!match) throw new ExchangeRatesError("an unreadable attribute");
    if (attributes.has(match[1]!)) throw new ExchangeRatesError(`attribute ${match[1]} twice`);
    attributes.set(match[1]!, match[2] ?? match[3] ?? "");
  }
  return attributes;
}

/** Whether `text` is a real calendar day 'YYYY-MM-DD'. */
function isCalendarDay(text: string): boolean {
  const match = DATE.exec(text);
  if (!match) return false;
  const day = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return day.toISOString().slice(0, 10) === text;
}

/** Whether an element has exactly these attributes. */
function hasExactly(attributes: Map<string, string>, names: string[]): boolean {
  return attributes.size === names.length && names.every((name) => attributes.has(name));
}

/**
 * Reads the ECB's daily reference-rate file: a `gesmes:Envelope` holding one `Cube` of one day
 * (`<Cube time="YYYY-MM-DD">`) of `<Cube currency="USD" rate="1.0812"/>`. Read strictly, with
 * a tokenizer of its own rather than an XML library: the file is small and fixed, and what it
 * does not need (DTDs, entities, CDATA) is refused outright. A file is refused whole, with an
 * `ExchangeRatesError`, when it is over MAX_RATES_BYTES, not well-formed, not that shape, has no
 * day or more than one, lists a currency twice or more than MAX_RATES_CURRENCIES, has a rate
 * that is not a positive decimal (0, "NaN", "1e3"), or lacks a currency an estate may price in:
 * a file wrong in one place is not trusted in the others. Only those currencies are kept.
 */
export function parseEcbDailyRates(body: Buffer | string): ExchangeRates {
  const size = typeof body === "string" ? Buffer.byteLength(body, "utf8") : body.length;
  if (size > MAX_RATES_BYTES)
    throw new ExchangeRatesError(`larger than ${MAX_RATES_BYTES / 1024} KB`);
  let text: string;
  try {
    text = typeof body === "string" ? body : new TextDecoder("utf-8", { fatal: true }).decode(body);
  } catch {
    throw new ExchangeRatesError("not UTF-8");
  }
  text = text.replace(/^\uFEFF/, "");

  const stack: string[] = [];
  let rootSeen = false;
  let asOf: string | null = null;
  let outerCubes = 0;
  const listed = new Map<string, string>();
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < text.length) {
    const at = TOKEN.lastIndex;
    const token = TOKEN.exec(text);
    if (!token) throw new ExchangeRatesError(`not well-formed XML at character ${at}`);
    const [whole, endName, startName, attributeText, selfClosing, characters] = token;
    const parent = stack.at(-1);
    if (characters !== undefined) {
      const meaningful = characters.trim() !== "";
      // Words belong in the envelope's own elements (subject, sender's name); the rest is layout.
      if (meaningful && !parent?.startsWith("gesmes:"))
        throw new ExchangeRatesError("text outside the envelope's own elements");
      if (BAD_AMPERSAND.test(characters)) throw new ExchangeRatesError("an unreadable entity");
    } else if (whole.startsWith("<?xml")) {
      if (at !== 0) throw new ExchangeRatesError("an XML declaration after the start");
    } else if (endName !== undefined) {
      if (stack.pop() !== endName) throw new ExchangeRatesError(`an unexpected </${endName}>`);
    } else if (startName !== undefined) {
      const attributes = attributesOf(attributeText ?? "");
      if (parent === undefined) {
        if (rootSeen || startName !== "gesmes:Envelope")
          throw new ExchangeRatesError("not a gesmes:Envelope");
        rootSeen = true;
      } else if (startName === "Cube") {
        // The three levels: the envelope's Cube, its day, the day's rates.
        const level = stack.filter((name) => name === "Cube").length;
        if (level !== stack.length - 1) throw new ExchangeRatesError("a Cube out of place");
        if (level === 0) {
          if (attributes.size !== 0 || ++outerCubes > 1)
            throw new ExchangeRatesError("not one Cube of days");
        } else if (level === 1) {
          const time = attributes.get("time");
          if (!hasExactly(attributes, ["time"]) || !time || !isCalendarDay(time))
            throw new ExchangeRatesError("a day that is not YYYY-MM-DD");
          if (asOf !== null) throw new ExchangeRatesError("more than one day");
          asOf = time;
        } else if (level === 2) {
          const currency = attributes.get("currency") ?? "";
          const rate = attributes.get("rate") ?? "";
          if (!hasExactly(attributes, ["currency", "rate"]) || !/^[A-Z]{3}$/.test(currency))
            throw new ExchangeRatesError("a rate that is not a currency code and a rate alone");
          if (currency === "EUR") throw new ExchangeRatesError("a rate for the euro itself");
          if (listed.has(currency)) throw new ExchangeRatesError(`${currency} listed twice`);
          if (!RATE.test(rate) || !(Number(rate) > 0) || !Number.isFinite(Number(rate)))
            throw new ExchangeRatesError(`${currency} at ${JSON.stringify(rate.slice(0, 20))}`);
          listed.set(currency, rate);
          if (listed.size > MAX_RATES_CURRENCIES)
            throw new ExchangeRatesError(`more than ${MAX_RATES_CURRENCIES} currencies`);
        } else throw new ExchangeRatesError("Cubes nested too deep");
      } else if (!startName.startsWith("gesmes:") || stack.includes("Cube"))
        throw new ExchangeRatesError(`an unexpected <${startName}>`);
      if (selfClosing !== "/") {
        if (stack.length >= MAX_DEPTH) throw new ExchangeRatesError("elements nested too deep");
        stack.push(startName);
      }
    }
    // Comments carry nothing.
  }
  if (!rootSeen || stack.length > 0) throw new ExchangeRatesError("not well-formed XML");
  if (asOf === null) throw new ExchangeRatesError("no day");
  const missing = QUOTED.filter((currency) => !listed.has(currency));
  if (missing.length > 0) throw new ExchangeRatesError(`no rate for ${missing.join(", ")}`);
  const rates = Object.fromEntries(
    CURRENCIES.map((currency) => [currency, currency === "EUR" ? "1" : listed.get(currency)!]),
  ) as Record<Currency, string>;
  return { asOf, rates };
}

/** A positive decimal string as an integer and a power of ten: "0.8761" is 8761 / 10^4. */
function decimalOf(rate: string): { digits: bigint; scale: bigint } {
  if (!RATE.test(rate)) throw new RangeError(`not a rate: ${rate}`);
  const [whole, fraction = ""] = rate.split(".");
  const digits = BigInt(`${whole}${fraction}`);
  if (digits <= 0n) throw new RangeError(`not a positive rate: ${rate}`);
  return { digits, scale: BigInt(fraction.length) };
}

/**
 * `amount` minor units of `from` in `to`, at `rates`, rounded to a whole unit of `to` (halves
 * away from zero) and given in minor units of `to` (so 123,400 cents, never 123,456): the one
 * rounding rule. An approximation shows no cents it cannot vouch for. The arithmetic is exact
 * (integers and the rates' decimals) up to that one rounding.
 */
export function convertApproximately(
  amount: number,
  from: Currency,
  to: Currency,
  rates: ExchangeRates,
): number {
  if (!Number.isSafeInteger(amount)) throw new RangeError("an amount is a safe integer");
  const source = decimalOf(rates.rates[from]);
  const target = decimalOf(rates.rates[to]);
  // amount / perMajor(from) / rate(from) × rate(to) whole units of `to`, as one fraction.
  const numerator = BigInt(amount) * target.digits * 10n ** source.scale;
  const denominator = BigInt(MINOR_PER_MAJOR[from]) * source.digits * 10n ** target.scale;
  const sign = numerator < 0n ? -1n : 1n;
  const magnitude = numerator < 0n ? -numerator : numerator;
  const quotient = magnitude / denominator;
  const whole = (magnitude % denominator) * 2n >= denominator ? quotient + 1n : quotient;
  return Number(sign * whole * BigInt(MINOR_PER_MAJOR[to]));
}

/** A price in the guest's currency, for display only. */
export interface ApproximatePrice {
  currency: Currency;
  total: number;
  deposit: number;
  /** The day of the rates it was converted at. */
  asOf: string;
}

/**
 * A price's total and deposit in `display`, or null when there is nothing to show: no display
 * currency, the price's own, or no rates on record.
 */
export function approximatePrice(
  price: { currency: Currency; total: number; deposit: number },
  display: Currency | undefined,
  rates: ExchangeRates | null,
): ApproximatePrice | null {
  if (!display || display === price.currency || !rates) return null;
  return {
    currency: display,
    total: convertApproximately(price.total, price.currency, display, rates),
    deposit: convertApproximately(price.deposit, price.currency, display, rates),
    asOf: rates.asOf,
  };
}

/**
 * The rates on record, or null when none are known (never fetched, or a table missing one of
 * the currencies or holding a rate in another shape). Rates are not dropped for age: the day
 * they are of goes with every figure made from them.
 */
export async function readExchangeRates(deps: {
  db: Database;
}): Promise<StoredExchangeRates | null> {
  const rows = await deps.db.select().from(exchangeRates);
  const byCurrency = new Map(rows.map((row) => [row.currency, row]));
  if (!QUOTED.every((currency) => byCurrency.has(currency))) return null;
  const kept = QUOTED.map((currency) => byCurrency.get(currency)!);
  // One refresh writes every row; should they differ (an operator's hand), the oldest speaks.
  const asOf = kept.map((row) => row.asOf).sort()[0]!;
  const fetchedAt = new Date(Math.min(...kept.map((row) => row.fetchedAt.getTime())));
  const rates = Object.fromEntries(
    CURRENCIES.map((currency) => [
      currency,
      currency === "EUR" ? "1" : normalDecimal(byCurrency.get(currency)!.rate),
    ]),
  ) as Record<Currency, string>;
  // A refresh stores only rates the reader accepted; one edited by hand into another shape
  // does not reach the arithmetic.
  if (!Object.values(rates).every((rate) => RATE.test(rate))) return null;
  return { asOf, fetchedAt, rates };
}

/** A numeric as the database returns it ("0.876150"), without trailing zeros after the point. */
function normalDecimal(value: string): string {
  return value.includes(".") ? value.replace(/0+$/, "").replace(/\.$/, "") : value;
}

export type RefreshOutcome =
  /** The rates on record were fetched less than a day ago: nothing fetched. */
  | { outcome: "fresh"; fetchedAt: Date }
  | { outcome: "refreshed"; asOf: string }
  /** The fetch or the file failed; the rates on record (if any) stay. */
  | { outcome: "failed"; detail: string };

/**
 * Fetches the ECB's daily file from `url` and keeps its rates, unless the rates on record were
 * fetched less than RATES_REFRESH_MS ago by the deps clock: every instance may ask every hour,
 * and one fetch a day per database is made. The fetch goes through the outbound address guard
 * with a timeout and a size cap (the policy's, never more than MAX_RATES_BYTES). A failed fetch
 * or a refused file keeps the rates on record and is logged once, as a warning: the next pass
 * tries again. Two instances asking in the same moment may both fetch; they write the same day.
 */
export async function refreshExchangeRates(
  deps: Deps,
  options: { url: string; outbound: OutboundPolicy },
): Promise<RefreshOutcome> {
  const now = nowOf(deps);
  const [last] = await deps.db
    .select({ fetchedAt: exchangeRates.fetchedAt })
    .from(exchangeRates)
    .orderBy(desc(exchangeRates.fetchedAt))
    .limit(1);
  const lastFetched = last?.fetchedAt ?? null;
  if (lastFetched && now.getTime() - lastFetched.getTime() < RATES_REFRESH_MS)
    return { outcome: "fresh", fetchedAt: lastFetched };

  let read: ExchangeRates;
  try {
    const answer = await safeFetch(
      options.url,
      {
        ...options.outbound,
        timeoutMs: options.outbound.timeoutMs ?? FETCH_TIMEOUT_MS,
        maxBytes: Math.min(options.outbound.maxBytes ?? MAX_RATES_BYTES, MAX_RATES_BYTES),
      },
      {
        Accept: "application/xml, text/xml;q=0.9, */*;q=0.1",
        "User-Agent": "Castellum exchange rates",
      },
    );
    read = parseEcbDailyRates(answer.body);
  } catch (error) {
    if (!(error instanceof OutboundFetchError || error instanceof ExchangeRatesError)) throw error;
    const detail = error instanceof OutboundFetchError ? error.message : error.detail;
    deps.log.warn({ detail }, "exchange rates not refreshed: the rates on record stay");
    return { outcome: "failed", detail };
  }

  // One statement: readers see the rates of one day, the old or the new.
  await deps.db
    .insert(exchangeRates)
    .values(
      QUOTED.map((currency) => ({
        currency,
        rate: read.rates[currency],
        asOf: read.asOf,
        fetchedAt: now,
      })),
    )
    .onConflictDoUpdate({
      target: exchangeRates.currency,
      set: {
        rate: sql`excluded.rate`,
        asOf: sql`excluded.as_of`,
        fetchedAt: sql`excluded.fetched_at`,
      },
    });
  return { outcome: "refreshed", asOf: read.asOf };
}

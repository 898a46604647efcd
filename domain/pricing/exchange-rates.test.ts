import { readFileSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { join } from "node:path";
import { Writable } from "node:stream";
import pino from "pino";
import { beforeAll, describe, expect, it } from "vitest";
import { exchangeRates } from "#db/schema/index.ts";
import { serveFeeds } from "#tests/setup/feed-server.ts";
import { describeEachBackend, ROOT_DIR } from "#tests/setup/database.ts";
import { manualClock } from "../clock.ts";
import type { Deps } from "../deps.ts";
import type { OutboundPolicy } from "../outbound/safe-fetch.ts";
import {
  approximatePrice,
  convertApproximately,
  type ExchangeRates,
  ExchangeRatesError,
  MAX_RATES_BYTES,
  parseEcbDailyRates,
  RATES_REFRESH_MS,
  readExchangeRates,
  refreshExchangeRates,
} from "./exchange-rates.ts";

/** A copy of the ECB's daily file as it publishes it: 29 currencies, single quotes, tabs. */
const ECB_FILE = readFileSync(join(ROOT_DIR, "tests/fixtures/ecb/eurofxref-daily.xml"), "utf8");
const FIXTURE_RATES: ExchangeRates = {
  asOf: "2026-11-27",
  rates: { EUR: "1", GBP: "0.87615", USD: "1.1582", CHF: "0.9312" },
};

/** The fixture with its text changed: a hostile or broken variant of a real file. */
const variant = (from: string | RegExp, to: string) => ECB_FILE.replace(from, to);

describe("reading the ECB's daily file", () => {
  it("reads the day and keeps the currencies an estate may price in", () => {
    expect(ECB_FILE.match(/currency=/g)).toHaveLength(29);
    expect(parseEcbDailyRates(ECB_FILE)).toEqual(FIXTURE_RATES);
    expect(parseEcbDailyRates(Buffer.from(`\uFEFF${ECB_FILE}`))).toEqual(FIXTURE_RATES);
    // Double quotes, a comment and an empty element read the same.
    const reworded = variant(
      "<Cube currency='USD' rate='1.1582'/>",
      '<Cube currency="USD" rate="1.1582"></Cube><!-- spot -->',
    );
    expect(parseEcbDailyRates(reworded).rates.USD).toBe("1.1582");
  });

  it("refuses a file wrong anywhere, whole, saying where", () => {
    const fakeCodes = Array.from({ length: 80 }, (_, i) =>
      String.fromCharCode(88, 65 + (i % 26), 65 + Math.floor(i / 26)),
    );
    const refusals: [what: string, body: string | Buffer, detail: RegExp][] = [
      [
        "too large",
        variant("<Cube>", `<!--${"x".repeat(MAX_RATES_BYTES)}--><Cube>`),
        /larger than 64 KB/,
      ],
      ["truncated", ECB_FILE.slice(0, ECB_FILE.indexOf("CHF")), /not well-formed/],
      [
        "unclosed",
        variant("</Cube>\n</gesmes:Envelope>", "</gesmes:Envelope>"),
        /unexpected <\/gesmes:Envelope>/,
      ],
      [
        "crossed tags",
        variant("</gesmes:name>\n\t</gesmes:Sender>", "</gesmes:Sender>\n\t</gesmes:name>"),
        /unexpected <\/gesmes:Sender>/,
      ],
      [
        "a DTD",
        `<!DOCTYPE x [<!ENTITY a "1.2">]>${ECB_FILE.replace(/^<\?xml[^>]*>/, "")}`,
        /not well-formed XML at character 0/,
      ],
      ["an entity", variant("Reference rates", "Reference &rates;"), /unreadable entity/],
      ["an HTML page", "<!doctype html><title>Maintenance</title>", /not well-formed/],
      ["JSON", JSON.stringify(FIXTURE_RATES), /text outside/],
      ["another root", variant(/gesmes:Envelope/g, "gesmes:Other"), /not a gesmes:Envelope/],
      ["no day", variant("<Cube time='2026-11-27'>", "<Cube>"), /not YYYY-MM-DD/],
      ["an impossible day", variant("2026-11-27", "2026-02-30"), /not YYYY-MM-DD/],
      [
        "two days",
        variant(
          "<Cube time='2026-11-27'>",
          "<Cube time='2026-11-26'><Cube currency='USD' rate='1.15'/></Cube><Cube time='2026-11-27'>",
        ),
        /more than one day/,
      ],
      ["a rate of 0", variant("rate='1.1582'", "rate='0'"), /USD at "0"/],
      ["a rate of NaN", variant("rate='1.1582'", "rate='NaN'"), /USD at "NaN"/],
      ["a rate of Infinity", variant("rate='1.1582'", "rate='Infinity'"), /USD at "Infinity"/],
      ["a negative rate", variant("rate='1.1582'", "rate='-1.1582'"), /USD at "-1.1582"/],
      ["an exponent", variant("rate='1.1582'", "rate='1e3'"), /USD at "1e3"/],
      ["another currency's rate of 0", variant("rate='180.64'", "rate='0.0'"), /JPY at "0.0"/],
      [
        "a currency twice",
        variant("<Cube currency='JPY'", "<Cube currency='USD' rate='1.2'/><Cube currency='JPY'"),
        /USD listed twice/,
      ],
      [
        "the euro quoted",
        variant("<Cube currency='JPY'", "<Cube currency='EUR' rate='1'/><Cube currency='JPY'"),
        /the euro itself/,
      ],
      ["no CHF", variant("<Cube currency='CHF' rate='0.9312'/>", ""), /no rate for CHF/],
      [
        "an extra attribute",
        variant("rate='1.1582'", "rate='1.1582' note='x'"),
        /a currency code and a rate alone/,
      ],
      [
        "an attribute twice",
        variant("rate='1.1582'", "rate='1.1582' rate='2'"),
        /attribute rate twice/,
      ],
      [
        "text in a Cube",
        variant(
          "<Cube currency='USD' rate='1.1582'/>",
          "<Cube currency='USD' rate='1.1582'>1.2</Cube>",
        ),
        /text outside/,
      ],
      [
        "a Cube out of place",
        variant("<gesmes:name>", "<gesmes:name><Cube currency='USD' rate='1'/>"),
        /Cube out of place/,
      ],
      ["not UTF-8", Buffer.concat([Buffer.from(ECB_FILE), Buffer.from([0xff, 0xfe])]), /not UTF-8/],
      [
        "too many currencies",
        variant(
          "<Cube currency='ZAR'",
          `${fakeCodes.map((code) => `<Cube currency='${code}' rate='1'/>`).join("")}<Cube currency='ZAR'`,
        ),
        /more than 100 currencies/,
      ],
    ];
    for (const [what, body, detail] of refusals) {
      expect(() => parseEcbDailyRates(body), what).toThrow(ExchangeRatesError);
      expect(() => parseEcbDailyRates(body), what).toThrow(detail);
    }
  });
});

describe("converting approximately", () => {
  it("converts through the euro and rounds to a whole unit of the target", () => {
    // £950 is €1,084.29, and $1,255.82 at these rates.
    expect(convertApproximately(95_000, "GBP", "USD", FIXTURE_RATES)).toBe(125_600);
    expect(convertApproximately(95_000, "GBP", "EUR", FIXTURE_RATES)).toBe(108_400);
    expect(convertApproximately(100_000, "EUR", "GBP", FIXTURE_RATES)).toBe(87_600);
    expect(convertApproximately(1_234_567, "USD", "CHF", FIXTURE_RATES)).toBe(992_600);
    expect(convertApproximately(0, "EUR", "USD", FIXTURE_RATES)).toBe(0);
  });

  it("rounds halves away from zero, exactly", () => {
    const rates: ExchangeRates = {
      asOf: "2026-11-27",
      rates: { EUR: "1", GBP: "0.5", USD: "1.5", CHF: "3" },
    };
    // €1 is $1.50 exactly: 2. €0.33 is $0.495: 0. A refund the same way, below zero.
    expect(convertApproximately(100, "EUR", "USD", rates)).toBe(200);
    expect(convertApproximately(33, "EUR", "USD", rates)).toBe(0);
    expect(convertApproximately(-100, "EUR", "USD", rates)).toBe(-200);
    // £1 is €2 is CHF 6; $1 is CHF 2.
    expect(convertApproximately(100, "GBP", "CHF", rates)).toBe(600);
    expect(convertApproximately(100, "USD", "CHF", rates)).toBe(200);
    expect(() => convertApproximately(0.5, "EUR", "USD", rates)).toThrow(RangeError);
  });

  it("gives nothing to show without a display currency, in the price's own, or without rates", () => {
    const price = { currency: "GBP" as const, total: 95_000, deposit: 23_750 };
    expect(approximatePrice(price, "USD", FIXTURE_RATES)).toEqual({
      currency: "USD",
      total: 125_600,
      deposit: 31_400,
      asOf: "2026-11-27",
    });
    expect(approximatePrice(price, undefined, FIXTURE_RATES)).toBeNull();
    expect(approximatePrice(price, "GBP", FIXTURE_RATES)).toBeNull();
    expect(approximatePrice(price, "USD", null)).toBeNull();
  });
});

/** A logger that keeps its lines, warnings included, to count what a refresh logged. */
function keepingLogger() {
  const lines: { level: number; msg: string; detail?: string }[] = [];
  const log = pino(
    { level: "warn", base: undefined },
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(JSON.parse(chunk.toString("utf8")) as (typeof lines)[number]);
        done();
      },
    }),
  );
  return { log, lines };
}

describeEachBackend(
  "exchange rates kept from the ECB's file",
  (database) => {
    const server = serveFeeds();
    const clock = manualClock("2026-11-29T15:00:00Z");
    const logged = keepingLogger();
    const deps = (): Deps => ({ ...database().deps, clock, log: logged.log });
    const PATH = "/stats/eurofxref/eurofxref-daily.xml";
    /** Local addresses through, as the tests' own servers need; a short wait. */
    const outbound = { allowPrivateNetworks: true, timeoutMs: 300 };
    const refresh = (path = PATH, policy: Partial<OutboundPolicy> = {}) =>
      refreshExchangeRates(deps(), { url: server.url(path), outbound: { ...outbound, ...policy } });

    beforeAll(() => {
      server.handle(PATH, (_req, res) => {
        res.writeHead(200, { "Content-Type": "text/xml" });
        res.end(ECB_FILE);
      });
    });

    it("knows no rates until a file is read, then the day's of the four currencies", async () => {
      await deps().db.delete(exchangeRates);
      expect(await readExchangeRates(deps())).toBeNull();
      expect(await refresh()).toEqual({ outcome: "refreshed", asOf: "2026-11-27" });
      expect(await readExchangeRates(deps())).toEqual({ ...FIXTURE_RATES, fetchedAt: clock() });
      // One row per currency but the euro, the rate exactly as published.
      const rows = await deps().db.select().from(exchangeRates);
      expect(rows.map((row) => row.currency).sort()).toEqual(["CHF", "GBP", "USD"]);
      expect(logged.lines).toEqual([]);
    });

    it("fetches again only a day after the last fetch, by the clock it is given", async () => {
      clock.advance(RATES_REFRESH_MS);
      expect(await refresh()).toMatchObject({ outcome: "refreshed" });
      const hits = server.hits(PATH);
      const fetchedAt = clock();
      server.handle(PATH, (_req, res) => {
        res.writeHead(200, { "Content-Type": "text/xml" });
        res.end(variant("2026-11-27", "2026-11-30").replace("rate='1.1582'", "rate='1.2001'"));
      });
      clock.advance(RATES_REFRESH_MS - 1);
      expect(await refresh()).toEqual({ outcome: "fresh", fetchedAt });
      expect(server.hits(PATH)).toBe(hits);
      expect((await readExchangeRates(deps()))?.rates.USD).toBe("1.1582");

      clock.advance(1);
      expect(await refresh()).toEqual({ outcome: "refreshed", asOf: "2026-11-30" });
      expect(server.hits(PATH)).toBe(hits + 1);
      expect(await readExchangeRates(deps())).toEqual({
        asOf: "2026-11-30",
        fetchedAt: clock(),
        rates: { ...FIXTURE_RATES.rates, USD: "1.2001" },
      });
    });

    it("keeps the rates on record through every hostile answer, warning once each time", async () => {
      clock.advance(RATES_REFRESH_MS);
      server.handle(PATH, (_req, res) => {
        res.writeHead(200, { "Content-Type": "text/xml" });
        res.end(ECB_FILE);
      });
      await refresh();
      const before = await readExchangeRates(deps());
      expect(before?.asOf).toBe("2026-11-27");

      const xml = (body: string | Buffer) => (_req: IncomingMessage, res: ServerResponse) => {
        res.writeHead(200, { "Content-Type": "text/xml" });
        res.end(body);
      };
      server.handle("/huge.xml", xml(Buffer.alloc(10 * 1024 * 1024, " ")));
      server.handle(
        "/malformed.xml",
        xml(ECB_FILE.slice(0, ECB_FILE.indexOf("<Cube currency='GBP'"))),
      );
      server.handle("/zero.xml", xml(variant("rate='0.87615'", "rate='0'")));
      server.handle("/nan.xml", xml(variant("rate='0.87615'", "rate='NaN'")));
      server.handle("/silent.xml", () => undefined);
      server.handle("/redirect.xml", (_req, res) => {
        res.writeHead(302, { Location: "http://10.0.0.7/eurofxref-daily.xml" });
        res.end();
      });
      const hostile: [path: string, policy: Partial<OutboundPolicy>, detail: RegExp][] = [
        ["/huge.xml", {}, /^too_large/],
        ["/malformed.xml", {}, /not well-formed/],
        ["/zero.xml", {}, /GBP at "0"/],
        ["/nan.xml", {}, /GBP at "NaN"/],
        ["/silent.xml", {}, /^timeout/],
        // Only the tests' own address is let through, not the private one it redirects to.
        [
          "/redirect.xml",
          { allowPrivateNetworks: false, allowedAddresses: ["127.0.0.1"] },
          /^blocked_address/,
        ],
      ];
      for (const [path, policy, detail] of hostile) {
        clock.advance(RATES_REFRESH_MS);
        logged.lines.length = 0;
        const outcome = await refresh(path, policy);
        expect(outcome.outcome, path).toBe("failed");
        expect(outcome.outcome === "failed" && outcome.detail, path).toMatch(detail);
        expect(server.hits(path), path).toBe(1);
        expect(await readExchangeRates(deps()), path).toEqual(before);
        expect(logged.lines, path).toEqual([
          expect.objectContaining({
            level: 40,
            msg: "exchange rates not refreshed: the rates on record stay",
          }),
        ]);
      }
      // The next pass, the file well again, reads it: a failure does not count as a fetch.
      clock.advance(60 * 60_000);
      expect(await refresh()).toMatchObject({ outcome: "refreshed" });
    });
  },
  { seed: false },
);

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";
import { estateRateRevisions, exchangeRates, propertyClaims } from "#db/schema/index.ts";
import { ValidationErrorSchema } from "#domain/api/operation.ts";
import { createSession } from "#domain/auth/sessions.ts";
import { addDays } from "#domain/calendar/nights.ts";
import {
  getCastleQuote,
  getEstateRates,
  getOwnerRates,
  putEstateRates,
  revertEstateRates,
} from "#domain/pricing/pricing.contract.ts";
import { saveRates } from "#domain/pricing/estate-rates.ts";
import { refreshExchangeRates } from "#domain/pricing/exchange-rates.ts";
import type { RatesInput } from "#domain/pricing/rates.schema.ts";
import { addMonths, utcToday } from "#domain/requests/dates.ts";
import { calendarBase, insertCalendarRequest, nightsAt } from "#tests/factories/calendar.ts";
import { demoEstate } from "#tests/factories/demo-estates.ts";
import { dataOf } from "#tests/setup/api.ts";
import { describeEachBackend, ROOT_DIR } from "#tests/setup/database.ts";
import { serveFeeds } from "#tests/setup/feed-server.ts";
import { serveIntake } from "#tests/setup/intake.ts";
import { createTestStaff, signIn, staffCall } from "#tests/setup/staff.ts";

const GORDON = demoEstate("gordon-castle");
const PADUA = demoEstate("padua");
const TABIANO = demoEstate("tabiano");

describeEachBackend("prices: an estate's rates and the quote of a stay", (database) => {
  const server = serveIntake(() => database().deps);
  /** Serves the ECB's daily file, as EXCHANGE_RATES_URL would. */
  const ecb = serveFeeds();
  const cookies: Record<string, string> = {};
  const base = calendarBase();
  /** £400 a night, a season from day 20 to day 30 at £600 (a week at least), tax 20 % included. */
  const RATES: RatesInput = {
    currency: "GBP",
    nightly: 40_000,
    minNights: 2,
    includedGuests: 6,
    extraGuestNightly: 2_500,
    cleaningFee: 15_000,
    taxPercent: 20,
    taxIncluded: true,
    depositPercent: 25,
    balanceDueDays: 14,
    cancellationPolicy: "moderate",
    seasons: [{ start: addDays(base, 20), end: addDays(base, 30), nightly: 60_000, minNights: 7 }],
  };

  beforeAll(async () => {
    const deps = database().deps;
    await createTestStaff(deps, "admin@castellum.test", { isAdmin: true });
    await createTestStaff(deps, "clerk@castellum.test", { isAdmin: false });
    for (const email of ["admin@castellum.test", "clerk@castellum.test"])
      cookies[email] = await signIn(server().url, email);
    for (const estate of [GORDON, PADUA]) {
      await deps.db.insert(propertyClaims).values({ propertyId: estate.id, email: estate.email });
      const session = await createSession(deps, { role: "owner", ownerEmail: estate.email }, {});
      cookies[estate.slug] = `castellum_session=${session.token}`;
    }
    // Each test below starts from these rates, whichever runs alone.
    await saveRates(deps, GORDON.id, RATES, { role: "staff", email: "admin@castellum.test" });
  });

  const as = (who?: string) => (method: string, path: string, body?: unknown) =>
    staffCall(server().url, method, path, { cookie: who ? cookies[who] : undefined, body });
  const admin = as("admin@castellum.test");
  const owner = as(GORDON.slug);
  const guest = as();
  const quote = (query: string, estate = GORDON.slug) =>
    guest("GET", `/api/castles/${estate}/quote?${query}`);

  it("gives every demo estate rates from its seed pricing, as revision 1 by the seed", async () => {
    const rates = dataOf(
      getEstateRates,
      await admin("GET", `/api/admin/estates/${TABIANO.id}/rates`),
      200,
    );
    expect(rates.revision).toBe(1);
    expect(rates.rates).toMatchObject({
      currency: "EUR",
      nightly: TABIANO.content.startingPrice!.amount * 100,
      taxIncluded: true,
    });
    expect(rates.revisions).toEqual([
      expect.objectContaining({ revision: 1, actorRole: "seed", actorEmail: null, revertOf: null }),
    ]);
  });

  it("saves staff's rates as a new revision, and the quote follows at once", async () => {
    const current = dataOf(
      getEstateRates,
      await admin("GET", `/api/admin/estates/${GORDON.id}/rates`),
      200,
    );
    const saved = dataOf(
      putEstateRates,
      await admin(
        "PUT",
        `/api/admin/estates/${GORDON.id}/rates?basedOn=${current.revision}`,
        RATES,
      ),
      200,
    );
    expect(saved.revision).toBe(current.revision! + 1);
    expect(saved.rates).toEqual(RATES);
    expect(saved.revisions[0]).toMatchObject({
      revision: saved.revision,
      actorRole: "staff",
      actorEmail: "admin@castellum.test",
    });

    // Three nights before the season and four in it, 8 guests (2 extra), in French.
    const checkIn = addDays(base, 17);
    const answer = await quote(`checkIn=${checkIn}&checkOut=${addDays(base, 24)}&guests=8&lang=fr`);
    expect(answer.headers.get("cache-control")).toBe("no-store");
    const price = dataOf(getCastleQuote, answer, 200);
    expect(price).toMatchObject({
      propertyId: GORDON.id,
      nights: 7,
      guests: 8,
      currency: "GBP",
      available: true,
      firstUnavailableNight: null,
      minNights: 2,
      taxIncluded: true,
    });
    expect(
      price.lines.map(({ label, ...line }) => ({ ...line, label: label.split(" (")[0] })),
    ).toEqual([
      { code: "nights", label: "Nuits", quantity: 3, unitAmount: 40_000, amount: 120_000 },
      {
        code: "nights",
        label: "Nuits en saison",
        quantity: 4,
        unitAmount: 60_000,
        amount: 240_000,
      },
      {
        code: "extra_guests",
        label: "Voyageurs supplémentaires",
        quantity: 14,
        unitAmount: 2_500,
        amount: 35_000,
      },
      { code: "cleaning", label: "Ménage", quantity: 1, unitAmount: 15_000, amount: 15_000 },
    ]);
    // 410,000 with 20 % included: net 341,666.67 → 341,667, tax 68,333; deposit a quarter.
    expect(price).toMatchObject({
      total: 410_000,
      tax: 68_333,
      deposit: 102_500,
      balance: 307_500,
    });
    expect(price.balanceDueOn).toBe(addDays(checkIn, -14));
  });

  it("says which night is taken, and still gives the price", async () => {
    await insertCalendarRequest(database().deps, {
      propertyId: GORDON.id,
      nights: nightsAt(base, 5, 2),
      status: "Confirmed",
    });
    const price = dataOf(
      getCastleQuote,
      await quote(`checkIn=${addDays(base, 3)}&checkOut=${addDays(base, 8)}&guests=2`),
      200,
    );
    expect(price.available).toBe(false);
    expect(price.firstUnavailableNight).toBe(addDays(base, 5));
    expect(price.total).toBe(5 * 40_000 + 15_000);
  });

  it("refuses a stay below the minimum from its check-in, and bad dates, in the guest's language", async () => {
    const short = await quote(
      `checkIn=${addDays(base, 21)}&checkOut=${addDays(base, 24)}&guests=2&lang=it`,
    );
    expect(short.status).toBe(400);
    expect(short.body).toEqual({
      code: "stay_too_short",
      message: "I soggiorni che iniziano in questa data durano almeno 7 notti",
    });
    const reversed = await quote(
      `checkIn=${addDays(base, 5)}&checkOut=${addDays(base, 5)}&guests=2`,
    );
    expect(reversed.status).toBe(400);
    expect(reversed.body).toMatchObject({ code: "invalid_input" });
    const past = await quote(`checkIn=${addDays(utcToday(), -3)}&checkOut=${utcToday()}&guests=2`);
    expect(past.body).toMatchObject({
      code: "invalid_input",
      message: "The check-in date cannot be in the past",
    });
    const far = addMonths(utcToday(), 30);
    const beyond = await quote(`checkIn=${far}&checkOut=${addDays(far, 3)}&guests=2&lang=zh`);
    expect(beyond.status).toBe(400);
    expect((beyond.body as { message: string }).message).toMatch(
      /^最远可报价至 \d{4}-\d{2}-\d{2}$/,
    );
    const noGuests = await quote(
      `checkIn=${addDays(base, 3)}&checkOut=${addDays(base, 5)}&guests=0`,
    );
    expect(noGuests.status, noGuests.text).toBe(400);
    expect(noGuests.body).toMatchObject({ code: "validation_failed" });
  });

  it("converts the total and deposit into the guest's currency once reference rates are known", async () => {
    await database().deps.db.delete(exchangeRates);
    // Two nights at £400 and the cleaning: £950, a quarter of it the deposit.
    const stay = `checkIn=${addDays(base, 3)}&checkOut=${addDays(base, 5)}&guests=2`;
    const inDollars = async () => dataOf(getCastleQuote, await quote(`${stay}&display=USD`), 200);
    expect(await inDollars()).toMatchObject({ total: 95_000, deposit: 23_750, approximate: null });

    ecb.handle("/eurofxref-daily.xml", (_req, res) => {
      res.writeHead(200, { "Content-Type": "text/xml" });
      res.end(readFileSync(join(ROOT_DIR, "tests/fixtures/ecb/eurofxref-daily.xml")));
    });
    const refreshed = await refreshExchangeRates(database().deps, {
      url: ecb.url("/eurofxref-daily.xml"),
      outbound: { allowPrivateNetworks: true },
    });
    expect(refreshed).toEqual({ outcome: "refreshed", asOf: "2026-11-27" });
    // £950 at 0.87615 to the euro and $1.1582 to the euro: $1,255.82, shown as $1,256.
    expect((await inDollars()).approximate).toEqual({
      currency: "USD",
      total: 125_600,
      deposit: 31_400,
      asOf: "2026-11-27",
    });
    const inEuros = dataOf(getCastleQuote, await quote(`${stay}&display=EUR`), 200);
    expect(inEuros.approximate).toMatchObject({ currency: "EUR", total: 108_400 });
    // Nothing to convert: no display currency, or the estate's own.
    for (const query of [stay, `${stay}&display=GBP`])
      expect(dataOf(getCastleQuote, await quote(query), 200).approximate).toBeNull();
    const unknown = await quote(`${stay}&display=BTC`);
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ code: "validation_failed" });
  });

  it("answers 404 for an unknown estate, and no_rates for one without rates", async () => {
    const unknown = await quote(
      `checkIn=${addDays(base, 3)}&checkOut=${addDays(base, 5)}&guests=2`,
      "no-such-castle",
    );
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: "estate_not_found" });
    await database()
      .deps.db.delete(estateRateRevisions)
      .where(eq(estateRateRevisions.propertyId, TABIANO.id));
    const none = await quote(
      `checkIn=${addDays(base, 3)}&checkOut=${addDays(base, 5)}&guests=2&lang=fr`,
      TABIANO.slug,
    );
    expect(none.status).toBe(404);
    expect(none.body).toMatchObject({ code: "no_rates" });
    const rates = dataOf(
      getEstateRates,
      await admin("GET", `/api/admin/estates/${TABIANO.id}/rates`),
      200,
    );
    expect(rates).toEqual({ propertyId: TABIANO.id, revision: null, rates: null, revisions: [] });
  });

  it("refuses bad rates field by field, and a save on a stale revision, writing nothing", async () => {
    const before = await database().deps.db.select().from(estateRateRevisions);
    const bad = await admin("PUT", `/api/admin/estates/${GORDON.id}/rates`, {
      ...RATES,
      nightly: -5,
      currency: "BTC",
      seasons: [
        { start: addDays(base, 1), end: addDays(base, 10), nightly: 1 },
        { start: addDays(base, 5), end: addDays(base, 12), nightly: 1 },
      ],
    });
    expect(bad.status).toBe(400);
    const issues = ValidationErrorSchema.parse(bad.body).errors;
    expect(issues).toEqual(
      expect.arrayContaining([
        { path: "currency", message: "Choose one of EUR, GBP, USD or CHF" },
        { path: "nightly", message: "Enter a nightly price above zero, in whole cents" },
      ]),
    );
    const stale = await admin("PUT", `/api/admin/estates/${GORDON.id}/rates?basedOn=1`, RATES);
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ code: "rates_changed" });
    expect(await database().deps.db.select().from(estateRateRevisions)).toEqual(before);
  });

  it("lets the owner change their estate's rates, which staff see and can put back", async () => {
    const theirs = dataOf(getOwnerRates, await owner("GET", "/api/property-owners/rates"), 200);
    expect(theirs.propertyId).toBe(GORDON.id);
    // An owner sees that staff saved a revision, not who.
    expect(theirs.revisions[0]).toMatchObject({ actorRole: "staff", actorEmail: null });
    const cheaper = { ...RATES, nightly: 35_000 };
    const saved = dataOf(
      getOwnerRates,
      await owner("PUT", "/api/property-owners/rates", cheaper),
      200,
    );
    expect(saved.revisions[0]).toMatchObject({ actorRole: "owner", actorEmail: GORDON.email });

    const back = dataOf(
      revertEstateRates,
      await admin(
        "POST",
        `/api/admin/estates/${GORDON.id}/rates/revisions/${theirs.revision}/revert`,
      ),
      200,
    );
    expect(back.revision).toBe(saved.revision! + 1);
    expect(back.rates).toEqual(RATES);
    expect(back.revisions[0]).toMatchObject({ revertOf: theirs.revision, actorRole: "staff" });
    const missing = await admin(
      "POST",
      `/api/admin/estates/${GORDON.id}/rates/revisions/999/revert`,
    );
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ code: "revision_not_found" });
  });

  it("keeps each caller to what they may touch", async () => {
    const clerk = as("clerk@castellum.test");
    const padua = as(PADUA.slug);
    expect((await guest("GET", `/api/admin/estates/${GORDON.id}/rates`)).status).toBe(401);
    expect((await clerk("GET", `/api/admin/estates/${GORDON.id}/rates`)).status).toBe(403);
    expect((await owner("GET", `/api/admin/estates/${GORDON.id}/rates`)).status).toBe(401);
    expect((await guest("GET", "/api/property-owners/rates")).status).toBe(401);
    const other = await padua("PUT", `/api/property-owners/rates?propertyId=${GORDON.id}`, RATES);
    expect(other.status).toBe(403);
    expect((await admin("GET", `/api/admin/estates/999999/rates`)).status).toBe(404);
    expect((await admin("GET", `/api/admin/estates/abc/rates`)).status).toBe(404);
  });

  it("numbers two saves at once one after the other, never the same", async () => {
    const answers = await Promise.all(
      [31_000, 32_000, 33_000].map((nightly) =>
        admin("PUT", `/api/admin/estates/${PADUA.id}/rates`, { ...RATES, nightly }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
    const revisions = await database()
      .deps.db.select({ revision: estateRateRevisions.revision })
      .from(estateRateRevisions)
      .where(eq(estateRateRevisions.propertyId, PADUA.id));
    expect(revisions.map((row) => row.revision).sort()).toEqual([1, 2, 3, 4]);
  });
});

import { PDFDocument } from "pdf-lib";
import { afterAll, beforeAll, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { payments } from "#db/schema/index.ts";
import { createSession } from "#domain/auth/sessions.ts";
import * as contract from "#domain/offers/offers.contract.ts";
import { setEstateCommission } from "#domain/staff/estates.contract.ts";
import { propertyClaims } from "#db/schema/index.ts";
import { calendarBase, nightsAt } from "#tests/factories/calendar.ts";
import { demoEstate } from "#tests/factories/demo-estates.ts";
import { insertOfferableRequest } from "#tests/factories/offers.ts";
import { dataOf } from "#tests/setup/api.ts";
import { describeEachBackend } from "#tests/setup/database.ts";
import { serveIntake } from "#tests/setup/intake.ts";
import { createTestStaff, signIn, staffCall } from "#tests/setup/staff.ts";
import {
  STAND_IN_SECRET_KEY,
  STAND_IN_WEBHOOK_SECRET,
  StripeStandIn,
} from "#tests/setup/stripe-stand-in.ts";

const GORDON = demoEstate("gordon-castle");

describeEachBackend("offers and payments over HTTP", (database) => {
  const stripe = new StripeStandIn();
  beforeAll(() => stripe.start());
  afterAll(() => stripe.stop());
  const server = serveIntake(
    () => database().deps,
    () => ({
      STRIPE_SECRET_KEY: STAND_IN_SECRET_KEY,
      STRIPE_WEBHOOK_SECRET: STAND_IN_WEBHOOK_SECRET,
      STRIPE_API_URL: stripe.url,
    }),
  );
  const cookies: Record<string, string> = {};
  const base = calendarBase();
  let offset = 0;
  const nights = () => nightsAt(base, 40 + 8 * offset++, 7);

  beforeAll(async () => {
    const deps = database().deps;
    await createTestStaff(deps, "admin@castellum.test", { isAdmin: true });
    await createTestStaff(deps, "clerk@castellum.test", { isAdmin: false });
    for (const email of ["admin@castellum.test", "clerk@castellum.test"])
      cookies[email] = await signIn(server().url, email);
    await deps.db.insert(propertyClaims).values({ propertyId: GORDON.id, email: GORDON.email });
    const session = await createSession(deps, { role: "owner", ownerEmail: GORDON.email }, {});
    cookies.owner = `castellum_session=${session.token}`;
    stripe.webhookUrl = `${server().url}/api/payments/stripe`;
  });

  const as =
    (who?: string) =>
    (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
      staffCall(server().url, method, path, {
        cookie: who ? cookies[who] : undefined,
        body,
        headers,
      });
  const admin = as("admin@castellum.test");
  const clerk = as("clerk@castellum.test");
  const owner = as("owner");
  const guest = as();
  const ops = contract.STAFF_OFFER_OPERATIONS.property_booking;

  const request = (language: "en" | "fr" | "zh" = "en") =>
    insertOfferableRequest(database().deps, {
      propertyId: GORDON.id,
      nights: nights(),
      language,
    });

  async function offered(language: "en" | "fr" | "zh" = "en", body: unknown = {}) {
    const made = await request(language);
    const offer = dataOf(
      ops.send,
      await admin("POST", `/api/bookings/${made.id}/offers`, body),
      201,
    );
    return { ...made, offer };
  }

  it("sends an offer priced from the estate's rates, which the guest reads in their language", async () => {
    const { token, offer, reference } = await offered("fr", { discount: 5000, note: "Bienvenue" });
    expect(offer.status).toBe("sent");
    expect(offer.lines.at(-1)).toMatchObject({ code: "discount", amount: -5000 });
    expect(offer.deposit + offer.balance).toBe(offer.total);
    const view = dataOf(
      contract.getGuestRequest,
      await guest("GET", `/api/requests/${token}?lang=fr`),
      200,
    );
    expect(view).toMatchObject({ reference, status: "Offered", amountDue: null });
    expect(view.offer?.note).toBe("Bienvenue");
    expect(view.offer?.lines[0]?.label).toMatch(/nuit/i);
    // No way to pay until the guest accepts.
    expect(view.paymentOptions).toEqual({ bankTransfer: null, card: false, casl: null });
  });

  it("shows staff the quote an offer starts from, and adds their extra charge to its lines", async () => {
    const made = await request();
    const before = dataOf(
      ops.list,
      await admin("GET", `/api/bookings/${made.id}/offers?lang=fr`),
      200,
    );
    expect(before.quote?.lines.length).toBeGreaterThan(0);
    expect(before.quote?.lines[0]?.label).toMatch(/nuit/i);
    const quoteTotal = before.quote!.lines.reduce((sum, line) => sum + line.amount, 0);
    const expiresAt = new Date(Date.now() + 24 * 3_600_000).toISOString();
    const offer = dataOf(
      ops.send,
      await admin("POST", `/api/bookings/${made.id}/offers`, {
        lines: [
          ...before.quote!.lines.map(({ code, quantity, unitAmount }) => ({
            code,
            quantity,
            unitAmount,
          })),
          { code: "extra", text: "Chef for the evening", quantity: 1, unitAmount: 45_000 },
        ],
        expiresAt,
      }),
      201,
    );
    expect(offer.lines.at(-1)).toMatchObject({ code: "extra", label: "Chef for the evening" });
    expect(offer.lines.reduce((sum, line) => sum + line.amount, 0)).toBe(quoteTotal + 45_000);
    expect(offer.expiresAt).toBe(expiresAt);
  });

  it("refuses bad offers with a clear message and writes nothing", async () => {
    const made = await request();
    const bad = await admin("POST", `/api/bookings/${made.id}/offers?lang=fr`, {
      discount: -5,
      lines: [{ code: "extra", quantity: 1, unitAmount: 100 }],
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: "validation_failed" });
    const list = dataOf(ops.list, await admin("GET", `/api/bookings/${made.id}/offers`), 200);
    expect(list).toMatchObject({ status: "In progress", offers: [], payments: [] });
    // A membership application takes no offer; a clerk and an owner are refused.
    expect((await clerk("POST", `/api/bookings/${made.id}/offers`, {})).status).toBe(403);
    expect((await owner("POST", `/api/bookings/${made.id}/offers`, {})).status).toBe(401);
    expect((await guest("POST", `/api/bookings/${made.id}/offers`, {})).status).toBe(401);
  });

  it("lets the guest accept once, then pay the deposit by card: Stripe's notice recorded once", async () => {
    const { token, offer, id } = await offered();
    const accept = `/api/requests/${token}/offers/${offer.id}/accept`;
    const [first, second] = await Promise.all([guest("POST", accept), guest("POST", accept)]);
    expect([first.status, second.status]).toEqual([200, 200]);
    const view = dataOf(contract.acceptOffer, first, 200);
    expect(view.status).toBe("Awaiting deposit");
    expect(view.amountDue).toEqual({ kind: "deposit", amount: offer.deposit });
    expect(view.paymentOptions.card).toBe(true);
    expect(view.paymentOptions.bankTransfer?.reference).toBe(view.reference);

    const checkout = `/api/requests/${token}/offers/${offer.id}/checkout`;
    const { url } = dataOf(contract.checkoutOffer, await guest("POST", checkout), 200);
    // A second click opens the same session: the idempotency key is the offer and amount.
    expect(dataOf(contract.checkoutOffer, await guest("POST", checkout), 200).url).toBe(url);
    const sessionId = url.split("/").at(-1)!;
    expect(stripe.sessions.get(sessionId)).toMatchObject({
      amount_total: offer.deposit,
      currency: offer.currency.toLowerCase(),
      metadata: { requestId: id, offerId: offer.id, kind: "deposit" },
    });
    expect(stripe.calls.at(-1)?.authorization).toBe(`Bearer ${STAND_IN_SECRET_KEY}`);

    const session = await stripe.complete(sessionId);
    const event = stripe.completedEvent(session);
    // The same notice again, and an older one out of order: still one row.
    expect((await stripe.deliver(event)).status).toBe(200);
    expect((await stripe.deliver(stripe.completedEvent(session, event.created - 60))).status).toBe(
      200,
    );
    const rows = await database().deps.db.select().from(payments).where(eq(payments.requestId, id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      method: "card",
      kind: "deposit",
      amount: offer.deposit,
      recordedBy: "stripe",
    });
    const after = dataOf(
      contract.getGuestRequest,
      await guest("GET", `/api/requests/${token}`),
      200,
    );
    expect(after.status).toBe("Confirmed");
    expect(after.amountDue).toEqual(
      offer.balance > 0 ? { kind: "balance", amount: offer.balance } : null,
    );
    expect(after.payments).toHaveLength(1);

    // The receipt, as a PDF in the guest's language.
    const receipt = await fetch(
      `${server().url}/api/requests/${token}/payments/${after.payments[0]!.id}/receipt.pdf?lang=fr`,
    );
    expect(receipt.status).toBe(200);
    expect(receipt.headers.get("content-type")).toBe("application/pdf");
    const pdf = await PDFDocument.load(new Uint8Array(await receipt.arrayBuffer()));
    expect(pdf.getTitle()).toBe(`Reçu ${after.reference}`);
    expect(
      (await fetch(`${server().url}/api/requests/${token}/payments/999999/receipt.pdf`)).status,
    ).toBe(404);
  });

  it("refuses a forged or stale Stripe signature, and writes nothing", async () => {
    const { token, offer, id } = await offered();
    await guest("POST", `/api/requests/${token}/offers/${offer.id}/accept`);
    const { url } = dataOf(
      contract.checkoutOffer,
      await guest("POST", `/api/requests/${token}/offers/${offer.id}/checkout`),
      200,
    );
    const session = stripe.sessions.get(url.split("/").at(-1)!)!;
    const event = stripe.completedEvent({ ...session, payment_status: "paid" });
    const forged = await stripe.deliver(event, { secret: "whsec_someone_else" });
    expect(forged.status).toBe(400);
    expect(await forged.json()).toMatchObject({ code: "signature_invalid" });
    const stale = await stripe.deliver(event, { timestamp: Math.floor(Date.now() / 1000) - 3600 });
    expect(stale.status).toBe(400);
    const missing = await stripe.deliver(event, { signature: "" });
    expect(missing.status).toBe(400);
    const rows = await database().deps.db.select().from(payments).where(eq(payments.requestId, id));
    expect(rows).toHaveLength(0);
  });

  it("records a bank transfer, refuses a wrong currency in the caller's language, and a checkout with nothing due", async () => {
    const { token, offer, id } = await offered();
    // No accepted offer yet.
    const early = await admin("POST", `/api/bookings/${id}/payments`, {
      kind: "deposit",
      method: "bank_transfer",
      amount: offer.deposit,
      currency: offer.currency,
      reference: "TRF-1",
      receivedAt: new Date().toISOString(),
    });
    expect(early.status).toBe(409);
    expect(early.body).toMatchObject({ code: "no_accepted_offer" });
    expect((await guest("POST", `/api/requests/${token}/offers/${offer.id}/checkout`)).status).toBe(
      409,
    );
    await guest("POST", `/api/requests/${token}/offers/${offer.id}/accept`);
    const wrong = await admin("POST", `/api/bookings/${id}/payments?lang=it`, {
      kind: "deposit",
      method: "bank_transfer",
      amount: offer.deposit,
      currency: offer.currency === "EUR" ? "GBP" : "EUR",
      reference: "TRF-1",
      receivedAt: new Date().toISOString(),
    });
    expect(wrong.status).toBe(400);
    expect(JSON.stringify(wrong.body)).toMatch(/valuta/i);
    const paid = dataOf(
      ops.recordPayment,
      await admin("POST", `/api/bookings/${id}/payments`, {
        kind: "deposit",
        method: "bank_transfer",
        amount: offer.total,
        currency: offer.currency,
        reference: "TRF-1",
        receivedAt: new Date().toISOString(),
      }),
      201,
    );
    expect(paid.status).toBe("Confirmed");
    expect(paid.offers[0]).toMatchObject({ paid: offer.total, outstanding: 0 });
    const due = await guest("POST", `/api/requests/${token}/offers/${offer.id}/checkout`);
    expect(due.status).toBe(409);
    expect(due.body).toMatchObject({ code: "nothing_due" });
  });

  it("lists a paid, confirmed stay on the owner's statement for the month it ended, with the commission", async () => {
    const { token, offer, id, reference } = await offered();
    await guest("POST", `/api/requests/${token}/offers/${offer.id}/accept`);
    dataOf(
      ops.recordPayment,
      await admin("POST", `/api/bookings/${id}/payments`, {
        kind: "deposit",
        method: "bank_transfer",
        amount: offer.total,
        currency: offer.currency,
        reference: "TRF-9",
        receivedAt: new Date().toISOString(),
      }),
      201,
    );
    const month = offer.checkOut.slice(0, 7);
    const statement = dataOf(
      contract.getOwnerStatement,
      await owner("GET", `/api/property-owners/statements?month=${month}`),
      200,
    );
    const line = statement.lines.find((row) => row.reference === reference);
    const commission = Math.round((offer.total * 15) / 100);
    expect(line).toMatchObject({
      gross: offer.total,
      commission,
      net: offer.total - commission,
      paid: offer.total,
      currency: offer.currency,
    });
    expect(
      statement.totals.find((row) => row.currency === offer.currency)?.gross,
    ).toBeGreaterThanOrEqual(offer.total);
    const csv = await fetch(
      `${server().url}/api/property-owners/statements?month=${month}&format=csv&lang=fr`,
      { headers: { Cookie: cookies.owner! } },
    );
    expect(csv.headers.get("content-type")).toContain("text/csv");
    const text = await csv.text();
    expect(text).toContain("Commission");
    expect(text).toContain(reference);
    // Another month holds nothing of it; a malformed month is refused; staff must name the estate.
    const other = dataOf(
      contract.getOwnerStatement,
      await owner("GET", "/api/property-owners/statements?month=2001-01"),
      200,
    );
    expect(other.lines).toEqual([]);
    expect((await owner("GET", "/api/property-owners/statements?month=2027-13")).status).toBe(400);
    expect((await guest("GET", `/api/property-owners/statements?month=${month}`)).status).toBe(401);
    const asStaff = dataOf(
      contract.getOwnerStatement,
      await admin("GET", `/api/property-owners/statements?month=${month}&propertyId=${GORDON.id}`),
      200,
    );
    expect(asStaff.lines.map((row) => row.reference)).toContain(reference);

    // Staff may set the estate's own commission: the statement follows, months past included.
    const commissionPath = `/api/admin/estates/${GORDON.id}/commission`;
    const bad = await admin("PUT", `${commissionPath}?lang=it`, { percent: 12.345 });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain("percentuale");
    expect((await clerk("PUT", commissionPath, { percent: 1 })).status).toBe(403);
    expect((await owner("PUT", commissionPath, { percent: 1 })).status).toBe(401);
    expect(
      dataOf(setEstateCommission, await admin("PUT", commissionPath, { percent: 12.5 }), 200),
    ).toEqual({ commissionPercent: 12.5 });
    const reduced = dataOf(
      contract.getOwnerStatement,
      await owner("GET", `/api/property-owners/statements?month=${month}`),
      200,
    );
    expect(reduced.commissionPercent).toBe(12.5);
    expect(reduced.lines.find((row) => row.reference === reference)?.commission).toBe(
      Math.round((offer.total * 125) / 1000),
    );
    dataOf(setEstateCommission, await admin("PUT", commissionPath, { percent: null }), 200);
    expect(
      dataOf(
        contract.getOwnerStatement,
        await owner("GET", `/api/property-owners/statements?month=${month}`),
        200,
      ).commissionPercent,
    ).toBe(15);
  });

  it("reaches only its own request with a guest token", async () => {
    const { offer } = await offered();
    const other = await request();
    const answer = await guest("POST", `/api/requests/${other.token}/offers/${offer.id}/accept`);
    expect(answer.status).toBe(409);
    expect(answer.body).toMatchObject({ code: "offer_not_found" });
    expect((await guest("GET", `/api/requests/${"x".repeat(32)}`)).status).toBe(404);
  });
});

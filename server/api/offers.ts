import { Router } from "express";
import { describeCollision } from "#domain/calendar/collision-text.ts";
import { nowOf } from "#domain/clock.ts";
import type { Deps } from "#domain/deps.ts";
import { ValidationError } from "#domain/errors.ts";
import type { PaymentServices } from "#domain/offers/card-payments.ts";
import { type GuestRequestDetail, readGuestRequest } from "#domain/offers/guest-view.ts";
import {
  answerOffer,
  defaultOfferLines,
  guestCancel,
  type OfferView,
  readOffers,
  recordPayment,
  sendOffer,
  staffCancel,
  submitCaslTx,
  withdrawOffer,
} from "#domain/offers/offers.ts";
import * as contract from "#domain/offers/offers.contract.ts";
import { paymentReceipt } from "#domain/offers/receipts.ts";
import { getRequestStatus } from "#domain/offers/request-status.ts";
import { lineLabel } from "#domain/pricing/line-label.ts";
import type { Language } from "#i18n/config.ts";
import { translate } from "#i18n/translate.ts";
import type { RateLimitRule, RateLimitStore } from "#domain/rate-limit/rate-limiter.ts";
import { rateLimit, sameOriginOnly } from "../middleware/request-guards.ts";
import { requireAdminApi, signedInAdmin } from "../middleware/session.ts";
import { defineRoute, refuse, STREAMED } from "./define-route.ts";
import { readStatement, statementCsv } from "#domain/offers/statements.ts";
import { estateAccess, settledEstate } from "./owners.ts";

/**
 * Offers and payments over HTTP (domain/offers/offers.contract.ts): staff under each request's
 * collection, the guest under their status link, and Stripe's notices. Every change goes
 * through domain/offers/offers.ts, which hands it to the request process.
 */

/** An offer as the contract shows it: lines labelled in `language`, and nothing else. */
function linesWire(language: Language, lines: OfferView["lines"]) {
  return lines.map((line) => ({
    code: line.code,
    label: lineLabel(language, line),
    quantity: line.quantity,
    unitAmount: line.unitAmount,
    amount: line.amount,
  }));
}

function offerWire(language: Language, offer: OfferView) {
  return { ...offer, lines: linesWire(language, offer.lines) };
}

function guestWire(language: Language, detail: GuestRequestDetail) {
  return {
    kind: detail.kind,
    reference: detail.reference,
    status: detail.status,
    createdAt: detail.createdAt,
    updatedAt: detail.updatedAt,
    reason: detail.reason,
    offer: detail.offer ? offerWire(language, detail.offer) : null,
    payments: detail.payments,
    amountDue: detail.amountDue,
    paymentOptions: detail.paymentOptions,
    cancellation: detail.cancellation,
  };
}

/** A refusal of the process, as the caller reads it. */
const REFUSALS = {
  offer_not_found: ["offer_not_found", "offers.errors.offerNotFound"],
  offer_expired: ["offer_expired", "offers.errors.offerExpired"],
} as const;

export function offerRoutes(
  deps: Deps,
  payments: PaymentServices,
  options: {
    publicUrl: string;
    adminEmailDomain: string;
    rateLimits: { store: RateLimitStore; forms: RateLimitRule };
  },
): Router {
  const router = Router();
  const sameOrigin = sameOriginOnly(options.publicUrl);
  const requireAdmin = requireAdminApi(options.adminEmailDomain);
  const limit = rateLimit(options.rateLimits.store, options.rateLimits.forms, deps.log);
  const guestOptions = {
    bankDetails: payments.bankDetails,
    caslWallet: payments.caslWallet,
    card: payments.stripe !== null,
  };

  const staffView = async (language: Language, id: string) => {
    const [read, quote] = await Promise.all([readOffers(deps, id), defaultOfferLines(deps, id)]);
    return {
      offers: read.offers.map((offer) => offerWire(language, offer)),
      payments: read.payments,
      quote: quote && { currency: quote.currency, lines: linesWire(language, quote.lines) },
    };
  };

  for (const kind of contract.OFFER_KINDS) {
    const operations = contract.STAFF_OFFER_OPERATIONS[kind];
    const statusOf = (id: string) => getRequestStatus(deps, kind, id);

    for (const operation of [operations.list, operations.listPayments])
      defineRoute(router, operation, {
        before: [requireAdmin],
        async handle({ params, res }) {
          const status = await statusOf(params.id);
          if (!status) return refuse(404, "not_found", "errors.notFound");
          res.set("Cache-Control", "private, no-store");
          return {
            status: 200,
            body: { status, ...(await staffView(res.locals.language, params.id)) },
          };
        },
      });

    defineRoute(router, operations.send, {
      before: [sameOrigin, requireAdmin],
      async handle({ params, body, res }) {
        const language = res.locals.language;
        const admin = signedInAdmin(res);
        const result = await sendOffer(deps, {
          kind,
          id: params.id,
          offer: body ?? {},
          actor: { kind: "staff", id: admin.id, email: admin.email },
          terms: payments.terms,
        });
        switch (result.outcome) {
          case "sent":
            payments.onMailQueued();
            return { status: 201, body: offerWire(language, result.offer) };
          case "not_found":
            return refuse(404, "not_found", "errors.notFound");
          case "no_stay":
            return refuse(409, "no_stay", "offers.errors.noStay");
          case "no_rates":
            return refuse(409, "no_rates", "pricing.errors.noRates");
          case "too_short":
            return refuse(409, "stay_too_short", "pricing.errors.tooShort", {
              minNights: result.minNights,
            });
          case "invalid":
            throw new ValidationError([{ path: result.field, message: result.messageKey }]);
          case "refused":
            return refuse(409, "not_offerable", "offers.errors.notOffered");
          case "collision":
            return refuse(409, "calendar_collision", "calendarCollision.message", {
              what: describeCollision(
                (key, params) => translate(language, key, params),
                language,
                result.collidesWith[0],
              ),
              count: result.collidesWith.length,
            });
        }
      },
    });

    defineRoute(router, operations.withdraw, {
      before: [sameOrigin, requireAdmin],
      async handle({ params, res }) {
        const admin = signedInAdmin(res);
        const result = await withdrawOffer(deps, {
          kind,
          id: params.id,
          offerId: params.offerId,
          actor: { kind: "staff", id: admin.id, email: admin.email },
        });
        if (result.outcome === "not_found") return refuse(404, "not_found", "errors.notFound");
        if (result.outcome !== "done")
          return refuse(409, "offer_not_found", "offers.errors.offerNotFound");
        return {
          status: 200,
          body: { status: result.status, ...(await staffView(res.locals.language, params.id)) },
        };
      },
    });

    defineRoute(router, operations.cancel, {
      before: [sameOrigin, requireAdmin],
      async handle({ params, body, res }) {
        const admin = signedInAdmin(res);
        const result = await staffCancel(deps, {
          kind,
          id: params.id,
          reason: body?.reason ?? null,
          actor: { kind: "staff", id: admin.id, email: admin.email },
        });
        if (result.outcome === "not_found") return refuse(404, "not_found", "errors.notFound");
        if (result.outcome !== "done")
          return refuse(409, "not_offerable", "offers.errors.notOffered");
        payments.onMailQueued();
        return {
          status: 200,
          body: { status: result.status, ...(await staffView(res.locals.language, params.id)) },
        };
      },
    });

    defineRoute(router, operations.recordPayment, {
      before: [sameOrigin, requireAdmin],
      async handle({ params, body, res }) {
        const result = await recordPayment(deps, {
          requestId: params.id,
          kind,
          payment: body,
          recordedBy: signedInAdmin(res).email,
        });
        switch (result.outcome) {
          case "not_found":
            return refuse(404, "not_found", "errors.notFound");
          case "no_offer":
            return refuse(409, "no_accepted_offer", "offers.errors.noAcceptedOffer");
          case "invalid":
            throw new ValidationError([{ path: result.field, message: result.messageKey }]);
          case "duplicate":
          case "recorded":
            payments.onMailQueued();
            return {
              status: 201,
              body: {
                status: result.status,
                ...(await staffView(res.locals.language, params.id)),
              },
            };
        }
      },
    });
  }

  const guestAnswer = async (token: string, language: Language) => {
    const detail = await readGuestRequest(deps, token, language, guestOptions);
    return detail ? guestWire(language, detail) : null;
  };

  defineRoute(router, contract.getGuestRequest, {
    async handle({ params, res }) {
      const body = await guestAnswer(params.token, res.locals.language);
      res.set("Cache-Control", "no-store");
      if (!body) return refuse(404, "not_found", "errors.notFound");
      return { status: 200, body };
    },
  });

  for (const [operation, answer] of [
    [contract.acceptOffer, "accept"],
    [contract.declineOffer, "decline"],
  ] as const)
    defineRoute(router, operation, {
      before: [sameOrigin, limit],
      async handle({ params, res }) {
        const language = res.locals.language;
        const result = await answerOffer(deps, {
          token: params.token,
          offerId: params.offerId,
          answer,
          terms: payments.terms,
        });
        if (result.outcome === "not_found") return refuse(404, "not_found", "errors.notFound");
        if (result.outcome === "collision")
          return refuse(409, "nights_taken", "offers.errors.nightsTaken");
        if (result.outcome === "refused") {
          const [code, key] =
            result.refusal === "offer_expired" ? REFUSALS.offer_expired : REFUSALS.offer_not_found;
          return refuse(409, code, key);
        }
        payments.onMailQueued();
        const body = await guestAnswer(params.token, language);
        if (!body) return refuse(404, "not_found", "errors.notFound");
        return { status: 200, body };
      },
    });

  defineRoute(router, contract.checkoutOffer, {
    before: [sameOrigin, limit],
    async handle({ params, res }) {
      const language = res.locals.language;
      const detail = await readGuestRequest(deps, params.token, language, guestOptions);
      if (!detail) return refuse(404, "not_found", "errors.notFound");
      if (!payments.stripe)
        return refuse(503, "checkout_unavailable", "offers.errors.checkoutUnavailable");
      if (!detail.offer || detail.offer.id !== params.offerId || detail.offer.status !== "accepted")
        return refuse(409, "offer_not_found", "offers.errors.offerNotFound");
      if (!detail.amountDue) return refuse(409, "nothing_due", "offers.errors.nothingDue");
      const statusUrl = `${options.publicUrl}/requests/${encodeURIComponent(params.token)}?lang=${language}`;
      try {
        const session = await payments.stripe.createCheckout({
          requestId: detail.id,
          offerId: detail.offer.id,
          reference: detail.reference,
          kind: detail.amountDue.kind,
          amount: detail.amountDue.amount,
          currency: detail.offer.currency,
          label: `${detail.reference} · ${translate(language, `offers.payment.kinds.${detail.amountDue.kind}`)}`,
          successUrl: `${statusUrl}&paid=1`,
          cancelUrl: statusUrl,
        });
        res.set("Cache-Control", "no-store");
        return { status: 200, body: { url: session.url } };
      } catch (error) {
        deps.log.error({ err: error }, "stripe checkout session not created");
        return refuse(503, "checkout_unavailable", "offers.errors.checkoutUnavailable");
      }
    },
  });

  defineRoute(router, contract.submitCaslPayment, {
    before: [sameOrigin, limit],
    async handle({ params, body, res }) {
      const saved = await submitCaslTx(deps, {
        token: params.token,
        offerId: params.offerId,
        txHash: body.txHash,
      });
      if (saved === "not_found") {
        const exists = await guestAnswer(params.token, res.locals.language);
        if (!exists) return refuse(404, "not_found", "errors.notFound");
        return refuse(409, "offer_not_found", "offers.errors.offerNotFound");
      }
      const answer = await guestAnswer(params.token, res.locals.language);
      if (!answer) return refuse(404, "not_found", "errors.notFound");
      return { status: 200, body: answer };
    },
  });

  defineRoute(router, contract.cancelAsGuest, {
    before: [sameOrigin, limit],
    async handle({ params, body, res }) {
      const result = await guestCancel(deps, { token: params.token, reason: body?.reason ?? null });
      if (result.outcome === "not_found") return refuse(404, "not_found", "errors.notFound");
      if (result.outcome !== "done")
        return refuse(409, "cancel_not_allowed", "offers.errors.cancelNotAllowed");
      payments.onMailQueued();
      const answer = await guestAnswer(params.token, res.locals.language);
      if (!answer) return refuse(404, "not_found", "errors.notFound");
      return { status: 200, body: answer };
    },
  });

  defineRoute(router, contract.getPaymentReceipt, {
    async handle({ params, res }) {
      const language = res.locals.language;
      const receipt = /^\d{1,15}$/.test(params.paymentId)
        ? await paymentReceipt(deps, {
            request: { token: params.token },
            paymentId: Number(params.paymentId),
            language,
          })
        : null;
      if (!receipt) return refuse(404, "not_found", "errors.notFound");
      res
        .status(200)
        .type("application/pdf")
        .set("Cache-Control", "no-store")
        .set("Content-Disposition", `inline; filename="${receipt.filename}"`)
        .send(Buffer.from(receipt.bytes));
      return STREAMED;
    },
  });

  defineRoute(router, contract.getOwnerStatement, {
    before: [estateAccess(deps, options.adminEmailDomain)],
    async handle({ query, res }) {
      const { propertyId } = settledEstate(res);
      const statement = await readStatement(deps, {
        propertyId,
        month: query.month,
        defaultCommissionPercent: payments.commissionPercent,
      });
      if (query.format !== "csv") return { status: 200, body: statement };
      const text = await statementCsv(statement, res.locals.language);
      res
        .status(200)
        .type("text/csv; charset=utf-8")
        .set(
          "Content-Disposition",
          `attachment; filename="statement-${propertyId}-${statement.month}.csv"`,
        )
        .send(text);
      return STREAMED;
    },
  });

  defineRoute(router, contract.stripeWebhook, {
    // Stripe's servers send no Origin: the check refuses only a browser on another site.
    before: [sameOrigin],
    async handle({ req }) {
      if (!payments.stripe) return refuse(404, "not_found", "errors.notFound");
      const event = payments.stripe.verify(
        req.rawBody ?? Buffer.alloc(0),
        req.get("stripe-signature"),
        nowOf(deps),
      );
      if (!event) return refuse(400, "signature_invalid", "offers.errors.stripeSignature");
      if (event.type === "checkout.session.completed") {
        const session = event.data.object;
        const requestId = session.metadata?.requestId;
        const kind = session.metadata?.kind;
        if (
          session.payment_status === "paid" &&
          requestId &&
          (kind === "deposit" || kind === "balance") &&
          session.amount_total &&
          session.currency
        ) {
          const result = await recordPayment(deps, {
            requestId,
            payment: {
              kind,
              method: "card",
              amount: session.amount_total,
              currency: session.currency.toUpperCase(),
              reference: session.id,
              receivedAt: new Date(event.created * 1000).toISOString(),
            },
            recordedBy: "stripe",
            provider: { name: "stripe", id: session.id },
          });
          if (result.outcome === "recorded") payments.onMailQueued();
          // Money Stripe took that matches no open booking is staff's to settle: acknowledged,
          // so Stripe stops retrying, and logged.
          else if (result.outcome !== "duplicate")
            deps.log.error(
              { sessionId: session.id, outcome: result.outcome },
              "card payment not recorded",
            );
        }
      }
      return { status: 200, body: { received: true as const } };
    },
  });

  return router;
}

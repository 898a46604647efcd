import { z } from "zod";
import {
  CROSS_ORIGIN,
  DateTimeSchema,
  defineOperation,
  error,
  IGNORED_BODY_ERRORS,
  invalid,
  JSON_BODY_ERRORS,
  PUBLIC,
  STAFF_SESSION,
} from "../api/operation.ts";
import { CANCELLATION_POLICIES } from "../pricing/rates.schema.ts";
import {
  EstateQuerySchema,
  estateGuardAnswers,
  OWNER_OR_STAFF,
} from "../owners/owners.contract.ts";
import { LINE_CODES } from "../pricing/quote.ts";
import { REQUEST_STATUSES, type RequestKind } from "../requests/options.ts";
import { NO_STORE, rateLimitAnswers } from "../requests/requests.contract.ts";
import { STAFF_COLLECTIONS } from "../staff/collections.ts";
import { adminGuardAnswers } from "../staff/staff-auth.contract.ts";
import {
  cancelInputSchema,
  caslTxSchema,
  offerInputSchema,
  PAYMENT_KINDS,
  PAYMENT_METHODS,
  paymentInputSchema,
} from "./offer.schema.ts";

/**
 * The offer and its payments: staff send offers and record payments under each request's
 * collection; the guest reads their request, answers the offer, pays and cancels from their
 * status page; Stripe tells us of card payments. Written once for the routes, the document and
 * the pages. Amounts are integer minor units of `currency` (docs/decisions/0032).
 */

const AMOUNT = z.number().int().describe("Minor units of `currency` (cents, pence)");

export const OfferLineSchema = z
  .object({
    code: z.enum(LINE_CODES),
    label: z.string().describe("What the line charges for, in the caller's language"),
    quantity: z.number().int(),
    unitAmount: AMOUNT,
    amount: AMOUNT.describe("quantity × unitAmount (negative for a discount)"),
  })
  .meta({ id: "OfferLine" });

export const OFFER_STATUSES = ["sent", "accepted", "declined", "expired", "withdrawn"] as const;

export const OfferSchema = z
  .object({
    id: z.string().meta({ format: "uuid" }),
    propertyId: z.number().int().describe("The estate the offer prices"),
    status: z.enum(OFFER_STATUSES),
    currency: z.string(),
    lines: z.array(OfferLineSchema),
    tax: AMOUNT.describe("The tax the total holds (`taxIncluded`) or adds"),
    taxIncluded: z.boolean(),
    total: AMOUNT,
    deposit: AMOUNT.describe("Due on acceptance, within DEPOSIT_DUE_HOURS"),
    balance: AMOUNT.describe("total − deposit"),
    balanceDueOn: z.string().nullable().describe("The day the balance is due; null: all at once"),
    checkIn: z.string(),
    checkOut: z.string(),
    guests: z.number().int(),
    cancellationPolicy: z.enum(CANCELLATION_POLICIES),
    note: z.string().nullable().describe("Staff's words to the guest"),
    expiresAt: DateTimeSchema,
    depositDueAt: DateTimeSchema.nullable().describe("Set on acceptance when a deposit is asked"),
    createdAt: DateTimeSchema,
    answeredAt: DateTimeSchema.nullable(),
    paid: AMOUNT.describe("Deposits and balances received (the ledger's sum)"),
    refunded: AMOUNT.describe("Refunds paid out"),
    outstanding: AMOUNT.describe("What remains to pay of the total"),
    depositOutstanding: AMOUNT.describe("What remains to pay of the deposit"),
    refundDue: AMOUNT.nullable().describe("Fixed on cancellation: what the policy gives back"),
    caslTx: z
      .string()
      .nullable()
      .describe("The $CASL transaction the guest named, for staff to check"),
  })
  .meta({ id: "Offer" });

export const PaymentSchema = z
  .object({
    id: z.number().int(),
    kind: z.enum(PAYMENT_KINDS),
    method: z.enum(PAYMENT_METHODS),
    amount: AMOUNT.describe("Always positive; a refund is money paid out"),
    currency: z.string(),
    reference: z.string(),
    receivedAt: DateTimeSchema,
    recordedBy: z.string().describe("The staff member's email, or `stripe`"),
  })
  .meta({ id: "Payment" });

export const StaffOffersSchema = z
  .object({
    status: z.enum(REQUEST_STATUSES).describe("The request's status now"),
    offers: z.array(OfferSchema).describe("Newest first; at most one is sent or accepted"),
    payments: z.array(PaymentSchema).describe("The ledger, oldest first"),
    quote: z
      .object({ currency: z.string(), lines: z.array(OfferLineSchema) })
      .nullable()
      .describe(
        "The estate's quote for the request's stay today: the lines a new offer carries unless staff send their own. Null without an estate, dates or rates, or when the stay cannot be quoted",
      ),
  })
  .meta({ id: "StaffOffers" });

export const OfferInputSchema = offerInputSchema.meta({
  id: "OfferInput",
  description:
    "Every field optional: by default the estate's quote for the request's dates and guests, its deposit share, and an expiry OFFER_HOURS from now. `lines` replace the quote's; `discount` is taken off their sum as a line of its own.",
});

export const PaymentInputSchema = paymentInputSchema.meta({
  id: "PaymentInput",
  description:
    "A payment received (deposit, balance) or a refund paid out. In the offer's currency; a refund no more than what was paid and not yet refunded.",
});

export const CancelInputSchema = cancelInputSchema.meta({ id: "CancelInput" });

const GuestPaymentSchema = PaymentSchema.omit({ recordedBy: true }).meta({ id: "GuestPayment" });

export const GuestRequestSchema = z
  .object({
    kind: z.enum(["booking_request", "property_booking", "membership"]),
    reference: z.string(),
    status: z.enum(REQUEST_STATUSES),
    createdAt: DateTimeSchema,
    updatedAt: DateTimeSchema,
    reason: z.string().nullable().describe("The reason staff shared for the status, if any"),
    offer: OfferSchema.omit({ caslTx: true })
      .extend({ caslTx: z.string().nullable() })
      .nullable()
      .describe("The offer in play (sent or accepted), else the latest; null: none yet"),
    payments: z.array(GuestPaymentSchema),
    amountDue: z
      .object({ kind: z.enum(["deposit", "balance"]), amount: AMOUNT })
      .nullable()
      .describe("What the guest may pay now"),
    paymentOptions: z.object({
      bankTransfer: z
        .object({ details: z.string(), reference: z.string() })
        .nullable()
        .describe("PAYMENT_BANK_DETAILS and the reference to quote"),
      card: z.boolean().describe("Whether card payment (Stripe Checkout) is configured"),
      casl: z.object({ wallet: z.string() }).nullable().describe("CASL_WALLET_ADDRESS"),
    }),
    cancellation: z.object({
      allowed: z.boolean().describe("Whether the guest may cancel online now"),
      refundPercent: z.number().describe("The share of the total the policy gives back now"),
    }),
  })
  .meta({ id: "GuestRequest" });

const RequestIdParams = (label: string) =>
  z.object({ id: z.string().meta({ format: "uuid" }).describe(`The ${label}'s id`) });

const OFFER_KIND_NAMES = {
  booking_request: { one: "BookingRequest", label: "booking request" },
  property_booking: { one: "PropertyBooking", label: "property booking" },
} as const;
export type OfferKind = keyof typeof OFFER_KIND_NAMES;
export const OFFER_KINDS = Object.keys(OFFER_KIND_NAMES) as OfferKind[];
export const isOfferKind = (kind: RequestKind): kind is OfferKind => kind in OFFER_KIND_NAMES;

function staffOfferOperations(kind: OfferKind) {
  const { one, label } = OFFER_KIND_NAMES[kind];
  const base = `/api${STAFF_COLLECTIONS[kind]}/{id}`;
  const params = RequestIdParams(label);
  const notFound = error(`No ${label} with this id`, ["not_found"]);
  return {
    list: defineOperation({
      id: `list${one}Offers`,
      method: "get",
      path: `${base}/offers`,
      summary: `The offers and payments of a ${label}`,
      tags: ["offers"],
      description: "Every offer, newest first, with what was paid on each; and the ledger.",
      security: STAFF_SESSION,
      params,
      responses: {
        200: { description: "The offers and the ledger", schema: StaffOffersSchema },
        404: notFound,
        ...adminGuardAnswers(false),
      },
    }),
    send: defineOperation({
      id: `send${one}Offer`,
      method: "post",
      path: `${base}/offers`,
      summary: `Send the guest of a ${label} an offer`,
      tags: ["offers"],
      description:
        "Prices the request's estate, dates and guests (or staff's own lines), writes the offer and moves the request to Offered; the guest gets it by mail in their language and answers it on their status page. An offer still out is withdrawn by this one.",
      security: STAFF_SESSION,
      params,
      body: { schema: OfferInputSchema, required: false },
      responses: {
        201: { description: "Sent", schema: OfferSchema },
        400: invalid(
          "A field its schema refuses, a discount that leaves nothing to pay, or malformed JSON",
        ),
        404: notFound,
        409: error(
          "Nothing was sent: the request names no estate or dates (`no_stay`), the estate has no rates (`no_rates`), the stay is below its minimum (`stay_too_short`), the request is past the offer (`not_offerable`), or another stay or a block holds the nights (`calendar_collision`)",
          ["no_stay", "no_rates", "stay_too_short", "not_offerable", "calendar_collision"],
        ),
        ...JSON_BODY_ERRORS,
        ...adminGuardAnswers(true),
      },
    }),
    withdraw: defineOperation({
      id: `withdraw${one}Offer`,
      method: "post",
      path: `${base}/offers/{offerId}/withdraw`,
      summary: "Withdraw an offer the guest has not answered",
      tags: ["offers"],
      description: "The request goes back to In progress, with a new window to answer it.",
      security: STAFF_SESSION,
      params: params.extend({ offerId: z.string().describe("The offer's id") }),
      responses: {
        200: { description: "Withdrawn", schema: StaffOffersSchema },
        404: notFound,
        409: error("No unanswered offer with this id", ["offer_not_found"]),
        ...IGNORED_BODY_ERRORS,
        ...adminGuardAnswers(true),
      },
    }),
    cancel: defineOperation({
      id: `cancel${one}`,
      method: "post",
      path: `${base}/cancel`,
      summary: `Cancel a ${label} awaiting its deposit or confirmed`,
      tags: ["offers"],
      description:
        "Frees the nights and fixes the refund due under the offer's cancellation policy (recorded as a refund once paid out). The guest and staff are mailed.",
      security: STAFF_SESSION,
      params,
      body: { schema: CancelInputSchema, required: false },
      responses: {
        200: { description: "Cancelled", schema: StaffOffersSchema },
        400: invalid("Too long a reason, or malformed JSON"),
        404: notFound,
        409: error("Not awaiting a deposit or confirmed", ["not_offerable"]),
        ...JSON_BODY_ERRORS,
        ...adminGuardAnswers(true),
      },
    }),
    listPayments: defineOperation({
      id: `list${one}Payments`,
      method: "get",
      path: `${base}/payments`,
      summary: `The ledger of a ${label}`,
      tags: ["offers"],
      description: "Every payment and refund, oldest first, with the offers they were for.",
      security: STAFF_SESSION,
      params,
      responses: {
        200: { description: "The ledger", schema: StaffOffersSchema },
        404: notFound,
        ...adminGuardAnswers(false),
      },
    }),
    recordPayment: defineOperation({
      id: `record${one}Payment`,
      method: "post",
      path: `${base}/payments`,
      summary: "Record a payment received or a refund paid out",
      tags: ["offers"],
      description:
        "One row in the append-only ledger. The deposit in full confirms a booking awaiting it; the guest gets a receipt by mail.",
      security: STAFF_SESSION,
      params,
      body: { schema: PaymentInputSchema },
      responses: {
        201: { description: "Recorded: the offers and the ledger now", schema: StaffOffersSchema },
        400: invalid(
          "A field its schema refuses, another currency than the offer's, a refund above what was paid, or malformed JSON",
        ),
        404: notFound,
        409: error("No accepted offer to pay", ["no_accepted_offer"]),
        ...JSON_BODY_ERRORS,
        ...adminGuardAnswers(true),
      },
    }),
  };
}

export const STAFF_OFFER_OPERATIONS = {
  booking_request: staffOfferOperations("booking_request"),
  property_booking: staffOfferOperations("property_booking"),
};

const TokenParams = z.object({ token: z.string().describe("The status link's token") });
const OfferParams = TokenParams.extend({ offerId: z.string().describe("The offer's id") });
const notFound = error("No request has this status link", ["not_found"]);
const crossOrigin = error(CROSS_ORIGIN, ["cross_origin"]);

export const getGuestRequest = defineOperation({
  id: "getGuestRequest",
  method: "get",
  path: "/api/requests/{token}",
  summary: "The guest's view of their request",
  tags: ["requests"],
  description:
    "What the status page shows: the status, the reason staff shared, the offer with what was paid and what is due, how to pay, and whether the guest may cancel. Labels in `?lang=` (or the `lang` cookie, Accept-Language).",
  security: PUBLIC,
  params: TokenParams,
  responses: {
    200: { description: "The request", schema: GuestRequestSchema, headers: NO_STORE },
    404: notFound,
  },
});

const answerOperation = (answer: "accept" | "decline") =>
  defineOperation({
    id: `${answer}Offer`,
    method: "post",
    path: `/api/requests/{token}/offers/{offerId}/${answer}`,
    summary: answer === "accept" ? "The guest accepts the offer" : "The guest declines the offer",
    tags: ["requests"],
    description:
      answer === "accept"
        ? "Takes the nights at once, held until the deposit is due (DEPOSIT_DUE_HOURS); the booking is confirmed when the deposit is recorded. A second click answers as the first."
        : "The request goes back to staff, who may send another offer.",
    security: PUBLIC,
    params: OfferParams,
    responses: {
      200: { description: "Answered: the request as it is now", schema: GuestRequestSchema },
      403: crossOrigin,
      404: notFound,
      409: error(
        "Nothing changed: the offer is no longer open (`offer_not_found`), it expired (`offer_expired`)" +
          (answer === "accept" ? ", or its nights were taken meanwhile (`nights_taken`)" : ""),
        answer === "accept"
          ? ["offer_not_found", "offer_expired", "nights_taken"]
          : ["offer_not_found", "offer_expired"],
      ),
      ...IGNORED_BODY_ERRORS,
      ...rateLimitAnswers("requests"),
    },
  });

export const acceptOffer = answerOperation("accept");
export const declineOffer = answerOperation("decline");

export const CheckoutSchema = z
  .object({ url: z.string().describe("Stripe Checkout's page for the amount due") })
  .meta({ id: "Checkout" });

export const checkoutOffer = defineOperation({
  id: "checkoutOffer",
  method: "post",
  path: "/api/requests/{token}/offers/{offerId}/checkout",
  summary: "Pay what is due by card",
  tags: ["requests"],
  description:
    "Opens a Stripe Checkout session for the amount due now (the deposit, else the balance), once per offer and amount (an idempotency key): the guest is sent to its `url`, and the payment is recorded when Stripe reports it.",
  security: PUBLIC,
  params: OfferParams,
  responses: {
    200: { description: "The checkout page", schema: CheckoutSchema, headers: NO_STORE },
    403: crossOrigin,
    404: notFound,
    409: error(
      "The offer is not accepted (`offer_not_found`) or nothing is due now (`nothing_due`)",
      ["offer_not_found", "nothing_due"],
    ),
    429: rateLimitAnswers("requests")[429],
    503: error(
      "Card payment is not configured or Stripe cannot be reached (`checkout_unavailable`), or the rate limiter cannot be reached (`limiter_unavailable`)",
      ["checkout_unavailable", "limiter_unavailable"],
    ),
    ...IGNORED_BODY_ERRORS,
  },
});

export const submitCaslPayment = defineOperation({
  id: "submitCaslPayment",
  method: "post",
  path: "/api/requests/{token}/offers/{offerId}/casl",
  summary: "Name the $CASL transaction that pays the offer",
  tags: ["requests"],
  description: "Staff check the transaction and record the payment.",
  security: PUBLIC,
  params: OfferParams,
  body: { schema: caslTxSchema.meta({ id: "CaslTransaction" }) },
  responses: {
    200: { description: "Saved: the request as it is now", schema: GuestRequestSchema },
    400: invalid("Not a transaction hash, or malformed JSON"),
    403: crossOrigin,
    404: notFound,
    409: error("The offer is not accepted", ["offer_not_found"]),
    ...JSON_BODY_ERRORS,
    ...rateLimitAnswers("requests"),
  },
});

export const cancelAsGuest = defineOperation({
  id: "cancelAsGuest",
  method: "post",
  path: "/api/requests/{token}/cancel",
  summary: "The guest cancels their booking",
  tags: ["requests"],
  description:
    "Allowed before arrival while the offer's cancellation policy still refunds something; frees the nights and fixes the refund due.",
  security: PUBLIC,
  params: TokenParams,
  body: { schema: CancelInputSchema, required: false },
  responses: {
    200: { description: "Cancelled: the request as it is now", schema: GuestRequestSchema },
    400: invalid("Too long a reason, or malformed JSON"),
    403: crossOrigin,
    404: notFound,
    409: error("The policy no longer allows an online cancellation", ["cancel_not_allowed"]),
    ...JSON_BODY_ERRORS,
    ...rateLimitAnswers("requests"),
  },
});

export const stripeWebhook = defineOperation({
  id: "stripeWebhook",
  method: "post",
  path: "/api/payments/stripe",
  summary: "Stripe's notice of a card payment",
  tags: ["offers"],
  description:
    "Checked with STRIPE_WEBHOOK_SECRET by the official client's signature check (five minutes' tolerance). `checkout.session.completed` records the payment once, whatever the order or number of deliveries; other events are acknowledged and ignored.",
  security: PUBLIC,
  body: { schema: z.unknown().describe("The event as Stripe signs it") },
  responses: {
    200: {
      description: "Received",
      schema: z.object({ received: z.literal(true) }).meta({ id: "WebhookReceived" }),
    },
    400: error("A missing, forged or stale signature, or malformed JSON", [
      "signature_invalid",
      "malformed_json",
    ]),
    403: crossOrigin,
    404: error("Card payment is not configured", ["not_found"]),
    ...JSON_BODY_ERRORS,
  },
});

export const getPaymentReceipt = defineOperation({
  id: "getPaymentReceipt",
  method: "get",
  path: "/api/requests/{token}/payments/{paymentId}/receipt.pdf",
  summary: "A receipt for one payment, as a PDF",
  tags: ["requests"],
  description:
    "In the guest's language (English for Chinese: the PDF's standard fonts draw Latin scripts only).",
  security: PUBLIC,
  params: TokenParams.extend({ paymentId: z.string().describe("The payment's id") }),
  responses: {
    200: {
      description: "The receipt",
      contentType: "application/pdf",
      schema: z.string().describe("A PDF document"),
      headers: NO_STORE,
    },
    404: error("No such request, or no such payment of it", ["not_found"]),
  },
});

const StatementAmountsSchema = {
  currency: z.string(),
  gross: AMOUNT.describe("The offer's total"),
  commission: AMOUNT.describe(
    "The network's share (the estate's commission set by staff, else OWNER_COMMISSION_PERCENT), rounded once",
  ),
  net: AMOUNT.describe("gross − commission: due to the owner"),
  paid: AMOUNT.describe("What the guest paid so far, refunds deducted"),
};

export const StatementSchema = z
  .object({
    propertyId: z.number().int(),
    month: z.string().describe("YYYY-MM"),
    commissionPercent: z.number(),
    lines: z.array(
      z.object({
        reference: z.string(),
        checkIn: z.string(),
        checkOut: z.string(),
        guestFirstName: z.string(),
        ...StatementAmountsSchema,
      }),
    ),
    totals: z.array(z.object(StatementAmountsSchema)).describe("Per currency"),
  })
  .meta({ id: "OwnerStatement" });

export const getOwnerStatement = defineOperation({
  id: "getOwnerStatement",
  method: "get",
  path: "/api/property-owners/statements",
  summary: "The estate's statement for a month",
  tags: ["offers"],
  description:
    "Confirmed stays whose check-out falls in `month`: gross, commission and net per stay and per currency. `format=csv` answers the same as CSV (amounts in the major unit).",
  security: OWNER_OR_STAFF,
  query: EstateQuerySchema.extend({
    month: z
      .string()
      .regex(/^\d{4}-(0[1-9]|1[0-2])$/, "offers.statement.month")
      .describe("YYYY-MM"),
    format: z.enum(["json", "csv"]).optional(),
  }),
  responses: {
    200: { description: "The statement (JSON, or CSV with `format=csv`)", schema: StatementSchema },
    400: invalid("A month that is not YYYY-MM"),
    ...estateGuardAnswers(false),
  },
});

export const OFFER_OPERATIONS = [
  ...Object.values(STAFF_OFFER_OPERATIONS).flatMap((operations) => Object.values(operations)),
  getGuestRequest,
  acceptOffer,
  declineOffer,
  checkoutOffer,
  submitCaslPayment,
  cancelAsGuest,
  getPaymentReceipt,
  stripeWebhook,
  getOwnerStatement,
];

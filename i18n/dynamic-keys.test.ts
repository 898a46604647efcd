import { describe, expect, it } from "vitest";
import { WEBHOOK_EVENT_TYPES } from "#domain/events/event-types.ts";
import { PAYMENT_KINDS, PAYMENT_METHODS } from "#domain/offers/offer.schema.ts";
import { OFFER_STATUSES } from "#domain/offers/offers.contract.ts";
import { CANCELLATION_POLICIES } from "#domain/pricing/rates.schema.ts";
import { REQUEST_STATUSES } from "#domain/requests/options.ts";
import { LANGUAGES } from "./config.ts";
import { translate } from "./translate.ts";

/**
 * Keys the pages build from a value (an event type, a status, a payment method) are not in the
 * static scan of the code: each value of each list is looked up here, in every language.
 */
const KEYS: string[] = [
  ...WEBHOOK_EVENT_TYPES.map((type) => `staff.webhooks.eventNames.${type}`),
  ...REQUEST_STATUSES.map((status) => `requestStatus.statuses.${status}`),
  ...REQUEST_STATUSES.map((status) => `requestStatus.explain.${status}`),
  ...OFFER_STATUSES.map((status) => `staff.offers.statuses.${status}`),
  ...OFFER_STATUSES.map((status) => `offers.page.${status}`),
  ...PAYMENT_KINDS.map((kind) => `offers.payment.kinds.${kind}`),
  ...PAYMENT_METHODS.map((method) => `offers.payment.methods.${method}`),
  ...CANCELLATION_POLICIES.map((policy) => `offers.page.policies.${policy}`),
];

describe("messages named by a value", () => {
  for (const language of LANGUAGES)
    it(`exist in ${language}`, () => {
      const missing = KEYS.filter((key) => translate(language, key) === key);
      expect(missing).toEqual([]);
    });
});

import { type Response, Router } from "express";
import type { z } from "zod";
import { findPropertyId } from "#domain/catalogue/read-properties.ts";
import { nowOf } from "#domain/clock.ts";
import type { Deps } from "#domain/deps.ts";
import { ValidationError } from "#domain/errors.ts";
import { quoteEstate } from "#domain/pricing/estate-quote.ts";
import { approximatePrice, readExchangeRates } from "#domain/pricing/exchange-rates.ts";
import {
  estateRatesView,
  type RatesActor,
  revertRates,
  saveRates,
} from "#domain/pricing/estate-rates.ts";
import * as contract from "#domain/pricing/pricing.contract.ts";
import { lineLabel } from "#domain/pricing/line-label.ts";
import { fieldIssues } from "#domain/requests/fields.ts";
import { DEFAULT_LANGUAGE } from "#i18n/config.ts";
import { sameOriginOnly } from "../middleware/request-guards.ts";
import { requireAdminApi } from "../middleware/session.ts";
import type { StaffServices } from "../services.ts";
import { defineRoute, refuse } from "./define-route.ts";
import { estateAccess, settledEstate } from "./owners.ts";

/** The signed-in admin as the author of a revision (requireAdminApi has run). */
function staffActor(res: Response): RatesActor & { role: "staff" } {
  const session = res.locals.session;
  if (!session || session.role !== "staff") throw new Error("requireAdminApi must run first");
  return { role: "staff", email: session.user.email };
}

/**
 * An estate's rates, read and changed by staff (`/api/admin/estates/{id}/rates`) and by its
 * owner (`/api/property-owners/rates`), and the public quote of a stay
 * (`/api/castles/{idOrSlug}/quote`), approximately in the guest's currency too on request.
 */
export function pricingRoutes(
  deps: Deps,
  staff: StaffServices | undefined,
  options: { publicUrl: string; horizonMonths: number },
): Router {
  const router = Router();

  defineRoute(router, contract.getCastleQuote, {
    onInvalid: (_part, error: z.ZodError) => {
      throw new ValidationError(fieldIssues(error));
    },
    async handle({ params, query, res }) {
      const language = query.lang ?? DEFAULT_LANGUAGE;
      const result = await quoteEstate(
        deps,
        {
          idOrSlug: params.idOrSlug,
          checkIn: query.checkIn,
          checkOut: query.checkOut,
          guests: query.guests,
          horizonMonths: options.horizonMonths,
        },
        nowOf(deps),
      );
      // A quote reads today's date and the calendar: never kept by a cache.
      res.set("Cache-Control", "no-store");
      switch (result.outcome) {
        case "no_rates":
          return refuse(404, "no_rates", "pricing.errors.noRates");
        case "bad_dates":
          return refuse(400, "invalid_input", result.messageKey, result.params);
        case "too_short":
          return refuse(400, "stay_too_short", "pricing.errors.tooShort", {
            count: result.minNights,
          });
        case "quoted": {
          const { price } = result;
          // The rates are read only when there is something to convert.
          const wantsOther = query.display !== undefined && query.display !== price.currency;
          const rates = wantsOther ? await readExchangeRates(deps) : null;
          return {
            status: 200,
            body: {
              propertyId: result.propertyId,
              checkIn: query.checkIn,
              checkOut: query.checkOut,
              nights: price.nights,
              guests: query.guests,
              currency: price.currency,
              lines: price.lines.map((line) => ({
                code: line.code,
                label: lineLabel(language, line),
                quantity: line.quantity,
                unitAmount: line.unitAmount,
                amount: line.amount,
              })),
              tax: price.tax,
              taxIncluded: price.taxIncluded,
              total: price.total,
              deposit: price.deposit,
              balance: price.balance,
              balanceDueOn: price.balanceDueOn,
              available: result.available,
              firstUnavailableNight: result.firstUnavailableNight,
              minNights: price.minNights,
              approximate: approximatePrice(price, query.display, rates),
            },
          };
        }
      }
    },
  });

  if (!staff) return router;
  const sameOrigin = sameOriginOnly(options.publicUrl);
  const requireAdmin = requireAdminApi(staff.adminEmailDomain);
  const access = estateAccess(deps, staff.adminEmailDomain);
  // A malformed estate or revision id in the path names nothing: 404, as on the other estate calls.
  const noEstate = (part: "params" | "query" | "body", error: z.ZodError) => {
    if (part === "params") return refuse(404, "estate_not_found", "errors.propertyNotFound");
    throw new ValidationError(fieldIssues(error));
  };

  defineRoute(router, contract.getEstateRates, {
    before: [requireAdmin],
    onInvalid: noEstate,
    async handle({ params, res }) {
      const actor = staffActor(res);
      if (!(await estateExists(deps, params.id)))
        return refuse(404, "estate_not_found", "errors.propertyNotFound");
      return { status: 200, body: await estateRatesView(deps, params.id, actor) };
    },
  });

  defineRoute(router, contract.putEstateRates, {
    before: [sameOrigin, requireAdmin],
    onInvalid: noEstate,
    async handle({ params, query, body, res }) {
      const actor = staffActor(res);
      const saved = await saveRates(deps, params.id, body, actor, { basedOn: query.basedOn });
      if (saved.outcome === "changed")
        return refuse(409, "rates_changed", "pricing.errors.changedMeanwhile");
      return { status: 200, body: await estateRatesView(deps, params.id, actor) };
    },
  });

  defineRoute(router, contract.revertEstateRates, {
    before: [sameOrigin, requireAdmin],
    onInvalid: (part, error) => {
      if (part === "params")
        return refuse(404, "revision_not_found", "pricing.errors.noSuchRevision");
      throw new ValidationError(fieldIssues(error));
    },
    async handle({ params, res }) {
      const actor = staffActor(res);
      if (!(await estateExists(deps, params.id)))
        return refuse(404, "estate_not_found", "errors.propertyNotFound");
      const reverted = await revertRates(deps, params.id, params.revision, actor);
      if (!reverted) return refuse(404, "revision_not_found", "pricing.errors.noSuchRevision");
      return { status: 200, body: await estateRatesView(deps, params.id, actor) };
    },
  });

  defineRoute(router, contract.getOwnerRates, {
    before: [access],
    async handle({ res }) {
      const { actor, propertyId } = settledEstate(res);
      return { status: 200, body: await estateRatesView(deps, propertyId, actor) };
    },
  });

  defineRoute(router, contract.putOwnerRates, {
    before: [sameOrigin],
    after: [access],
    async handle({ query, body, res }) {
      const { actor, propertyId } = settledEstate(res);
      const saved = await saveRates(deps, propertyId, body, actor, { basedOn: query.basedOn });
      if (saved.outcome === "changed")
        return refuse(409, "rates_changed", "pricing.errors.changedMeanwhile");
      return { status: 200, body: await estateRatesView(deps, propertyId, actor) };
    },
  });

  return router;
}

const estateExists = async (deps: Deps, propertyId: number): Promise<boolean> =>
  (await findPropertyId(deps, String(propertyId))) !== null;

import {
  getEstateRates,
  getOwnerRates,
  putEstateRates,
  putOwnerRates,
  revertEstateRates,
} from "#domain/pricing/pricing.contract.ts";
import { type ApiAnswer, callApi } from "#app/api-client.ts";
import type { Operation } from "#domain/api/operation.ts";
import type { RatesAnswer, RatesApi } from "./rates-panel.tsx";

/** A documented answer as the panel reads it: the rates, or the refusal's parts. */
function ratesAnswer<O extends Operation>(answer: ApiAnswer<O>): RatesAnswer {
  if (answer.ok && answer.status === 200)
    return { ok: true, data: answer.data as Extract<RatesAnswer, { ok: true }>["data"] };
  const refusal = answer as { status: number; code?: string | null; message?: string | null };
  const errors = (answer as { errors?: { path: string; message: string }[] }).errors ?? [];
  return {
    ok: false,
    status: refusal.status,
    code: refusal.code ?? null,
    message: refusal.message ?? null,
    errors,
  };
}

/** Staff's calls for the estate `id` (`/api/admin/estates/{id}/rates`). */
export function staffRatesApi(id: number, language: string): RatesApi {
  return {
    read: async (signal) =>
      ratesAnswer(await callApi(getEstateRates, { params: { id } }, { language, signal })),
    save: async (rates, basedOn) =>
      ratesAnswer(
        await callApi(
          putEstateRates,
          { params: { id }, query: { basedOn }, body: rates },
          { language },
        ),
      ),
    revert: async (revision) =>
      ratesAnswer(await callApi(revertEstateRates, { params: { id, revision } }, { language })),
  };
}

/** The owner's calls for their estate (`/api/property-owners/rates?propertyId=`). */
export function ownerRatesApi(propertyId: number, language: string): RatesApi {
  return {
    read: async (signal) =>
      ratesAnswer(await callApi(getOwnerRates, { query: { propertyId } }, { language, signal })),
    save: async (rates, basedOn) =>
      ratesAnswer(
        await callApi(putOwnerRates, { query: { propertyId, basedOn }, body: rates }, { language }),
      ),
  };
}

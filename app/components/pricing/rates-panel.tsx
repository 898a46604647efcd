import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Plus, RotateCcw, Trash2 } from "lucide-react";
import type { EstateRatesView } from "#domain/pricing/estate-rates.ts";
import { CURRENCIES, type Currency } from "#domain/pricing/money.ts";
import {
  CANCELLATION_POLICIES,
  type CancellationPolicy,
  type RatesInput,
  ratesSchema,
} from "#domain/pricing/rates.schema.ts";
import { REFUND_STEPS } from "#domain/pricing/cancellation.ts";
import { isLanguage } from "#i18n/config.ts";
import { toast } from "#app/hooks/use-toast.ts";
import { useHydrated } from "../staff/staff-page.tsx";
import { formatMoment } from "../staff/format.ts";
import { Alert } from "../ui/alert.tsx";
import { Button } from "../ui/button.tsx";
import { CONTROL_CLASS, Field } from "../ui/field.tsx";

/** What the panel needs of the API: staff's calls or the owner's, the same answers. */
export interface RatesApi {
  read: (signal: AbortSignal) => Promise<RatesAnswer>;
  save: (rates: RatesInput, basedOn: number) => Promise<RatesAnswer>;
  /** Staff only: put an earlier revision back. */
  revert?: (revision: number) => Promise<RatesAnswer>;
}

export type RatesAnswer =
  | { ok: true; data: EstateRatesView }
  | {
      ok: false;
      status: number;
      code: string | null;
      message: string | null;
      errors: { path: string; message: string }[];
    };

interface SeasonDraft {
  start: string;
  end: string;
  nightly: string;
  minNights: string;
}

/** The form as typed: amounts in the major unit ("2100.00"), percentages as written. */
interface Draft {
  currency: Currency;
  nightly: string;
  minNights: string;
  includedGuests: string;
  extraGuestNightly: string;
  cleaningFee: string;
  taxPercent: string;
  taxIncluded: boolean;
  depositPercent: string;
  balanceDueDays: string;
  cancellationPolicy: CancellationPolicy;
  seasons: SeasonDraft[];
}

const major = (minor: number) => (minor / 100).toFixed(2);
const EMPTY: Draft = {
  currency: "EUR",
  nightly: "",
  minNights: "2",
  includedGuests: "2",
  extraGuestNightly: "0.00",
  cleaningFee: "0.00",
  taxPercent: "0",
  taxIncluded: true,
  depositPercent: "30",
  balanceDueDays: "30",
  cancellationPolicy: "moderate",
  seasons: [],
};

function draftOf(rates: EstateRatesView["rates"]): Draft {
  if (!rates) return EMPTY;
  return {
    currency: rates.currency,
    nightly: major(rates.nightly),
    minNights: String(rates.minNights),
    includedGuests: String(rates.includedGuests),
    extraGuestNightly: major(rates.extraGuestNightly),
    cleaningFee: major(rates.cleaningFee),
    taxPercent: String(rates.taxPercent),
    taxIncluded: rates.taxIncluded,
    depositPercent: String(rates.depositPercent),
    balanceDueDays: String(rates.balanceDueDays),
    cancellationPolicy: rates.cancellationPolicy,
    seasons: rates.seasons.map((season) => ({
      start: season.start,
      end: season.end,
      nightly: major(season.nightly),
      minNights: season.minNights === undefined ? "" : String(season.minNights),
    })),
  };
}

/** A number as typed (a comma as the decimal mark too); NaN when it is not one. */
const numberOf = (text: string) =>
  text.trim() === "" ? NaN : Number(text.trim().replace(",", "."));
/** An amount typed in the major unit, in minor units (whole cents; NaN stays NaN). */
const minorOf = (text: string) => {
  const value = numberOf(text);
  return Number.isFinite(value) ? Math.round(value * 100) : value;
};

function ratesOf(draft: Draft): RatesInput {
  return {
    currency: draft.currency,
    nightly: minorOf(draft.nightly),
    minNights: numberOf(draft.minNights),
    includedGuests: numberOf(draft.includedGuests),
    extraGuestNightly: minorOf(draft.extraGuestNightly),
    cleaningFee: minorOf(draft.cleaningFee),
    taxPercent: numberOf(draft.taxPercent),
    taxIncluded: draft.taxIncluded,
    depositPercent: numberOf(draft.depositPercent),
    balanceDueDays: numberOf(draft.balanceDueDays),
    cancellationPolicy: draft.cancellationPolicy,
    seasons: draft.seasons.map((season) => ({
      start: season.start,
      end: season.end,
      nightly: minorOf(season.nightly),
      ...(season.minNights.trim() === "" ? {} : { minNights: numberOf(season.minNights) }),
    })),
  };
}

/**
 * An estate's rates as staff and its owner edit them: the usual nightly price and terms, the
 * seasons, and the revisions kept (staff may put one back). The browser checks the rates with
 * the schema the server checks them with again; amounts are typed in the currency's major unit
 * and sent in minor units.
 */
export function RatesPanel({ api, isActive = true }: { api: RatesApi; isActive?: boolean }) {
  const { t, i18n } = useTranslation();
  const language = isLanguage(i18n.language) ? i18n.language : "en";
  const hydrated = useHydrated();
  const [view, setView] = useState<EstateRatesView | null>(null);
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [problem, setProblem] = useState<string | null>(null);
  /** Someone saved since this form was read: the next save would be refused until a reload. */
  const [changedMeanwhile, setChangedMeanwhile] = useState(false);
  const [saving, setSaving] = useState(false);
  const [version, setVersion] = useState(0);
  const [opened, setOpened] = useState(isActive);
  if (isActive && !opened) setOpened(true);

  useEffect(() => {
    if (!opened) return;
    const controller = new AbortController();
    api
      .read(controller.signal)
      .then((answer) => {
        if (answer.ok) {
          setView(answer.data);
          setDraft(draftOf(answer.data.rates));
          setProblem(null);
          setChangedMeanwhile(false);
        } else setProblem(answer.message ?? t("errors.generic"));
      })
      .catch(() => {});
    return () => controller.abort();
  }, [api, opened, version, t]);

  const set = <K extends keyof Draft>(key: K, value: Draft[K]) =>
    setDraft((current) => ({ ...current, [key]: value }));
  const setSeason = (index: number, change: Partial<SeasonDraft>) =>
    setDraft((current) => ({
      ...current,
      seasons: current.seasons.map((season, i) =>
        i === index ? { ...season, ...change } : season,
      ),
    }));

  const applied = (answer: RatesAnswer, done: string) => {
    if (answer.ok) {
      setView(answer.data);
      setDraft(draftOf(answer.data.rates));
      setErrors({});
      setProblem(null);
      toast({ title: done });
      return;
    }
    if (answer.code === "rates_changed") {
      setChangedMeanwhile(true);
      return;
    }
    if (answer.status === 400 && answer.errors.length) {
      setErrors(Object.fromEntries(answer.errors.map((issue) => [issue.path, issue.message])));
      return;
    }
    setProblem(answer.message ?? t("errors.generic"));
  };

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (saving || !view) return;
    const rates = ratesOf(draft);
    const parsed = ratesSchema.safeParse(rates);
    if (!parsed.success) {
      const found: Record<string, string> = {};
      for (const issue of parsed.error.issues) {
        const path = issue.path.join(".");
        found[path] ??= t(issue.message);
      }
      setErrors(found);
      return;
    }
    setSaving(true);
    try {
      applied(await api.save(parsed.data, view.revision ?? 0), t("owner.rates.saved"));
    } finally {
      setSaving(false);
    }
  };

  const revert = async (revision: number) => {
    if (!api.revert || saving) return;
    setSaving(true);
    try {
      applied(await api.revert(revision), t("owner.rates.reverted", { revision }));
    } finally {
      setSaving(false);
    }
  };

  if (!view)
    return problem ? (
      <Alert>{problem}</Alert>
    ) : (
      <p className="text-muted text-sm">{t("owner.rates.loading")}</p>
    );

  const errorOf = (path: string) => errors[path];
  const input = (
    key: Exclude<keyof Draft, "currency" | "taxIncluded" | "cancellationPolicy" | "seasons">,
    label: string,
    hint?: string,
    mode: "decimal" | "numeric" = "decimal",
  ) => (
    <Field label={label} hint={hint} error={errorOf(key)}>
      {(control) => (
        <input
          {...control}
          name={key}
          inputMode={mode}
          value={draft[key]}
          onChange={(event) => set(key, event.target.value)}
          className={CONTROL_CLASS}
        />
      )}
    </Field>
  );
  const steps = REFUND_STEPS[draft.cancellationPolicy];

  return (
    <div className="grid gap-6" data-testid="rates-panel">
      {!view.rates && <Alert variant="warning">{t("owner.rates.none")}</Alert>}
      {problem && <Alert>{problem}</Alert>}
      {changedMeanwhile && (
        <Alert variant="warning" className="flex flex-wrap items-center justify-between gap-3">
          {t("pricing.errors.changedMeanwhile")}
          <Button
            type="button"
            size="sm"
            variant="outline"
            onClick={() => setVersion((v) => v + 1)}
          >
            {t("owner.rates.reload")}
          </Button>
        </Alert>
      )}
      <form method="post" onSubmit={submit} noValidate className="grid gap-6">
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          <Field label={t("owner.rates.currency")} error={errorOf("currency")}>
            {(control) => (
              <select
                {...control}
                name="currency"
                value={draft.currency}
                onChange={(event) => set("currency", event.target.value as Currency)}
                className={CONTROL_CLASS}
              >
                {CURRENCIES.map((currency) => (
                  <option key={currency} value={currency}>
                    {currency}
                  </option>
                ))}
              </select>
            )}
          </Field>
          {input("nightly", t("owner.rates.nightly"), t("owner.rates.amountHint"))}
          {input("minNights", t("owner.rates.minNights"), undefined, "numeric")}
          {input("includedGuests", t("owner.rates.includedGuests"), undefined, "numeric")}
          {input("extraGuestNightly", t("owner.rates.extraGuestNightly"))}
          {input("cleaningFee", t("owner.rates.cleaningFee"))}
          {input("taxPercent", t("owner.rates.taxPercent"))}
          <label className="text-ink flex items-center gap-3 self-end pb-2 text-sm font-medium">
            <input
              type="checkbox"
              name="taxIncluded"
              checked={draft.taxIncluded}
              onChange={(event) => set("taxIncluded", event.target.checked)}
              className="accent-heritage size-4"
            />
            {t("owner.rates.taxIncluded")}
          </label>
          {input("depositPercent", t("owner.rates.depositPercent"))}
          {input(
            "balanceDueDays",
            t("owner.rates.balanceDueDays"),
            t("owner.rates.balanceDueHint"),
            "numeric",
          )}
          <Field
            label={t("owner.rates.cancellationPolicy")}
            hint={
              steps
                .map((step) =>
                  t("owner.rates.refundStep", {
                    percent: step.refundPercent,
                    count: step.daysBefore,
                  }),
                )
                .join(" · ") + ` · ${t("owner.rates.refundNone")}`
            }
            error={errorOf("cancellationPolicy")}
          >
            {(control) => (
              <select
                {...control}
                name="cancellationPolicy"
                value={draft.cancellationPolicy}
                onChange={(event) =>
                  set("cancellationPolicy", event.target.value as CancellationPolicy)
                }
                className={CONTROL_CLASS}
              >
                {CANCELLATION_POLICIES.map((policy) => (
                  <option key={policy} value={policy}>
                    {t(`owner.rates.policies.${policy}`)}
                  </option>
                ))}
              </select>
            )}
          </Field>
        </div>

        <fieldset className="grid gap-3">
          <legend className="text-heritage mb-1 text-lg font-semibold">
            {t("owner.rates.seasons")}
          </legend>
          <p className="text-muted text-sm">{t("owner.rates.seasonsIntro")}</p>
          {draft.seasons.map((season, index) => (
            <div
              key={index}
              data-testid="season"
              className="border-gold/30 grid gap-3 rounded-sm border p-3 sm:grid-cols-[1fr_1fr_1fr_1fr_auto] sm:items-end"
            >
              <Field label={t("owner.rates.seasonStart")} error={errorOf(`seasons.${index}.start`)}>
                {(control) => (
                  <input
                    {...control}
                    type="date"
                    value={season.start}
                    onChange={(event) => setSeason(index, { start: event.target.value })}
                    className={CONTROL_CLASS}
                  />
                )}
              </Field>
              <Field label={t("owner.rates.seasonEnd")} error={errorOf(`seasons.${index}.end`)}>
                {(control) => (
                  <input
                    {...control}
                    type="date"
                    value={season.end}
                    onChange={(event) => setSeason(index, { end: event.target.value })}
                    className={CONTROL_CLASS}
                  />
                )}
              </Field>
              <Field label={t("owner.rates.nightly")} error={errorOf(`seasons.${index}.nightly`)}>
                {(control) => (
                  <input
                    {...control}
                    inputMode="decimal"
                    value={season.nightly}
                    onChange={(event) => setSeason(index, { nightly: event.target.value })}
                    className={CONTROL_CLASS}
                  />
                )}
              </Field>
              <Field
                label={t("owner.rates.seasonMinNights")}
                error={errorOf(`seasons.${index}.minNights`)}
              >
                {(control) => (
                  <input
                    {...control}
                    inputMode="numeric"
                    value={season.minNights}
                    onChange={(event) => setSeason(index, { minNights: event.target.value })}
                    className={CONTROL_CLASS}
                  />
                )}
              </Field>
              <Button
                type="button"
                variant="destructiveGhost"
                onClick={() =>
                  set(
                    "seasons",
                    draft.seasons.filter((_, i) => i !== index),
                  )
                }
              >
                <Trash2 aria-hidden className="size-4" />
                {t("owner.rates.removeSeason")}
              </Button>
            </div>
          ))}
          {errorOf("seasons") && (
            <p className="text-sm font-medium text-orange-800">{errorOf("seasons")}</p>
          )}
          <div>
            <Button
              type="button"
              variant="outline"
              onClick={() =>
                set("seasons", [
                  ...draft.seasons,
                  { start: "", end: "", nightly: "", minNights: "" },
                ])
              }
            >
              <Plus aria-hidden className="size-4" />
              {t("owner.rates.addSeason")}
            </Button>
          </div>
        </fieldset>

        <div className="flex flex-wrap items-center gap-4">
          <Button type="submit" disabled={!hydrated || saving} data-testid="save-rates">
            {t("owner.rates.save")}
          </Button>
          {view.revision !== null && (
            <span className="text-muted text-sm">
              {t("owner.rates.inForce", { revision: view.revision })}
            </span>
          )}
        </div>
      </form>

      {view.revisions.length > 0 && (
        <section aria-labelledby="rates-revisions" className="grid gap-2">
          <h3 id="rates-revisions" className="text-heritage text-lg font-semibold">
            {t("owner.rates.revisions")}
          </h3>
          <ul className="divide-gold/20 border-gold/30 divide-y rounded-sm border text-sm">
            {view.revisions.map((revision) => (
              <li
                key={revision.revision}
                className="flex flex-wrap items-center justify-between gap-3 px-4 py-3"
              >
                <span>
                  {t("owner.rates.revisionLine", {
                    revision: revision.revision,
                    who: revision.actorEmail ?? t(`owner.rates.roles.${revision.actorRole}`),
                    when: formatMoment(revision.createdAt, language),
                  })}
                  {revision.revertOf !== null &&
                    ` · ${t("owner.rates.revertOf", { revision: revision.revertOf })}`}
                </span>
                {api.revert && revision.revision !== view.revision && (
                  <Button
                    type="button"
                    size="sm"
                    variant="outline"
                    disabled={!hydrated || saving}
                    onClick={() => void revert(revision.revision)}
                  >
                    <RotateCcw aria-hidden className="size-4" />
                    {t("owner.rates.putBack")}
                  </Button>
                )}
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}

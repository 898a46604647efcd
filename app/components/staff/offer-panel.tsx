import { useCallback, useEffect, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import type { AnswerOf } from "#domain/api/operation.ts";
import {
  isOfferKind,
  type OfferKind,
  STAFF_OFFER_OPERATIONS,
} from "#domain/offers/offers.contract.ts";
import { PAYMENT_KINDS, PAYMENT_METHODS } from "#domain/offers/offer.schema.ts";
import { getEstateRates } from "#domain/pricing/pricing.contract.ts";
import type { RequestDetail } from "#domain/staff/inbox.ts";
import { isLanguage } from "#i18n/config.ts";
import { callApi } from "#app/api-client.ts";
import { toast } from "#app/hooks/use-toast.ts";
import { moneyIn, OfferPrice } from "../offers/offer-price.tsx";
import { Button } from "../ui/button.tsx";
import { ConfirmDialog } from "../ui/confirm-dialog.tsx";
import { CONTROL_CLASS, Field, InputField, TextAreaField } from "../ui/field.tsx";
import { formatMoment } from "./format.ts";

type StaffOffers = AnswerOf<(typeof STAFF_OFFER_OPERATIONS)["property_booking"]["list"], 200>;

/** States in which staff may send an offer (a new one withdraws the one out). */
const OFFERABLE = new Set(["New", "Contacted", "In progress", "Offered"]);
const CANCELLABLE = new Set(["Awaiting deposit", "Confirmed"]);

/** How long an offer may stay open, as staff choose it (hours); "" is the site's default. */
const VALIDITY_HOURS = ["24", "48", "72", "168", "336"] as const;

/** The offer form before staff touch it. */
const EMPTY_OFFER_FORM = {
  discount: "",
  depositPercent: "",
  note: "",
  validHours: "",
  extras: [] as { text: string; amount: string }[],
};

type InputLineCode = "nights" | "extra_guests" | "cleaning" | "extra";
const isInputLineCode = (code: string): code is InputLineCode =>
  code === "nights" || code === "extra_guests" || code === "cleaning" || code === "extra";

/** "120", "120.5", "1 200,50" → minor units; null when it is not an amount. */
export function minorUnitsOf(text: string): number | null {
  const cleaned = text.replace(/[\s\u00a0\u202f]/g, "").replace(",", ".");
  if (!/^\d+(\.\d{1,2})?$/.test(cleaned)) return null;
  return Math.round(Number(cleaned) * 100);
}

/**
 * A booking's offer and money, in the request's details: the offer out or accepted with what
 * was paid, the form that sends a new one, the ledger and the form that records a payment, and
 * cancelling a booking. Every figure comes from the server; staff type amounts in the major
 * unit of the offer's currency.
 */
export function OfferPanel({
  detail,
  onChanged,
}: {
  detail: RequestDetail;
  onChanged: () => void;
}) {
  if (!isOfferKind(detail.kind)) return null;
  return <OfferPanelOf kind={detail.kind} detail={detail} onChanged={onChanged} />;
}

function OfferPanelOf({
  kind,
  detail,
  onChanged,
}: {
  kind: OfferKind;
  detail: RequestDetail;
  onChanged: () => void;
}) {
  const { t, i18n } = useTranslation();
  const language = isLanguage(i18n.language) ? i18n.language : "en";
  const headingId = useId();
  const operations = STAFF_OFFER_OPERATIONS[kind];
  const [state, setState] = useState<StaffOffers | null>(null);
  const [currency, setCurrency] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [form, setForm] = useState(EMPTY_OFFER_FORM);
  const [payment, setPayment] = useState({
    kind: "deposit" as (typeof PAYMENT_KINDS)[number],
    method: "bank_transfer" as (typeof PAYMENT_METHODS)[number],
    amount: "",
    reference: "",
    receivedAt: new Date().toISOString().slice(0, 10),
  });
  const [cancelOpen, setCancelOpen] = useState(false);
  const [cancelReason, setCancelReason] = useState("");

  const [loaded, setLoaded] = useState(0);
  const load = useCallback(() => setLoaded((count) => count + 1), []);

  useEffect(() => {
    const controller = new AbortController();
    void callApi(
      operations.list,
      { params: { id: detail.id } },
      { language, signal: controller.signal },
    ).then((answer) => {
      if (!controller.signal.aborted && answer.ok) setState(answer.data);
    });
    return () => controller.abort();
  }, [operations, detail.id, detail.version, language, loaded]);

  useEffect(() => {
    if (detail.propertyId === null) return;
    void callApi(getEstateRates, { params: { id: detail.propertyId } }, { language }).then(
      (answer) => {
        if (answer.ok) setCurrency(answer.data.rates?.currency ?? null);
      },
    );
  }, [detail.propertyId, language]);

  const current =
    state?.offers.find((offer) => offer.status === "sent" || offer.status === "accepted") ??
    state?.offers[0] ??
    null;
  const money = moneyIn(current?.currency ?? currency ?? "EUR", language);
  const unit = current?.currency ?? currency ?? "";
  const hasStay =
    detail.propertyId !== null && detail.stayStart !== null && detail.stayEnd !== null;

  const settled = async (ok: boolean, message: string) => {
    if (!ok) return;
    toast({ title: message });
    load();
    onChanged();
  };

  const refused = (answer: {
    status: number;
    message: string | null;
    errors: { path: string; message: string }[];
  }) => {
    if (answer.status === 400 && answer.errors.length > 0) {
      setErrors(
        Object.fromEntries(
          answer.errors.map((issue) => [issue.path.split(".")[0] ?? "", issue.message]),
        ),
      );
      return;
    }
    toast({
      variant: "destructive",
      title: t("forms.toast.errorTitle"),
      description: answer.message ?? t("staff.change.failed"),
    });
  };

  const send = async (event: React.FormEvent) => {
    event.preventDefault();
    const next: Record<string, string> = {};
    const discount = form.discount ? minorUnitsOf(form.discount) : undefined;
    if (discount === null) next.discount = t("staff.offers.amountInvalid");
    // Extra charges go with the quote's own lines: `lines` replace the quote's when sent.
    const extras = form.extras
      .map((extra) => ({ text: extra.text.trim(), amount: extra.amount.trim() }))
      .filter((extra) => extra.text || extra.amount);
    const extraLines = extras.map((extra, index) => {
      const unitAmount = minorUnitsOf(extra.amount);
      if (unitAmount === null || unitAmount === 0)
        next[`extra${index}`] = t("staff.offers.amountInvalid");
      if (!extra.text) next[`extraText${index}`] = t("staff.offers.send.chargeTextMissing");
      return { code: "extra" as const, text: extra.text, quantity: 1, unitAmount: unitAmount ?? 0 };
    });
    setErrors(next);
    if (Object.keys(next).length > 0 || busy) return;
    const lines =
      extraLines.length > 0 && state?.quote
        ? [
            ...state.quote.lines.flatMap(({ code, quantity, unitAmount }) =>
              isInputLineCode(code) ? [{ code, quantity, unitAmount }] : [],
            ),
            ...extraLines,
          ]
        : undefined;
    setBusy(true);
    const answer = await callApi(
      operations.send,
      {
        params: { id: detail.id },
        body: {
          ...(lines ? { lines } : {}),
          ...(discount ? { discount } : {}),
          ...(form.depositPercent ? { depositPercent: Number(form.depositPercent) } : {}),
          ...(form.validHours
            ? {
                expiresAt: new Date(Date.now() + Number(form.validHours) * 3_600_000).toISOString(),
              }
            : {}),
          ...(form.note.trim() ? { note: form.note.trim() } : {}),
        },
      },
      { language },
    );
    setBusy(false);
    if (answer.ok) {
      setForm(EMPTY_OFFER_FORM);
      await settled(true, t("staff.offers.send.sent"));
    } else refused(answer);
  };

  const setExtra = (index: number, change: Partial<{ text: string; amount: string }>) =>
    setForm((value) => ({
      ...value,
      extras: value.extras.map((extra, i) => (i === index ? { ...extra, ...change } : extra)),
    }));

  const withdraw = async (offerId: string) => {
    setBusy(true);
    const answer = await callApi(
      operations.withdraw,
      { params: { id: detail.id, offerId } },
      { language },
    );
    setBusy(false);
    if (answer.ok) await settled(true, t("staff.offers.withdrawn"));
    else refused(answer);
  };

  const record = async (event: React.FormEvent) => {
    event.preventDefault();
    const amount = minorUnitsOf(payment.amount);
    if (amount === null) {
      setErrors({ amount: t("staff.offers.amountInvalid") });
      return;
    }
    setErrors({});
    setBusy(true);
    const answer = await callApi(
      operations.recordPayment,
      {
        params: { id: detail.id },
        body: {
          kind: payment.kind,
          method: payment.method,
          amount,
          currency: unit,
          reference: payment.reference,
          receivedAt: new Date(`${payment.receivedAt}T12:00:00Z`).toISOString(),
        },
      },
      { language },
    );
    setBusy(false);
    if (answer.ok) {
      setPayment((value) => ({ ...value, amount: "", reference: "" }));
      await settled(true, t("staff.offers.record.recorded"));
    } else refused(answer);
  };

  const cancel = async () => {
    setBusy(true);
    const answer = await callApi(
      operations.cancel,
      {
        params: { id: detail.id },
        body: cancelReason.trim() ? { reason: cancelReason.trim() } : {},
      },
      { language },
    );
    setBusy(false);
    setCancelOpen(false);
    if (answer.ok) await settled(true, t("staff.offers.cancel.done"));
    else refused(answer);
  };

  return (
    <section
      aria-labelledby={headingId}
      data-testid="offer-panel"
      className="border-gold/30 bg-paper grid gap-5 rounded-sm border p-5"
    >
      <h3 id={headingId} className="font-display text-heritage text-xl font-semibold">
        {t("staff.offers.title")}
      </h3>
      {!current && (
        <p className="text-sm">{hasStay ? t("staff.offers.none") : t("staff.offers.needsStay")}</p>
      )}
      {current && (
        <div className="grid gap-3" data-testid="staff-offer" data-offer-status={current.status}>
          <p className="text-sm font-medium">
            {t(`staff.offers.statuses.${current.status}`)}
            {current.status === "sent" &&
              ` · ${t("staff.offers.expires", { date: formatMoment(current.expiresAt, language) })}`}
            {current.depositDueAt &&
              detail.status === "Awaiting deposit" &&
              ` · ${t("staff.offers.depositDue", { date: formatMoment(current.depositDueAt, language) })}`}
          </p>
          <OfferPrice {...current} language={language} />
          {current.status === "accepted" && (
            <p className="text-sm" data-testid="staff-offer-paid">
              {t("staff.offers.paid", {
                paid: money(current.paid),
                total: money(current.total),
                outstanding: money(current.outstanding),
              })}
            </p>
          )}
          {current.refundDue ? (
            <p className="text-sm font-medium">
              {t("staff.offers.refundDue", { amount: money(current.refundDue) })}
            </p>
          ) : null}
          {current.caslTx && (
            <p className="text-sm break-all">{t("staff.offers.caslTx", { tx: current.caslTx })}</p>
          )}
          {current.status === "sent" && (
            <div>
              <Button
                variant="outline"
                size="sm"
                disabled={busy}
                onClick={() => void withdraw(current.id)}
              >
                {t("staff.offers.withdraw")}
              </Button>
            </div>
          )}
        </div>
      )}

      {hasStay && OFFERABLE.has(detail.status) && (
        <form
          method="post"
          className="grid gap-3 sm:grid-cols-2"
          onSubmit={(event) => void send(event)}
          noValidate
        >
          <h4 className="text-heritage font-medium sm:col-span-2">
            {current?.status === "sent"
              ? t("staff.offers.send.again")
              : t("staff.offers.send.title")}
          </h4>
          <p className="text-muted text-sm sm:col-span-2">{t("staff.offers.send.intro")}</p>
          <InputField
            label={t("staff.offers.send.discount", { currency: unit })}
            value={form.discount}
            onChange={(discount) => setForm({ ...form, discount })}
            error={errors.discount}
            inputMode="decimal"
          />
          <InputField
            label={t("staff.offers.send.depositPercent")}
            hint={t("staff.offers.send.depositHint")}
            value={form.depositPercent}
            onChange={(depositPercent) => setForm({ ...form, depositPercent })}
            error={errors.depositPercent}
            inputMode="decimal"
          />
          <Field label={t("staff.offers.send.validFor")}>
            {(control) => (
              <select
                {...control}
                className={CONTROL_CLASS}
                value={form.validHours}
                onChange={(event) => setForm({ ...form, validHours: event.target.value })}
              >
                <option value="">{t("staff.offers.send.validDefault")}</option>
                {VALIDITY_HOURS.map((hours) => (
                  <option key={hours} value={hours}>
                    {t(`staff.offers.send.validOptions.${hours}`)}
                  </option>
                ))}
              </select>
            )}
          </Field>
          {errors.expiresAt && (
            <p className="text-burgundy text-sm sm:col-span-2" role="alert">
              {errors.expiresAt}
            </p>
          )}
          {state?.quote && (
            <div className="grid gap-2 sm:col-span-2" data-testid="offer-quote-lines">
              <p className="text-sm font-medium">{t("staff.offers.send.startsFrom")}</p>
              <ul className="grid gap-1 text-sm">
                {state.quote.lines.map((line, index) => (
                  <li key={index} className="flex flex-wrap justify-between gap-x-4">
                    <span>
                      {line.label}
                      {line.quantity > 1 && ` × ${line.quantity}`}
                    </span>
                    <span className="tabular-nums">{money(line.amount)}</span>
                  </li>
                ))}
              </ul>
              {form.extras.map((extra, index) => (
                <div
                  key={index}
                  className="grid items-end gap-3 sm:grid-cols-[1fr_10rem_auto]"
                  data-testid="offer-extra"
                >
                  <InputField
                    label={t("staff.offers.send.chargeText")}
                    value={extra.text}
                    onChange={(text) => setExtra(index, { text })}
                    error={errors[`extraText${index}`]}
                    maxLength={120}
                  />
                  <InputField
                    label={t("staff.offers.send.chargeAmount", { currency: unit })}
                    value={extra.amount}
                    onChange={(amount) => setExtra(index, { amount })}
                    error={errors[`extra${index}`]}
                    inputMode="decimal"
                  />
                  <Button
                    type="button"
                    variant="ghost"
                    size="sm"
                    onClick={() =>
                      setForm((value) => ({
                        ...value,
                        extras: value.extras.filter((_, i) => i !== index),
                      }))
                    }
                  >
                    {t("staff.offers.send.removeCharge")}
                  </Button>
                </div>
              ))}
              {errors.lines && (
                <p className="text-burgundy text-sm" role="alert">
                  {errors.lines}
                </p>
              )}
              <div>
                <Button
                  type="button"
                  variant="outline"
                  size="sm"
                  disabled={form.extras.length >= 5}
                  onClick={() =>
                    setForm((value) => ({
                      ...value,
                      extras: [...value.extras, { text: "", amount: "" }],
                    }))
                  }
                >
                  {t("staff.offers.send.addCharge")}
                </Button>
              </div>
            </div>
          )}
          <div className="sm:col-span-2">
            <TextAreaField
              label={t("staff.offers.send.note")}
              value={form.note}
              onValueChange={(note) => setForm({ ...form, note })}
              error={errors.note}
              maxLength={2000}
            />
          </div>
          <div className="sm:col-span-2">
            <Button type="submit" disabled={busy} data-testid="send-offer">
              {t("staff.offers.send.submit")}
            </Button>
          </div>
        </form>
      )}

      {current?.status === "accepted" && (
        <form
          method="post"
          className="grid gap-3 sm:grid-cols-2"
          onSubmit={(event) => void record(event)}
          noValidate
        >
          <h4 className="text-heritage font-medium sm:col-span-2">
            {t("staff.offers.record.title")}
          </h4>
          <Field label={t("staff.offers.record.kind")}>
            {(control) => (
              <select
                {...control}
                className={CONTROL_CLASS}
                value={payment.kind}
                onChange={(event) =>
                  setPayment({ ...payment, kind: event.target.value as typeof payment.kind })
                }
              >
                {PAYMENT_KINDS.map((value) => (
                  <option key={value} value={value}>
                    {t(`offers.payment.kinds.${value}`)}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field label={t("staff.offers.record.method")}>
            {(control) => (
              <select
                {...control}
                className={CONTROL_CLASS}
                value={payment.method}
                onChange={(event) =>
                  setPayment({ ...payment, method: event.target.value as typeof payment.method })
                }
              >
                {PAYMENT_METHODS.map((value) => (
                  <option key={value} value={value}>
                    {t(`offers.payment.methods.${value}`)}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <InputField
            label={t("staff.offers.record.amount", { currency: unit })}
            value={payment.amount}
            onChange={(amount) => setPayment({ ...payment, amount })}
            error={errors.amount ?? errors.currency}
            inputMode="decimal"
          />
          <InputField
            label={t("staff.offers.record.reference")}
            value={payment.reference}
            onChange={(reference) => setPayment({ ...payment, reference })}
            error={errors.reference}
          />
          <InputField
            label={t("staff.offers.record.receivedAt")}
            type="date"
            value={payment.receivedAt}
            onChange={(receivedAt) => setPayment({ ...payment, receivedAt })}
            error={errors.receivedAt}
          />
          <div className="self-end">
            <Button type="submit" disabled={busy} data-testid="record-payment">
              {t("staff.offers.record.submit")}
            </Button>
          </div>
        </form>
      )}

      {state && state.payments.length > 0 && (
        <div>
          <h4 className="text-heritage font-medium">{t("staff.offers.ledger.title")}</h4>
          <ul className="mt-2 grid gap-1 text-sm" data-testid="staff-ledger">
            {state.payments.map((row) => (
              <li key={row.id} className="flex flex-wrap justify-between gap-x-4">
                <span className="min-w-0 break-words">
                  {t(`offers.payment.kinds.${row.kind}`)} ·{" "}
                  {t(`offers.payment.methods.${row.method}`)} ·{" "}
                  {formatMoment(row.receivedAt, language)} · {row.reference} ·{" "}
                  {t("staff.offers.ledger.recordedBy", { who: row.recordedBy })}
                </span>
                <span className="tabular-nums">
                  {moneyIn(
                    row.currency,
                    language,
                  )(row.kind === "refund" ? -row.amount : row.amount)}
                </span>
              </li>
            ))}
          </ul>
        </div>
      )}

      {CANCELLABLE.has(detail.status) && (
        <div>
          <Button
            variant="destructiveGhost"
            size="sm"
            onClick={() => setCancelOpen(true)}
            disabled={busy}
          >
            {t("staff.offers.cancel.button")}
          </Button>
          <ConfirmDialog
            open={cancelOpen}
            onOpenChange={setCancelOpen}
            title={t("staff.offers.cancel.title")}
            description={t("staff.offers.cancel.description")}
            cancelLabel={t("staff.offers.cancel.keep")}
            confirmLabel={t("staff.offers.cancel.confirm")}
            busy={busy}
            onConfirm={() => void cancel()}
          >
            <InputField
              label={t("staff.offers.cancel.reason")}
              value={cancelReason}
              onChange={setCancelReason}
            />
          </ConfirmDialog>
        </div>
      )}
    </section>
  );
}

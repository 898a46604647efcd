import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useRevalidator } from "react-router";
import { Banknote, CreditCard, Coins, FileText } from "lucide-react";
import type { AnswerOf } from "#domain/api/operation.ts";
import type { getGuestRequest } from "#domain/offers/offers.contract.ts";
import { isLanguage } from "#i18n/config.ts";
import { Alert } from "../ui/alert.tsx";
import { Button } from "../ui/button.tsx";
import { ConfirmDialog } from "../ui/confirm-dialog.tsx";
import { CopyValue } from "../ui/copy-value.tsx";
import { InputField } from "../ui/field.tsx";
import { longDate } from "../ui/month-grid-dates.ts";
import { moneyIn, OfferPrice } from "./offer-price.tsx";

export type GuestRequestAnswer = AnswerOf<typeof getGuestRequest, 200>;

const dateTime = (iso: string, language: string) =>
  new Intl.DateTimeFormat(language, { dateStyle: "long", timeStyle: "short" }).format(
    new Date(iso),
  );

/**
 * The offer on the guest's status page: the price line by line, the terms, and what the guest
 * can do now (accept or decline an offer, pay what is due by card, transfer or $CASL, cancel
 * while the policy refunds). Every action is a call of the guest API; the page then reads the
 * request again.
 */
export function GuestOffer({
  token,
  request,
  justPaid,
}: {
  token: string;
  request: GuestRequestAnswer;
  /** Back from the card payment page: the payment may not be recorded yet. */
  justPaid: boolean;
}) {
  const { t, i18n } = useTranslation();
  const language = isLanguage(i18n.language) ? i18n.language : "en";
  const revalidator = useRevalidator();
  const [busy, setBusy] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [declineOpen, setDeclineOpen] = useState(false);
  const [cancelOpen, setCancelOpen] = useState(false);
  const [txHash, setTxHash] = useState("");
  const [txError, setTxError] = useState<string | null>(null);
  const offer = request.offer;
  if (!offer) return null;
  const money = moneyIn(offer.currency, language);
  const base = `/api/requests/${encodeURIComponent(token)}`;

  async function call(action: string, path: string, body?: unknown): Promise<unknown> {
    setBusy(action);
    setFailure(null);
    try {
      const response = await fetch(`${path}?lang=${language}`, {
        method: "POST",
        headers: body === undefined ? {} : { "Content-Type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const answer = (await response.json().catch(() => null)) as {
        message?: string;
        errors?: { message: string }[];
        url?: string;
      } | null;
      if (!response.ok) {
        const message = answer?.errors?.[0]?.message ?? answer?.message ?? t("offers.page.failed");
        if (action === "casl") setTxError(message);
        else setFailure(message);
        return null;
      }
      return answer;
    } catch {
      setFailure(t("offers.page.failed"));
      return null;
    } finally {
      setBusy(null);
    }
  }

  const act = async (action: string, path: string, body?: unknown) => {
    const answer = await call(action, path, body);
    if (answer) await revalidator.revalidate();
    return answer;
  };

  const pay = async () => {
    const answer = (await call("card", `${base}/offers/${offer.id}/checkout`)) as {
      url?: string;
    } | null;
    if (answer?.url) window.location.assign(answer.url);
  };

  const due = request.amountDue;
  const options = request.paymentOptions;
  return (
    <section
      aria-labelledby="guest-offer-title"
      data-testid="guest-offer"
      data-offer-status={offer.status}
      className="border-gold/30 bg-paper shadow-card rounded-sm border p-6 sm:p-8"
    >
      <h2 id="guest-offer-title" className="font-display text-heritage text-3xl font-semibold">
        {t("offers.page.title")}
      </h2>
      <p className="mt-2">{t(`offers.page.${offer.status}`)}</p>
      <p className="text-ink/80 mt-2 text-sm">
        {t("offers.page.stay", {
          checkIn: longDate(offer.checkIn, language),
          checkOut: longDate(offer.checkOut, language),
        })}
        {" · "}
        {t("offers.page.guests", { count: offer.guests })}
      </p>
      {offer.note && (
        <div className="border-gold/30 mt-4 border-l-4 pl-4">
          <h3 className="text-muted text-sm">{t("offers.page.note")}</h3>
          <p className="mt-1 break-words whitespace-pre-wrap">{offer.note}</p>
        </div>
      )}
      <div className="mt-6">
        <OfferPrice {...offer} language={language} />
      </div>
      <ul className="mt-4 grid gap-1 text-sm">
        {offer.status === "sent" && (
          <li>{t("offers.page.openUntil", { date: dateTime(offer.expiresAt, language) })}</li>
        )}
        {offer.balance === 0 ? (
          <li>{t("offers.page.allAtOnce")}</li>
        ) : offer.depositDueAt ? (
          <li>
            {t("offers.page.depositDueBy", {
              amount: money(offer.deposit),
              date: dateTime(offer.depositDueAt, language),
            })}
          </li>
        ) : (
          <li>{t("offers.page.depositOnAcceptance", { amount: money(offer.deposit) })}</li>
        )}
        {offer.balance > 0 && offer.balanceDueOn && (
          <li>
            {t("offers.page.balanceDueOn", {
              amount: money(offer.balance),
              date: longDate(offer.balanceDueOn, language),
            })}
          </li>
        )}
        {offer.status === "accepted" && (
          <li className="font-medium" data-testid="offer-paid">
            {t("offers.page.paidOf", { paid: money(offer.paid), total: money(offer.total) })}
          </li>
        )}
        {offer.refundDue ? (
          <li className="font-medium">
            {t("offers.page.refundDue", { amount: money(offer.refundDue) })}
          </li>
        ) : null}
      </ul>
      <div className="mt-4 text-sm">
        <h3 className="text-muted">{t("offers.page.policyTitle")}</h3>
        <p>{t(`offers.page.policies.${offer.cancellationPolicy}`)}</p>
      </div>

      {failure && (
        <Alert variant="error" className="mt-4">
          {failure}
        </Alert>
      )}

      {offer.status === "sent" && request.status === "Offered" && (
        <div className="mt-6 flex flex-wrap gap-3">
          <Button
            onClick={() => void act("accept", `${base}/offers/${offer.id}/accept`)}
            disabled={busy !== null}
          >
            {t("offers.page.accept")}
          </Button>
          <Button variant="outline" onClick={() => setDeclineOpen(true)} disabled={busy !== null}>
            {t("offers.page.decline")}
          </Button>
          <ConfirmDialog
            open={declineOpen}
            onOpenChange={setDeclineOpen}
            title={t("offers.page.declineTitle")}
            description={t("offers.page.declineDescription")}
            cancelLabel={t("offers.page.keep")}
            confirmLabel={t("offers.page.decline")}
            busy={busy === "decline"}
            onConfirm={() =>
              void act("decline", `${base}/offers/${offer.id}/decline`).then(() =>
                setDeclineOpen(false),
              )
            }
          />
        </div>
      )}

      {justPaid && due && (
        <p
          role="status"
          className="border-gold/40 bg-ivory mt-6 rounded-sm border px-4 py-3 text-sm"
        >
          {t("offers.page.pay.paidThanks")}
        </p>
      )}

      {due && (
        <div className="border-gold/30 mt-6 grid gap-5 border-t pt-6" data-testid="offer-pay">
          <h3 className="text-heritage text-xl">{t("offers.page.pay.title")}</h3>
          <p className="font-medium">
            {t(`offers.page.pay.due.${due.kind}`, { amount: money(due.amount) })}
          </p>
          {options.card && (
            <div>
              <Button onClick={() => void pay()} disabled={busy !== null}>
                <CreditCard aria-hidden className="size-4" />
                {busy === "card"
                  ? t("offers.page.pay.cardBusy")
                  : t("offers.page.pay.card", { amount: money(due.amount) })}
              </Button>
            </div>
          )}
          {options.bankTransfer && (
            <div className="grid gap-3">
              <h4 className="flex items-center gap-2 font-medium">
                <Banknote aria-hidden className="text-gold size-4" />
                {t("offers.page.pay.bank")}
              </h4>
              <p className="text-sm break-words whitespace-pre-wrap">
                <span className="text-muted">{t("offers.page.pay.bankDetails")}: </span>
                {options.bankTransfer.details}
              </p>
              <CopyValue
                label={t("offers.page.pay.bankReference")}
                value={options.bankTransfer.reference}
                copyLabel={t("offers.page.pay.copy")}
                copiedLabel={t("offers.page.pay.copied")}
                selectLabel={t("offers.page.pay.select")}
              />
            </div>
          )}
          {options.casl && (
            <div className="grid gap-3">
              <h4 className="flex items-center gap-2 font-medium">
                <Coins aria-hidden className="text-gold size-4" />
                {t("offers.page.pay.casl")}
              </h4>
              <CopyValue
                label={t("offers.page.pay.caslWallet")}
                value={options.casl.wallet}
                copyLabel={t("offers.page.pay.copy")}
                copiedLabel={t("offers.page.pay.copied")}
                selectLabel={t("offers.page.pay.select")}
              />
              {offer.caslTx ? (
                <p className="text-sm break-all">
                  {t("offers.page.pay.caslSent", { tx: offer.caslTx })}
                </p>
              ) : null}
              <form
                method="post"
                className="grid gap-3"
                onSubmit={(event) => {
                  event.preventDefault();
                  setTxError(null);
                  void act("casl", `${base}/offers/${offer.id}/casl`, { txHash: txHash.trim() });
                }}
              >
                <InputField
                  label={t("offers.page.pay.caslHash")}
                  value={txHash}
                  onChange={setTxHash}
                  error={txError}
                  autoComplete="off"
                  spellCheck={false}
                />
                <div>
                  <Button type="submit" variant="outline" disabled={busy !== null}>
                    {t("offers.page.pay.caslSend")}
                  </Button>
                </div>
              </form>
            </div>
          )}
        </div>
      )}

      {request.payments.length > 0 && (
        <div className="border-gold/30 mt-6 border-t pt-6">
          <h3 className="text-heritage flex items-center gap-2 text-xl">
            <FileText aria-hidden className="text-gold size-5" />
            {t("offers.page.payments.title")}
          </h3>
          <ul className="mt-3 grid gap-2 text-sm" data-testid="offer-payments">
            {request.payments.map((payment) => (
              <li key={payment.id} className="flex flex-wrap justify-between gap-x-4">
                <span>
                  {t(`offers.payment.kinds.${payment.kind}`)} ·{" "}
                  {t(`offers.payment.methods.${payment.method}`)} ·{" "}
                  {longDate(payment.receivedAt.slice(0, 10), language)}
                </span>
                <span className="flex gap-4">
                  <a
                    className="text-heritage underline underline-offset-2"
                    href={`${base}/payments/${payment.id}/receipt.pdf?lang=${language}`}
                    data-testid="receipt-link"
                  >
                    {t("offers.receipt.download")}
                  </a>
                  <span className="tabular-nums">{money(payment.amount)}</span>
                </span>
              </li>
            ))}
          </ul>
        </div>
      )}

      {request.cancellation.allowed && (
        <div className="border-gold/30 mt-6 border-t pt-6">
          <h3 className="text-heritage text-xl">{t("offers.page.cancel.title")}</h3>
          <p className="mt-2 text-sm">
            {t("offers.page.cancel.explain", { percent: request.cancellation.refundPercent })}
          </p>
          <Button
            variant="destructiveGhost"
            className="mt-3"
            onClick={() => setCancelOpen(true)}
            disabled={busy !== null}
          >
            {t("offers.page.cancel.button")}
          </Button>
          <ConfirmDialog
            open={cancelOpen}
            onOpenChange={setCancelOpen}
            title={t("offers.page.cancel.confirmTitle")}
            description={t("offers.page.cancel.confirmDescription")}
            cancelLabel={t("offers.page.cancel.keep")}
            confirmLabel={t("offers.page.cancel.confirm")}
            busy={busy === "cancel"}
            onConfirm={() => void act("cancel", `${base}/cancel`).then(() => setCancelOpen(false))}
          />
        </div>
      )}
    </section>
  );
}

import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Download, Search } from "lucide-react";
import type { z } from "zod";
import type { Route } from "./+types/privacy";
import {
  erasePersonalData,
  exportPersonalData,
  getPersonalData,
  type PersonalDataErasedSchema,
  type PersonalDataReportSchema,
} from "#domain/privacy/privacy.contract.ts";
import { pathOf } from "#domain/api/operation.ts";
import { FORM_LIMITS } from "#domain/requests/options.ts";
import { LANGUAGES, LANGUAGE_NAMES, type Language } from "#i18n/config.ts";
import { callApi } from "#app/api-client.ts";
import { formatMoment } from "#app/components/staff/format.ts";
import { StaffPageHeader } from "#app/components/staff/staff-page.tsx";
import { Alert, AlertTitle } from "#app/components/ui/alert.tsx";
import { Button, buttonVariants } from "#app/components/ui/button.tsx";
import { ConfirmDialog } from "#app/components/ui/confirm-dialog.tsx";
import { CONTROL_CLASS, Field, InputField, TextAreaField } from "#app/components/ui/field.tsx";
import {
  Table,
  TableBody,
  TableCaption,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from "#app/components/ui/table.tsx";
import { toast } from "#app/hooks/use-toast.ts";
import { requireAdmin, staffTitle } from "./require-admin.server.ts";

export function loader({ context, request }: Route.LoaderArgs) {
  requireAdmin(context, request);
  return { title: staffTitle(context, "staff.privacy.title") };
}

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: loaderData?.title ?? "" },
  { name: "robots", content: "noindex" },
];

type Report = z.infer<typeof PersonalDataReportSchema>;
type Erasure = z.infer<typeof PersonalDataErasedSchema>;

/**
 * A guest's rights, carried out by an admin: find what is held about an address, download the
 * copy to send them in their language, and erase it at their request after a count of what goes.
 * Each look-up, copy and erasure is written to the security log by the server.
 */
export default function PersonalData() {
  const { t, i18n } = useTranslation();
  const options = { language: i18n.language };
  const [email, setEmail] = useState("");
  const [emailError, setEmailError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [report, setReport] = useState<Report | null>(null);
  const [copyLanguage, setCopyLanguage] = useState<Language>("en");
  const [reason, setReason] = useState("");
  const [reasonError, setReasonError] = useState<string | null>(null);
  const [pending, setPending] = useState<Erasure | null>(null);
  const [erased, setErased] = useState<Erasure | null>(null);

  async function lookUp(address: string) {
    setBusy(true);
    setEmailError(null);
    const answer = await callApi(getPersonalData, { query: { email: address } }, options);
    setBusy(false);
    if (!answer.ok) {
      setReport(null);
      setEmailError(answer.errors[0]?.message ?? answer.message ?? t("staff.privacy.failed"));
      return;
    }
    setReport(answer.data);
    const latest = answer.data.requests.at(-1)?.language;
    setCopyLanguage(LANGUAGES.find((language) => language === latest) ?? "en");
  }

  async function count() {
    if (!report) return;
    setBusy(true);
    setReasonError(null);
    const answer = await callApi(
      erasePersonalData,
      { body: { email: report.email, reason, dryRun: true } },
      options,
    );
    setBusy(false);
    if (!answer.ok) {
      setReasonError(answer.errors[0]?.message ?? answer.message ?? t("staff.privacy.failed"));
      return;
    }
    setPending(answer.data);
  }

  async function erase() {
    if (!report) return;
    setBusy(true);
    const answer = await callApi(
      erasePersonalData,
      { body: { email: report.email, reason, dryRun: false } },
      options,
    );
    setBusy(false);
    setPending(null);
    if (!answer.ok) {
      toast({ title: answer.message ?? t("staff.privacy.failed"), variant: "destructive" });
      return;
    }
    setErased(answer.data);
    setReason("");
    toast({ title: t("staff.privacy.erasedToast") });
    await lookUp(report.email);
  }

  const counts = (erasure: Erasure) =>
    t("staff.privacy.counts", {
      requests: t("staff.privacy.requestsCount", { count: erasure.requests }),
      messages: t("staff.privacy.messagesCount", { count: erasure.messages }),
      mails: t("staff.privacy.mailsCount", { count: erasure.mails }),
    });
  const exportHref = report
    ? `${pathOf(exportPersonalData.path, {})}?${new URLSearchParams({ email: report.email, language: copyLanguage })}`
    : "";

  return (
    <div className="mx-auto grid max-w-7xl grid-cols-[minmax(0,1fr)] gap-8 px-4 py-10 sm:px-6 lg:py-12">
      <StaffPageHeader title={t("staff.privacy.title")} description={t("staff.privacy.intro")} />

      <form
        method="post"
        role="search"
        aria-label={t("staff.privacy.searchLabel")}
        className="border-gold/40 bg-paper/70 grid items-end gap-4 rounded-sm border p-4 sm:grid-cols-[minmax(0,28rem)_max-content] sm:p-5"
        onSubmit={(event) => {
          event.preventDefault();
          setErased(null);
          void lookUp(email);
        }}
      >
        <InputField
          label={t("staff.privacy.email")}
          type="email"
          name="email"
          autoComplete="off"
          maxLength={FORM_LIMITS.emailMax}
          required
          value={email}
          onChange={setEmail}
          error={emailError}
          data-testid="privacy-email"
        />
        <p className="text-muted text-xs sm:col-span-2 sm:-mt-2">{t("staff.privacy.emailHint")}</p>
        <Button
          type="submit"
          disabled={busy}
          className="sm:col-start-2 sm:row-start-1"
          data-testid="privacy-look-up"
        >
          <Search aria-hidden className="size-4" />
          {t("staff.privacy.lookUp")}
        </Button>
      </form>

      {erased && (
        <Alert variant="warning" data-testid="privacy-erased">
          <AlertTitle>{t("staff.privacy.erasedTitle")}</AlertTitle>
          <p>{counts(erased)}</p>
          <p className="mt-1">{t("staff.privacy.erasedKept")}</p>
        </Alert>
      )}

      {report && (
        <section
          aria-labelledby="privacy-found"
          className="grid gap-6"
          data-testid="privacy-report"
        >
          <div className="flex flex-wrap items-end justify-between gap-4">
            <div>
              <h2 id="privacy-found" className="text-heritage text-2xl font-semibold">
                {t("staff.privacy.found", { email: report.email })}
              </h2>
              <p className="text-muted mt-1 text-sm" data-testid="privacy-summary">
                {report.requests.length === 0
                  ? t("staff.privacy.nothing")
                  : [
                      t("staff.privacy.requestsCount", { count: report.requests.length }),
                      t("staff.privacy.messagesCount", { count: report.messages.length }),
                      t("staff.privacy.mailsCount", { count: report.mails.length }),
                      t("staff.privacy.ownerViewsCount", { count: report.ownerViews.length }),
                      t("staff.privacy.eventsCount", { count: report.events.length }),
                    ].join(" · ")}
              </p>
            </div>
            {report.requests.length > 0 && (
              <div className="flex flex-wrap items-end gap-3">
                <Field label={t("staff.privacy.copyLanguage")} labelVariant="compact">
                  {(control) => (
                    <select
                      {...control}
                      value={copyLanguage}
                      onChange={(event) => setCopyLanguage(event.target.value as Language)}
                      className={CONTROL_CLASS}
                      data-testid="privacy-copy-language"
                    >
                      {LANGUAGES.map((language) => (
                        <option key={language} value={language}>
                          {LANGUAGE_NAMES[language]}
                        </option>
                      ))}
                    </select>
                  )}
                </Field>
                <a
                  href={exportHref}
                  download
                  className={buttonVariants({ variant: "outline" })}
                  data-testid="privacy-export"
                >
                  <Download aria-hidden className="size-4" />
                  {t("staff.privacy.download")}
                </a>
              </div>
            )}
          </div>

          {report.requests.length > 0 && (
            <Table layout="stack" data-testid="privacy-requests">
              <TableCaption layout="stack" className="sr-only">
                {t("staff.privacy.requestsCaption")}
              </TableCaption>
              <TableHeader layout="stack">
                <tr>
                  <TableHead>{t("staff.details.reference")}</TableHead>
                  <TableHead>{t("staff.privacy.kind")}</TableHead>
                  <TableHead>{t("staff.details.status")}</TableHead>
                  <TableHead>{t("staff.privacy.guest")}</TableHead>
                  <TableHead>{t("staff.details.submitted")}</TableHead>
                </tr>
              </TableHeader>
              <TableBody layout="stack">
                {report.requests.map((request) => (
                  <TableRow layout="stack" key={request.reference}>
                    <TableCell
                      layout="stack"
                      label={t("staff.details.reference")}
                      pinned
                      className="font-mono text-sm"
                    >
                      {request.reference}
                    </TableCell>
                    <TableCell
                      layout="stack"
                      label={t("staff.privacy.kind")}
                      className="first-letter:uppercase"
                    >
                      {t(`mail.kinds.${request.kind}`)}
                    </TableCell>
                    <TableCell layout="stack" label={t("staff.details.status")}>
                      {t(`requestStatus.statuses.${request.status}`)}
                    </TableCell>
                    <TableCell
                      layout="stack"
                      label={t("staff.privacy.guest")}
                      className="break-words"
                    >
                      {`${request.firstName} ${request.lastName}`.trim()}
                      {request.phone && <span className="text-muted block">{request.phone}</span>}
                    </TableCell>
                    <TableCell
                      layout="stack"
                      label={t("staff.details.submitted")}
                      className="xl:whitespace-nowrap"
                    >
                      {formatMoment(request.createdAt, i18n.language)}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}

          {report.requests.length > 0 && (
            <form
              method="post"
              className="border-burgundy/30 grid max-w-3xl gap-4 rounded-sm border p-4 sm:p-5"
              aria-labelledby="privacy-erase"
              onSubmit={(event) => {
                event.preventDefault();
                void count();
              }}
            >
              <h2 id="privacy-erase" className="text-burgundy text-xl font-semibold">
                {t("staff.privacy.eraseTitle")}
              </h2>
              <p className="text-muted text-sm">{t("staff.privacy.eraseIntro")}</p>
              <TextAreaField
                label={t("staff.privacy.reason")}
                hint={t("staff.privacy.reasonHint")}
                name="reason"
                value={reason}
                onValueChange={setReason}
                maxLength={500}
                error={reasonError}
              />
              <div>
                <Button
                  type="submit"
                  variant="destructive"
                  disabled={busy}
                  data-testid="privacy-erase"
                >
                  {t("staff.privacy.erase")}
                </Button>
              </div>
            </form>
          )}
        </section>
      )}

      <ConfirmDialog
        open={pending !== null}
        onOpenChange={(open) => !open && setPending(null)}
        title={t("staff.privacy.confirmTitle")}
        description={pending ? t("staff.privacy.confirmText", { counts: counts(pending) }) : ""}
        cancelLabel={t("staff.privacy.cancel")}
        confirmLabel={t("staff.privacy.confirm")}
        onConfirm={() => void erase()}
        busy={busy}
      >
        {pending && pending.references.length > 0 && (
          <p className="text-muted mt-3 text-sm break-words" data-testid="privacy-references">
            {pending.references.join(", ")}
          </p>
        )}
      </ConfirmDialog>
    </div>
  );
}

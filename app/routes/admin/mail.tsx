import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigation, useRevalidator } from "react-router";
import { MailCheck, RotateCw, Trash2 } from "lucide-react";
import type { Route } from "./+types/mail";
import { formatMoment } from "#app/components/staff/format.ts";
import { discardUndeliveredMail, retryUndeliveredMail } from "#domain/mail/mail.contract.ts";
import { callApi } from "#app/api-client.ts";
import { StaffPageHeader } from "#app/components/staff/staff-page.tsx";
import { Button, buttonVariants } from "#app/components/ui/button.tsx";
import { ConfirmDialog } from "#app/components/ui/confirm-dialog.tsx";
import {
  Table,
  TableBody,
  TableCaption,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from "#app/components/ui/table.tsx";
import { cn } from "#app/components/ui/cn.ts";
import { toast } from "#app/hooks/use-toast.ts";
import { requireAdmin, staffTitle } from "./require-admin.server.ts";

export async function loader({ context, request }: Route.LoaderArgs) {
  const { staff } = requireAdmin(context, request);
  const list = await staff.listUndeliveredMail();
  return {
    title: staffTitle(context, "staff.mail.title"),
    failedCount: list.failedCount,
    pendingCount: list.pendingCount,
    oldestWaitingSince: list.oldestWaitingSince?.toISOString() ?? null,
    lastWaitingError: list.lastWaitingError,
    mails: list.mails.map((mail) => ({
      id: mail.id,
      recipient: mail.recipient,
      subject: mail.subject,
      reference: mail.reference,
      attempts: mail.attempts,
      lastError: mail.lastError,
      createdAt: new Date(mail.createdAt).toISOString(),
    })),
  };
}

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: loaderData?.title ?? "" },
  { name: "robots", content: "noindex" },
];

type Mail = Route.ComponentProps["loaderData"]["mails"][number];

/**
 * The mail the outbox gave up on (decisions.md: a mail outage delays mail, never loses it
 * silently): who it was for, why it failed, and Retry or Discard.
 */
export default function UndeliveredMail({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const revalidator = useRevalidator();
  const navigation = useNavigation();
  const [busyId, setBusyId] = useState<string | null>(null);
  const [discarding, setDiscarding] = useState<Mail | null>(null);
  const integer = new Intl.NumberFormat(i18n.language);
  const { mails, failedCount, pendingCount, oldestWaitingSince, lastWaitingError } = loaderData;
  const loading = navigation.state === "loading" || revalidator.state === "loading";

  const act = async (mail: Mail, action: "retry" | "discard") => {
    setBusyId(mail.id);
    const answer =
      action === "retry"
        ? await callApi(
            retryUndeliveredMail,
            { params: { id: mail.id } },
            { language: i18n.language },
          )
        : await callApi(
            discardUndeliveredMail,
            { params: { id: mail.id } },
            { language: i18n.language },
          );
    setBusyId(null);
    if (answer.ok)
      toast({
        title: t(action === "retry" ? "staff.mail.retriedTitle" : "staff.mail.discardedTitle"),
        description: t(action === "retry" ? "staff.mail.retriedText" : "staff.mail.discardedText", {
          recipient: mail.recipient,
        }),
      });
    else
      toast({
        variant: "destructive",
        title: t("forms.toast.errorTitle"),
        description: answer.message ?? t("staff.mail.actionFailed"),
      });
    // Either way the list shows what is true now (another member of staff may have acted).
    await revalidator.revalidate();
  };

  return (
    <div className="mx-auto grid max-w-7xl grid-cols-[minmax(0,1fr)] gap-8 px-4 py-10 sm:px-6 lg:py-12">
      <StaffPageHeader title={t("staff.mail.title")} description={t("staff.mail.intro")} />
      <dl className="grid gap-3 sm:grid-cols-2 lg:max-w-2xl" data-testid="mail-counts">
        <div
          className={cn(
            "rounded-sm border p-4",
            failedCount > 0 ? "border-burgundy/40 bg-red-50" : "border-gold/30 bg-paper",
          )}
        >
          <dt className="text-sm font-medium">{t("staff.mail.failedLabel")}</dt>
          <dd className="mt-1 text-3xl font-semibold tabular-nums">
            {integer.format(failedCount)}
          </dd>
        </div>
        <div className="border-gold/30 bg-paper rounded-sm border p-4">
          <dt className="text-sm font-medium">{t("staff.mail.retryingLabel")}</dt>
          <dd className="mt-1 text-3xl font-semibold tabular-nums">
            {integer.format(pendingCount)}
          </dd>
        </div>
      </dl>
      {pendingCount > 0 && oldestWaitingSince && (
        <div
          data-testid="mail-waiting"
          className="text-muted -mt-4 grid gap-1 text-sm lg:max-w-2xl"
        >
          <p>
            {t("staff.mail.waitingSince", {
              time: formatMoment(oldestWaitingSince, i18n.language),
            })}
          </p>
          {lastWaitingError && (
            <p>
              {t("staff.mail.waitingError")}{" "}
              <code className="text-ink font-mono text-xs break-all">{lastWaitingError}</code>
            </p>
          )}
        </div>
      )}
      <p role="status" className="sr-only">
        {loading ? t("staff.mail.loading") : ""}
      </p>
      {mails.length === 0 ? (
        <div
          data-testid="mail-empty"
          className="border-gold/30 bg-paper flex items-center gap-4 rounded-sm border px-6 py-10"
        >
          <MailCheck aria-hidden className="text-heritage size-8 shrink-0" />
          <div>
            <p className="text-ink font-medium">{t("staff.mail.empty")}</p>
            {pendingCount > 0 && (
              <p className="text-muted mt-1 text-sm">
                {t("staff.mail.emptyRetrying", { count: pendingCount })}
              </p>
            )}
          </div>
        </div>
      ) : (
        <Table
          frameProps={{ "aria-labelledby": "mail-caption" }}
          className={cn(loading && "opacity-60")}
          aria-busy={loading || undefined}
          data-testid="mail-table"
        >
          <TableCaption id="mail-caption">
            {failedCount > mails.length
              ? t("staff.mail.captionPartial", { shown: mails.length, total: failedCount })
              : t("staff.mail.caption")}
          </TableCaption>
          <TableHeader>
            <tr>
              <TableHead scope="col">{t("staff.mail.columns.recipient")}</TableHead>
              <TableHead scope="col">{t("staff.mail.columns.subject")}</TableHead>
              <TableHead scope="col">{t("staff.mail.columns.reference")}</TableHead>
              <TableHead scope="col" className="text-right">
                {t("staff.mail.columns.attempts")}
              </TableHead>
              <TableHead scope="col">{t("staff.mail.columns.lastError")}</TableHead>
              <TableHead scope="col">{t("staff.mail.columns.date")}</TableHead>
              <TableHead scope="col">{t("staff.mail.columns.actions")}</TableHead>
            </tr>
          </TableHeader>
          <TableBody>
            {mails.map((mail) => (
              <TableRow key={mail.id} data-mail-id={mail.id}>
                <TableCell as="th" scope="row" className="font-medium whitespace-nowrap">
                  {mail.recipient}
                </TableCell>
                <TableCell className="min-w-48">{mail.subject}</TableCell>
                <TableCell className="font-mono text-xs whitespace-nowrap">
                  {mail.reference ?? t("staff.mail.noReference")}
                </TableCell>
                <TableCell className="text-right tabular-nums">
                  {integer.format(mail.attempts)}
                </TableCell>
                <TableCell className="min-w-56">
                  <code className="text-muted text-xs break-words whitespace-pre-wrap">
                    {mail.lastError ?? ""}
                  </code>
                </TableCell>
                <TableCell className="whitespace-nowrap">
                  {formatMoment(mail.createdAt, i18n.language)}
                </TableCell>
                <TableCell>
                  <div className="flex gap-2">
                    <Button
                      type="button"
                      size="sm"
                      variant="outline"
                      disabled={busyId === mail.id}
                      onClick={() => void act(mail, "retry")}
                    >
                      <RotateCw aria-hidden className="size-4" />
                      {t("staff.mail.retry")}
                      <span className="sr-only"> {mail.recipient}</span>
                    </Button>
                    <button
                      type="button"
                      className={buttonVariants({ variant: "destructiveGhost", size: "sm" })}
                      disabled={busyId === mail.id}
                      onClick={() => setDiscarding(mail)}
                    >
                      <Trash2 aria-hidden className="size-4" />
                      {t("staff.mail.discard")}
                      <span className="sr-only"> {mail.recipient}</span>
                    </button>
                  </div>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      <ConfirmDialog
        open={discarding !== null}
        onOpenChange={(open) => !open && setDiscarding(null)}
        title={t("staff.mail.discardTitle")}
        description={
          discarding
            ? t("staff.mail.discardText", {
                recipient: discarding.recipient,
                subject: discarding.subject,
              })
            : ""
        }
        cancelLabel={t("staff.mail.cancel")}
        confirmLabel={t("staff.mail.discardConfirm")}
        onConfirm={() => {
          const mail = discarding;
          setDiscarding(null);
          if (mail) void act(mail, "discard");
        }}
      />
    </div>
  );
}

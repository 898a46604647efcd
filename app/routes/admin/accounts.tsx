import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import type { z } from "zod";
import type { Route } from "./+types/accounts";
import {
  endAccountSessions,
  inviteAccount,
  listAccounts,
  sendAccountPasswordReset,
  setAccountAdmin,
  setAccountDisabled,
  type StaffAccountSchema,
} from "#domain/staff/accounts.contract.ts";
import { callApi } from "#app/api-client.ts";
import { InputField } from "#app/components/ui/field.tsx";
import { formatMoment } from "#app/components/staff/format.ts";
import { StaffPageHeader, useHydrated } from "#app/components/staff/staff-page.tsx";
import { Button } from "#app/components/ui/button.tsx";
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
import { toast } from "#app/hooks/use-toast.ts";
import { requireAdmin, staffTitle } from "./require-admin.server.ts";

export function loader({ context, request }: Route.LoaderArgs) {
  const { user } = requireAdmin(context, request);
  return { title: staffTitle(context, "staff.accounts.title"), selfId: user.id };
}

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: loaderData?.title ?? "" },
  { name: "robots", content: "noindex" },
];

type Account = z.infer<typeof StaffAccountSchema>;
type Action = "disable" | "enable" | "grant" | "remove" | "endSessions" | "reset";

/**
 * The staff accounts: invite by mail, and for each account disable or enable, grant
 * or remove admin, end its sessions, mail a password-reset link. Each action asks first.
 */
export default function Accounts({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const hydrated = useHydrated();
  const language = { language: i18n.language };
  const [accounts, setAccounts] = useState<Account[] | null>(null);
  const [email, setEmail] = useState("");
  const [isAdmin, setIsAdmin] = useState(false);
  const [emailError, setEmailError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [pending, setPending] = useState<{ account: Account; action: Action } | null>(null);

  // Bumped after every change: the list is read again.
  const [version, setVersion] = useState(0);
  const reload = () => setVersion((current) => current + 1);
  useEffect(() => {
    void callApi(listAccounts, {}, { language: i18n.language }).then((answer) => {
      if (answer.ok) setAccounts(answer.data.accounts);
    });
  }, [version, i18n.language]);

  async function invite(event: React.FormEvent) {
    event.preventDefault();
    setBusy(true);
    setEmailError(null);
    const answer = await callApi(inviteAccount, { body: { email, isAdmin } }, language);
    setBusy(false);
    if (!answer.ok) {
      setEmailError(answer.errors[0]?.message ?? answer.message ?? t("staff.accounts.failed"));
      return;
    }
    toast({ title: t("staff.accounts.invited", { email: answer.data.email }) });
    setEmail("");
    setIsAdmin(false);
  }

  async function run() {
    if (!pending) return;
    const { account, action } = pending;
    const params = { id: account.id };
    setBusy(true);
    const answer =
      action === "disable" || action === "enable"
        ? await callApi(
            setAccountDisabled,
            { params, body: { disabled: action === "disable" } },
            language,
          )
        : action === "grant" || action === "remove"
          ? await callApi(
              setAccountAdmin,
              { params, body: { isAdmin: action === "grant" } },
              language,
            )
          : action === "endSessions"
            ? await callApi(endAccountSessions, { params }, language)
            : await callApi(sendAccountPasswordReset, { params }, language);
    setBusy(false);
    setPending(null);
    if (!answer.ok)
      return toast({
        variant: "destructive",
        title: t("staff.accounts.failed"),
        description: answer.message ?? undefined,
      });
    toast({ title: t(`staff.accounts.done.${action}`, { email: account.email }) });
    reload();
  }

  const actionsOf = (account: Account): Action[] => [
    account.disabled ? "enable" : "disable",
    account.isAdmin ? "remove" : "grant",
    "endSessions",
    "reset",
  ];

  return (
    <div className="mx-auto grid max-w-7xl grid-cols-[minmax(0,1fr)] gap-8 px-4 py-10 sm:px-6 lg:py-12">
      <StaffPageHeader title={t("staff.accounts.title")} description={t("staff.accounts.intro")} />

      <form
        method="post"
        onSubmit={(event) => void invite(event)}
        className="border-gold/30 bg-paper grid gap-5 rounded-sm border p-6 lg:max-w-3xl"
        aria-labelledby="invite-title"
        noValidate
      >
        <h2 id="invite-title" className="text-heritage text-2xl font-semibold">
          {t("staff.accounts.invite.title")}
        </h2>
        <InputField
          label={t("staff.accounts.invite.email")}
          hint={t("staff.accounts.invite.emailHint")}
          error={emailError}
          type="email"
          inputMode="email"
          autoComplete="off"
          value={email}
          onChange={setEmail}
        />
        <label className="flex items-center gap-2 text-sm">
          <input
            type="checkbox"
            checked={isAdmin}
            onChange={(event) => setIsAdmin(event.target.checked)}
          />
          {t("staff.accounts.invite.isAdmin")}
        </label>
        <div>
          <Button type="submit" disabled={!hydrated || busy}>
            {t("staff.accounts.invite.submit")}
          </Button>
        </div>
      </form>

      {accounts && (
        <Table
          layout="stack"
          frameProps={{ "aria-labelledby": "accounts-caption" }}
          data-testid="accounts-table"
        >
          <TableCaption layout="stack" id="accounts-caption">
            {t("staff.accounts.caption")}
          </TableCaption>
          <TableHeader layout="stack">
            <tr>
              <TableHead scope="col">{t("staff.accounts.columns.name")}</TableHead>
              <TableHead scope="col">{t("staff.accounts.columns.email")}</TableHead>
              <TableHead scope="col">{t("staff.accounts.columns.role")}</TableHead>
              <TableHead scope="col">{t("staff.accounts.columns.state")}</TableHead>
              <TableHead scope="col">{t("staff.accounts.columns.lastSignIn")}</TableHead>
              <TableHead scope="col">{t("staff.accounts.columns.sessions")}</TableHead>
              <TableHead scope="col">{t("staff.accounts.columns.actions")}</TableHead>
            </tr>
          </TableHeader>
          <TableBody layout="stack">
            {accounts.map((account) => (
              <TableRow layout="stack" key={account.id} data-account={account.email}>
                <TableCell
                  layout="stack"
                  label={t("staff.accounts.columns.name")}
                  pinned
                  as="th"
                  scope="row"
                >
                  {account.displayName}
                  {account.id === loaderData.selfId && (
                    <span className="text-muted"> ({t("staff.accounts.you")})</span>
                  )}
                </TableCell>
                <TableCell
                  layout="stack"
                  label={t("staff.accounts.columns.email")}
                  className="break-all"
                >
                  {account.email}
                </TableCell>
                <TableCell layout="stack" label={t("staff.accounts.columns.role")}>
                  {account.isAdmin ? t("staff.accounts.admin") : t("staff.accounts.staff")}
                </TableCell>
                <TableCell
                  layout="stack"
                  label={t("staff.accounts.columns.state")}
                  data-testid="account-state"
                >
                  {account.disabled ? t("staff.accounts.disabled") : t("staff.accounts.enabled")}
                </TableCell>
                <TableCell layout="stack" label={t("staff.accounts.columns.lastSignIn")}>
                  {account.lastLoginAt
                    ? formatMoment(account.lastLoginAt, i18n.language)
                    : t("staff.accounts.never")}
                </TableCell>
                <TableCell layout="stack" label={t("staff.accounts.columns.sessions")}>
                  {account.liveSessions}
                </TableCell>
                <TableCell layout="stack" label={t("staff.accounts.columns.actions")}>
                  <div className="flex flex-wrap gap-2">
                    {actionsOf(account).map((action) => (
                      <Button
                        key={action}
                        type="button"
                        size="sm"
                        variant={action === "disable" ? "destructive" : "outline"}
                        disabled={!hydrated || busy}
                        onClick={() => setPending({ account, action })}
                      >
                        {t(`staff.accounts.actions.${action}`)}
                      </Button>
                    ))}
                  </div>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}

      <ConfirmDialog
        open={pending !== null}
        onOpenChange={(open) => !open && setPending(null)}
        title={pending ? t(`staff.accounts.actions.${pending.action}`) : ""}
        description={
          pending
            ? t(`staff.accounts.confirm.${pending.action}`, { email: pending.account.email })
            : ""
        }
        cancelLabel={t("staff.accounts.cancel")}
        confirmLabel={pending ? t(`staff.accounts.actions.${pending.action}`) : ""}
        onConfirm={() => void run()}
        busy={busy}
      />
    </div>
  );
}

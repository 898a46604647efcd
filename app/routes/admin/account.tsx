import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import type { z } from "zod";
import type { Route } from "./+types/account";
import {
  changeOwnPassword,
  endOwnSession,
  listOwnSessions,
  type StaffSessionSchema,
} from "#domain/staff/accounts.contract.ts";
import { PASSWORD_MIN_LENGTH } from "#domain/staff/password-rules.ts";
import { callApi } from "#app/api-client.ts";
import { deviceOf } from "#app/components/staff/account-fields.tsx";
import { InputField } from "#app/components/ui/field.tsx";
import { formatMoment } from "#app/components/staff/format.ts";
import { StaffPageHeader, useHydrated } from "#app/components/staff/staff-page.tsx";
import { AccountNav } from "#app/components/staff/account-nav.tsx";
import { Button } from "#app/components/ui/button.tsx";
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
  return { title: staffTitle(context, "staff.account.title") };
}

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: loaderData?.title ?? "" },
  { name: "robots", content: "noindex" },
];

type Session = z.infer<typeof StaffSessionSchema>;

/** One's own account: change the password, see the sessions and end any. */
export default function Account() {
  const { t, i18n } = useTranslation();
  const hydrated = useHydrated();
  const language = { language: i18n.language };
  const [sessions, setSessions] = useState<Session[] | null>(null);
  const [currentPassword, setCurrentPassword] = useState("");
  const [newPassword, setNewPassword] = useState("");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  // Bumped after every change: the list is read again.
  const [version, setVersion] = useState(0);
  const reload = () => setVersion((current) => current + 1);
  useEffect(() => {
    void callApi(listOwnSessions, {}, { language: i18n.language }).then((answer) => {
      if (answer.ok) setSessions(answer.data.sessions);
    });
  }, [version, i18n.language]);

  async function change(event: React.FormEvent) {
    event.preventDefault();
    setBusy(true);
    setErrors({});
    const answer = await callApi(
      changeOwnPassword,
      { body: { currentPassword, newPassword } },
      language,
    );
    setBusy(false);
    if (!answer.ok) {
      const found = Object.fromEntries(answer.errors.map((issue) => [issue.path, issue.message]));
      setErrors(
        Object.keys(found).length > 0
          ? found
          : { newPassword: answer.message ?? t("staff.account.failed") },
      );
      return;
    }
    setCurrentPassword("");
    setNewPassword("");
    toast({ title: t("staff.account.passwordChanged") });
    reload();
  }

  async function end(session: Session) {
    setBusy(true);
    const answer = await callApi(endOwnSession, { params: { id: session.id } }, language);
    setBusy(false);
    if (!answer.ok)
      return toast({ variant: "destructive", title: answer.message ?? t("staff.account.failed") });
    toast({ title: t("staff.account.sessionEnded") });
    reload();
  }

  const device = (session: Session) => {
    const found = deviceOf(session.userAgent);
    return found ? t("staff.account.device", found) : t("staff.account.unknownDevice");
  };

  return (
    <div className="mx-auto grid max-w-7xl grid-cols-[minmax(0,1fr)] gap-8 px-4 py-10 sm:px-6 lg:py-12">
      <StaffPageHeader title={t("staff.account.title")} description={t("staff.account.intro")} />
      <AccountNav />

      <form
        method="post"
        onSubmit={(event) => void change(event)}
        className="border-gold/30 bg-paper grid gap-5 rounded-sm border p-6 lg:max-w-3xl"
        aria-labelledby="password-title"
        noValidate
      >
        <h2 id="password-title" className="text-heritage text-2xl font-semibold">
          {t("staff.account.password.title")}
        </h2>
        <InputField
          label={t("staff.account.password.current")}
          type="password"
          autoComplete="current-password"
          error={errors.currentPassword}
          value={currentPassword}
          onChange={setCurrentPassword}
        />
        <InputField
          label={t("staff.account.password.new")}
          hint={t("staff.setup.passwordHint", { min: PASSWORD_MIN_LENGTH })}
          type="password"
          autoComplete="new-password"
          error={errors.newPassword}
          value={newPassword}
          onChange={setNewPassword}
        />
        <div>
          <Button type="submit" disabled={!hydrated || busy}>
            {t("staff.account.password.submit")}
          </Button>
        </div>
      </form>

      {sessions && (
        <Table
          layout="stack"
          frameProps={{ "aria-labelledby": "sessions-caption" }}
          data-testid="sessions-table"
        >
          <TableCaption layout="stack" id="sessions-caption">
            {t("staff.account.sessions.caption")}
          </TableCaption>
          <TableHeader layout="stack">
            <tr>
              <TableHead scope="col">{t("staff.account.sessions.device")}</TableHead>
              <TableHead scope="col">{t("staff.account.sessions.ip")}</TableHead>
              <TableHead scope="col">{t("staff.account.sessions.created")}</TableHead>
              <TableHead scope="col">{t("staff.account.sessions.lastSeen")}</TableHead>
              <TableHead scope="col">{t("staff.account.sessions.actions")}</TableHead>
            </tr>
          </TableHeader>
          <TableBody layout="stack">
            {sessions.map((session) => (
              <TableRow layout="stack" key={session.id} data-current={session.isCurrent}>
                <TableCell
                  layout="stack"
                  label={t("staff.account.sessions.device")}
                  pinned
                  as="th"
                  scope="row"
                >
                  {device(session)}
                  {session.isCurrent && (
                    <span className="text-muted block text-xs">
                      {t("staff.account.sessions.current")}
                    </span>
                  )}
                </TableCell>
                <TableCell
                  layout="stack"
                  label={t("staff.account.sessions.ip")}
                  className="font-mono text-xs"
                >
                  {session.ip ?? "—"}
                </TableCell>
                <TableCell layout="stack" label={t("staff.account.sessions.created")}>
                  {formatMoment(session.createdAt, i18n.language)}
                </TableCell>
                <TableCell layout="stack" label={t("staff.account.sessions.lastSeen")}>
                  {formatMoment(session.lastSeenAt, i18n.language)}
                </TableCell>
                <TableCell layout="stack" label={t("staff.account.sessions.actions")}>
                  {!session.isCurrent && (
                    <Button
                      type="button"
                      size="sm"
                      variant="outline"
                      disabled={!hydrated || busy}
                      onClick={() => void end(session)}
                    >
                      {t("staff.account.sessions.end")}
                    </Button>
                  )}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </div>
  );
}

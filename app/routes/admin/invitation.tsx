import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import type { Route } from "./+types/invitation";
import { acceptInvitation, getInvitation } from "#domain/staff/accounts.contract.ts";
import { PASSWORD_MIN_LENGTH } from "#domain/staff/password-rules.ts";
import { callApi } from "#app/api-client.ts";
import { InputField } from "#app/components/ui/field.tsx";
import { StaffCard, StaffPlainPage, useHydrated } from "#app/components/staff/staff-page.tsx";
import { Alert } from "#app/components/ui/alert.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { staffTitle } from "./require-admin.server.ts";

export function loader({ context }: Route.LoaderArgs) {
  return { title: staffTitle(context, "staff.accounts.invitation.title") };
}

export function headers() {
  // The token is in the address: no cache keeps the page, no Referer carries it away.
  return { "Cache-Control": "private, no-store", "Referrer-Policy": "no-referrer" };
}

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: loaderData?.title ?? "" },
  { name: "robots", content: "noindex, nofollow" },
];

/** An invitee chooses their name and password; then signs in as usual. */
export default function Invitation({ params }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const hydrated = useHydrated();
  const [email, setEmail] = useState<string | null>(null);
  const [invalid, setInvalid] = useState<string | null>(null);
  const [displayName, setDisplayName] = useState("");
  const [password, setPassword] = useState("");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    void callApi(
      getInvitation,
      { params: { token: params.token } },
      { language: i18n.language },
    ).then((answer) => (answer.ok ? setEmail(answer.data.email) : setInvalid(answer.message)));
  }, [params.token, i18n.language]);

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    setBusy(true);
    setErrors({});
    const answer = await callApi(
      acceptInvitation,
      { params: { token: params.token }, body: { displayName, password } },
      { language: i18n.language },
    );
    setBusy(false);
    if (answer.ok) return setDone(true);
    if (answer.status === 404) return setInvalid(answer.message);
    const found = Object.fromEntries(answer.errors.map((issue) => [issue.path, issue.message]));
    setErrors(Object.keys(found).length > 0 ? found : { password: answer.message ?? "" });
  }

  return (
    <StaffPlainPage>
      <StaffCard
        title={t("staff.accounts.invitation.title")}
        intro={email ? t("staff.accounts.invitation.intro", { email }) : undefined}
      >
        {invalid && <Alert className="mt-6">{invalid}</Alert>}
        {done ? (
          <div className="mt-6 grid gap-4" role="status">
            <p>{t("staff.accounts.invitation.done")}</p>
            <a
              href="/admin/login"
              className="text-heritage font-medium underline underline-offset-4"
            >
              {t("staff.setup.goToLogin")}
            </a>
          </div>
        ) : (
          email &&
          !invalid && (
            <form
              method="post"
              onSubmit={(event) => void submit(event)}
              noValidate
              className="mt-6 grid gap-5"
            >
              <InputField
                label={t("staff.setup.name")}
                autoComplete="name"
                error={errors.displayName}
                value={displayName}
                onChange={setDisplayName}
              />
              <InputField
                label={t("staff.setup.password")}
                hint={t("staff.setup.passwordHint", { min: PASSWORD_MIN_LENGTH })}
                type="password"
                autoComplete="new-password"
                error={errors.password}
                value={password}
                onChange={setPassword}
              />
              <Button type="submit" size="lg" disabled={!hydrated || busy}>
                {t("staff.accounts.invitation.submit")}
              </Button>
            </form>
          )
        )}
      </StaffCard>
    </StaffPlainPage>
  );
}

import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { Route } from "./+types/password-reset";
import { completePasswordReset } from "#domain/staff/accounts.contract.ts";
import { PASSWORD_MIN_LENGTH } from "#domain/staff/password-rules.ts";
import { callApi } from "#app/api-client.ts";
import { InputField } from "#app/components/ui/field.tsx";
import { StaffCard, StaffPlainPage, useHydrated } from "#app/components/staff/staff-page.tsx";
import { Alert } from "#app/components/ui/alert.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { staffTitle } from "./require-admin.server.ts";

export function loader({ context }: Route.LoaderArgs) {
  return { title: staffTitle(context, "staff.account.reset.title") };
}

export function headers() {
  // The token is in the address: no cache keeps the page, no Referer carries it away.
  return { "Cache-Control": "private, no-store", "Referrer-Policy": "no-referrer" };
}

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: loaderData?.title ?? "" },
  { name: "robots", content: "noindex, nofollow" },
];

/** A new password from a mailed reset link: every session of the account ends. */
export default function PasswordReset({ params }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const hydrated = useHydrated();
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [invalid, setInvalid] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    const answer = await callApi(
      completePasswordReset,
      { params: { token: params.token }, body: { password } },
      { language: i18n.language },
    );
    setBusy(false);
    if (answer.ok) return setDone(true);
    if (answer.status === 404) return setInvalid(answer.message);
    setError(answer.errors[0]?.message ?? answer.message);
  }

  return (
    <StaffPlainPage>
      <StaffCard title={t("staff.account.reset.title")} intro={t("staff.account.reset.intro")}>
        {invalid && <Alert className="mt-6">{invalid}</Alert>}
        {done ? (
          <div className="mt-6 grid gap-4" role="status">
            <p>{t("staff.account.reset.done")}</p>
            <a
              href="/admin/login"
              className="text-heritage font-medium underline underline-offset-4"
            >
              {t("staff.setup.goToLogin")}
            </a>
          </div>
        ) : (
          !invalid && (
            <form
              method="post"
              onSubmit={(event) => void submit(event)}
              noValidate
              className="mt-6 grid gap-5"
            >
              <InputField
                label={t("staff.account.password.new")}
                hint={t("staff.setup.passwordHint", { min: PASSWORD_MIN_LENGTH })}
                type="password"
                autoComplete="new-password"
                error={error}
                value={password}
                onChange={setPassword}
              />
              <Button type="submit" size="lg" disabled={!hydrated || busy}>
                {t("staff.account.reset.submit")}
              </Button>
            </form>
          )
        )}
      </StaffCard>
    </StaffPlainPage>
  );
}

import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { Route } from "./+types/forgot-password";
import { requestPasswordReset } from "#domain/staff/accounts.contract.ts";
import { callApi } from "#app/api-client.ts";
import { InputField } from "#app/components/ui/field.tsx";
import { StaffCard, StaffPlainPage, useHydrated } from "#app/components/staff/staff-page.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { staffTitle } from "./require-admin.server.ts";

export function loader({ context }: Route.LoaderArgs) {
  return { title: staffTitle(context, "staff.account.forgot.title") };
}

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: loaderData?.title ?? "" },
  { name: "robots", content: "noindex, nofollow" },
];

/**
 * "Forgotten password": the same answer whether or not the account exists; the
 * link goes by mail.
 */
export default function ForgotPassword() {
  const { t, i18n } = useTranslation();
  const hydrated = useHydrated();
  const [email, setEmail] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState(false);
  const [busy, setBusy] = useState(false);

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    const answer = await callApi(
      requestPasswordReset,
      { body: { email } },
      { language: i18n.language },
    );
    setBusy(false);
    if (answer.ok) return setSent(true);
    setError(answer.errors[0]?.message ?? answer.message);
  }

  return (
    <StaffPlainPage>
      <StaffCard title={t("staff.account.forgot.title")} intro={t("staff.account.forgot.intro")}>
        {sent ? (
          <p className="mt-6" role="status">
            {t("staff.account.forgot.sent")}
          </p>
        ) : (
          <form
            method="post"
            onSubmit={(event) => void submit(event)}
            noValidate
            className="mt-6 grid gap-5"
          >
            <InputField
              label={t("staff.login.email")}
              type="email"
              inputMode="email"
              autoComplete="username"
              error={error}
              value={email}
              onChange={setEmail}
            />
            <Button type="submit" size="lg" disabled={!hydrated || busy}>
              {t("staff.account.forgot.submit")}
            </Button>
          </form>
        )}
        <a
          href="/admin/login"
          className="text-heritage mt-6 inline-block font-medium underline underline-offset-4"
        >
          {t("staff.setup.goToLogin")}
        </a>
      </StaffCard>
    </StaffPlainPage>
  );
}

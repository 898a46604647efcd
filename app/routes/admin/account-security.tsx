import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useRevalidator } from "react-router";
import { ShieldCheck, ShieldOff } from "lucide-react";
import type { Route } from "./+types/account-security";
import {
  regenerateRecoveryCodes,
  removeTotp,
  startTotpEnrolment,
} from "#domain/staff/mfa/mfa.contract.ts";
import { callApi } from "#app/api-client.ts";
import {
  PasswordAgainDialog,
  RecoveryCodes,
  TotpSetup,
  type TotpEnrolment,
} from "#app/components/staff/second-factor.tsx";
import { StaffPageHeader } from "#app/components/staff/staff-page.tsx";
import { AccountNav } from "#app/components/staff/account-nav.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { toast } from "#app/hooks/use-toast.ts";
import { requireAdmin, staffTitle } from "./require-admin.server.ts";

export async function loader({ context, request }: Route.LoaderArgs) {
  const { user, staff } = requireAdmin(context, request);
  return {
    title: staffTitle(context, "staff.mfa.security.title"),
    factors: await staff.getSecondFactors(user.id),
  };
}

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: loaderData?.title ?? "" },
  { name: "robots", content: "noindex" },
];

type Asking = "add" | "remove" | "codes" | null;

/** The signed-in person's second factors: add or remove the app, replace the recovery codes. */
export default function AccountSecurity({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const revalidator = useRevalidator();
  const { factors } = loaderData;
  const [asking, setAsking] = useState<Asking>(null);
  const [enrolment, setEnrolment] = useState<TotpEnrolment | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const language = { language: i18n.language };
  const problemOf = (answer: { message: string | null; errors: { message: string }[] }) =>
    answer.errors[0]?.message ?? answer.message ?? t("staff.mfa.failed");

  const onPassword = async (password: string): Promise<string | null> => {
    if (asking === "add") {
      const answer = await callApi(startTotpEnrolment, { body: { password } }, language);
      if (!answer.ok) return problemOf(answer);
      setEnrolment(answer.data);
      return null;
    }
    if (asking === "remove") {
      const answer = await callApi(removeTotp, { body: { password } }, language);
      if (!answer.ok) return problemOf(answer);
      toast({ title: t("staff.mfa.security.removed") });
      await revalidator.revalidate();
      return null;
    }
    const answer = await callApi(regenerateRecoveryCodes, { body: { password } }, language);
    if (!answer.ok) return problemOf(answer);
    setCodes(answer.data.recoveryCodes);
    return null;
  };

  const finish = () => {
    setCodes(null);
    setEnrolment(null);
    void revalidator.revalidate();
  };

  return (
    <div className="mx-auto grid max-w-3xl grid-cols-[minmax(0,1fr)] gap-8 px-4 py-10 sm:px-6 lg:py-12">
      <StaffPageHeader
        title={t("staff.mfa.security.title")}
        description={
          factors.required ? t("staff.mfa.security.introRequired") : t("staff.mfa.security.intro")
        }
      />
      <AccountNav />
      {codes ? (
        <RecoveryCodes codes={codes} onDone={finish} />
      ) : enrolment ? (
        <section className="border-gold/30 bg-paper rounded-sm border p-6">
          <h2 className="text-heritage text-2xl font-semibold">{t("staff.mfa.security.app")}</h2>
          <div className="mt-4">
            <TotpSetup enrolment={enrolment} onConfirmed={setCodes} />
          </div>
        </section>
      ) : (
        <>
          <section
            aria-labelledby="factor-app"
            className="border-gold/30 bg-paper grid gap-4 rounded-sm border p-6"
            data-testid="factor-app"
          >
            <h2 id="factor-app" className="text-heritage text-2xl font-semibold">
              {t("staff.mfa.security.app")}
            </h2>
            <p className="text-ink flex items-center gap-2">
              {factors.totp ? (
                <ShieldCheck aria-hidden className="text-heritage size-5" />
              ) : (
                <ShieldOff aria-hidden className="text-burgundy size-5" />
              )}
              {factors.totp ? t("staff.mfa.security.appOn") : t("staff.mfa.security.appOff")}
            </p>
            <div>
              {factors.totp ? (
                <Button variant="destructive" onClick={() => setAsking("remove")}>
                  {t("staff.mfa.security.remove")}
                </Button>
              ) : (
                <Button onClick={() => setAsking("add")}>{t("staff.mfa.security.add")}</Button>
              )}
            </div>
          </section>
          <section
            aria-labelledby="factor-codes"
            className="border-gold/30 bg-paper grid gap-4 rounded-sm border p-6"
            data-testid="factor-codes"
          >
            <h2 id="factor-codes" className="text-heritage text-2xl font-semibold">
              {t("staff.mfa.recovery.title")}
            </h2>
            <p className="text-ink">
              {t("staff.mfa.security.codesLeft", { count: factors.recoveryCodesLeft })}
            </p>
            {factors.totp && (
              <div>
                <Button variant="outline" onClick={() => setAsking("codes")}>
                  {t("staff.mfa.security.regenerate")}
                </Button>
              </div>
            )}
          </section>
        </>
      )}
      <PasswordAgainDialog
        open={asking !== null}
        onOpenChange={(open) => {
          if (!open) setAsking(null);
        }}
        title={
          asking === "remove"
            ? t("staff.mfa.security.removeTitle")
            : asking === "codes"
              ? t("staff.mfa.security.regenerateTitle")
              : t("staff.mfa.security.addTitle")
        }
        description={
          asking === "remove"
            ? t("staff.mfa.security.removeText")
            : asking === "codes"
              ? t("staff.mfa.security.regenerateText")
              : t("staff.mfa.security.passwordText")
        }
        confirmLabel={
          asking === "remove" ? t("staff.mfa.security.remove") : t("staff.mfa.continue")
        }
        onPassword={onPassword}
      />
    </div>
  );
}

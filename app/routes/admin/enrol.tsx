import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { redirect } from "react-router";
import type { Route } from "./+types/enrol";
import { startTotpEnrolment } from "#domain/staff/mfa/mfa.contract.ts";
import { callApi } from "#app/api-client.ts";
import { sessionContext, signInStepContext, staffPagesContext } from "#app/context.ts";
import {
  RecoveryCodes,
  TotpSetup,
  type TotpEnrolment,
} from "#app/components/staff/second-factor.tsx";
import { PasskeysPanel } from "#app/components/auth/passkeys-panel.tsx";
import { StaffCard, StaffPlainPage } from "#app/components/staff/staff-page.tsx";
import { STAFF_HOME } from "#app/components/staff/staff-api.ts";
import { Alert, AlertTitle } from "#app/components/ui/alert.tsx";
import { staffTitle } from "./require-admin.server.ts";

/**
 * Enrolment of a first second factor: a right password while STAFF_MFA_REQUIRED and
 * no factor yet leads here, and nowhere else, until an authenticator app is confirmed.
 */
export function loader({ context }: Route.LoaderArgs) {
  const staff = context.get(staffPagesContext);
  const session = context.get(sessionContext);
  const step = context.get(signInStepContext);
  if (staff && session?.role === "staff") throw redirect(STAFF_HOME);
  if (!staff || step?.stage !== "enrolment") throw redirect("/admin/login");
  return { title: staffTitle(context, "staff.mfa.enrol.title") };
}

export function headers() {
  return { "Cache-Control": "private, no-store" };
}

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: loaderData?.title ?? "" },
  { name: "robots", content: "noindex" },
];

export default function Enrol() {
  const { t, i18n } = useTranslation();
  const [enrolment, setEnrolment] = useState<TotpEnrolment | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  // The secret is made when the page opens in the browser (never cached, never in the HTML).
  useEffect(() => {
    let live = true;
    void callApi(startTotpEnrolment, { body: {} }, { language: i18n.language }).then((answer) => {
      if (!live) return;
      if (answer.ok) setEnrolment(answer.data);
      else setFailure(answer.message ?? t("staff.mfa.enrol.failed"));
    });
    return () => {
      live = false;
    };
  }, [i18n.language, t]);

  return (
    <StaffPlainPage>
      <StaffCard title={t("staff.mfa.enrol.title")} intro={t("staff.mfa.enrol.intro")}>
        <div className="mt-6">
          {failure && (
            <Alert>
              <AlertTitle>{failure}</AlertTitle>
            </Alert>
          )}
          {codes ? (
            <RecoveryCodes codes={codes} onDone={() => window.location.assign(STAFF_HOME)} />
          ) : (
            enrolment && <TotpSetup enrolment={enrolment} onConfirmed={setCodes} />
          )}
        </div>
        {!codes && (
          <section aria-labelledby="enrol-passkey" className="border-gold/30 mt-8 border-t pt-6">
            <h2 id="enrol-passkey" className="font-display text-heritage text-xl font-semibold">
              {t("staff.mfa.enrol.orPasskey")}
            </h2>
            <div className="mt-4">
              <PasskeysPanel
                role="staff"
                onAdded={({ recoveryCodes }) =>
                  recoveryCodes ? setCodes(recoveryCodes) : window.location.assign(STAFF_HOME)
                }
              />
            </div>
          </section>
        )}
      </StaffCard>
    </StaffPlainPage>
  );
}

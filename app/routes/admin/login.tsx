import { useMemo, useState } from "react";
import { FormProvider, useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { redirect, useNavigate, useSearchParams } from "react-router";
import { LogIn } from "lucide-react";
import { localPathOrNull } from "#domain/safe-redirect.ts";
import { staffAccessOf } from "#domain/staff/staff-user.ts";
import { loginStaff, logoutStaff } from "#domain/staff/staff-auth.contract.ts";
import { completeSecondFactor } from "#domain/staff/mfa/mfa.contract.ts";
import { CodeForm } from "#app/components/staff/second-factor.tsx";
import { callApi } from "#app/api-client.ts";
import type { StaffLogin } from "#domain/staff/login.schema.ts";
import type { Route } from "./+types/login";
import { sessionContext, signInStepContext, staffPagesContext } from "#app/context.ts";
import { PasskeySignInButton } from "#app/components/auth/passkey-sign-in-button.tsx";
import { TextField } from "#app/components/forms/fields.tsx";
import { lazyZodResolver } from "#app/components/forms/lazy-resolver.ts";
import { pageAddressOfPath } from "#app/components/staff/page-address.ts";
import { StaffCard, StaffPlainPage, useHydrated } from "#app/components/staff/staff-page.tsx";
import { STAFF_HOME } from "#app/components/staff/staff-api.ts";
import { Alert, AlertList, AlertTitle } from "#app/components/ui/alert.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { toast } from "#app/hooks/use-toast.ts";
import { staffTitle } from "./require-admin.server.ts";

/** The fields a 400's `errors[]` may name, shown under their input. */
const LOGIN_FIELDS = ["email", "password"] as const satisfies readonly (keyof StaffLogin)[];

/**
 * Where a sign-in goes: the local page it was asked for (never a data request), or the inbox.
 * The loader (server) and the form (browser) both decide with the one check, localPathOrNull.
 */
function returnTarget(redirectTo: string | null): string {
  const target = localPathOrNull(redirectTo);
  return target ? pageAddressOfPath(target) : STAFF_HOME;
}

export async function loader({ context, request }: Route.LoaderArgs) {
  const staff = context.get(staffPagesContext);
  const session = context.get(sessionContext);
  const step = context.get(signInStepContext);
  const url = new URL(request.url);
  // A right password with no factor yet while one is required: enrolment first.
  if (staff && step?.stage === "enrolment") throw redirect("/admin/enrol");
  // A right password waiting for its second factor: the second step.
  const secondStep =
    staff && step?.stage === "second_factor" ? await staff.secondFactorMethods(step.user.id) : null;
  // Already signed in as an admin who may enter: straight on.
  if (
    staff &&
    session?.role === "staff" &&
    staffAccessOf(session.user, staff.adminEmailDomain) === "granted"
  )
    throw redirect(returnTarget(url.searchParams.get("redirectTo")));
  // Signed in, but not as an admin (the staff area sent them here): say why they cannot enter.
  const isRefused =
    staff !== null &&
    session?.role === "staff" &&
    staffAccessOf(session.user, staff.adminEmailDomain) === "not_admin";
  return {
    title: staffTitle(context, "staff.login.title"),
    domain: staff?.adminEmailDomain ?? null,
    isRefused,
    secondStep,
  };
}

export function headers() {
  return { "Cache-Control": "private, no-store" };
}

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: loaderData?.title ?? "" },
  { name: "robots", content: "noindex" },
];

export default function AdminLogin({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const [failure, setFailure] = useState<string[] | null>(null);
  const [isRefused, setRefused] = useState(loaderData.isRefused);
  const [secondStep, setSecondStep] = useState(loaderData.secondStep);
  // The same schema as the API's, loaded on first use; the server checks again with it.
  const schema = useMemo(
    () =>
      lazyZodResolver<StaffLogin, StaffLogin>(() =>
        import("#domain/staff/login.schema.ts").then((m) => m.StaffLoginSchema),
      ),
    [],
  );
  const form = useForm<StaffLogin>({
    defaultValues: { email: "", password: "" },
    resolver: schema.resolver,
  });
  const submitting = form.formState.isSubmitting;
  const hydrated = useHydrated();

  const onSubmit = form.handleSubmit(async (values) => {
    setFailure(null);
    setRefused(false);
    const answer = await callApi(loginStaff, { body: values }, { language: i18n.language });
    if (!answer.ok) {
      const fields = answer.errors.flatMap((issue) => {
        const path = LOGIN_FIELDS.find((name) => name === issue.path);
        return path ? [{ path, message: issue.message }] : [];
      });
      fields.forEach((issue, index) =>
        form.setError(
          issue.path,
          { type: "server", message: issue.message },
          { shouldFocus: index === 0 },
        ),
      );
      setFailure(
        fields.length > 0
          ? fields.map((issue) => issue.message)
          : [answer.message ?? t("staff.login.failed")],
      );
      return;
    }
    if (answer.data.step === "enrolment") {
      await navigate("/admin/enrol", { replace: true });
      return;
    }
    if (answer.data.step === "second_factor") {
      setSecondStep(answer.data.methods);
      return;
    }
    const { user } = answer.data;
    // The password was right, but the account may still not open the staff area: no welcome
    // then. A non-admin stays here and is told why; an admin of another domain goes on to the
    // page, which answers 'Access Denied' with the account's email.
    const access = loaderData.domain ? staffAccessOf(user, loaderData.domain) : "granted";
    if (access === "not_admin") {
      setRefused(true);
      return;
    }
    if (access === "granted")
      toast({
        title: t("staff.login.successTitle"),
        description: t("staff.login.successText", { email: user.email }),
      });
    const target = returnTarget(searchParams.get("redirectTo"));
    // The staff area opens in the account's language (unless the address names one): a
    // `?lang=` makes the page reload its messages, where a plain navigation keeps the current.
    const url = new URL(target, window.location.origin);
    if (user.language !== i18n.language && !url.searchParams.has("lang"))
      url.searchParams.set("lang", user.language);
    await navigate(`${url.pathname}${url.search}${url.hash}`, { replace: true });
  });

  if (secondStep)
    return (
      <StaffPlainPage>
        <SecondStep
          methods={secondStep}
          target={returnTarget(searchParams.get("redirectTo"))}
          onStartOver={() => setSecondStep(null)}
        />
      </StaffPlainPage>
    );

  return (
    <StaffPlainPage>
      <StaffCard title={t("staff.login.title")} intro={t("staff.login.intro")}>
        <p className="border-gold/40 bg-ivory text-ink mt-6 rounded-sm border px-4 py-3 text-sm">
          {loaderData.domain
            ? t("staff.login.domainNotice", { domain: loaderData.domain })
            : t("staff.login.domainNoticeGeneric")}
        </p>
        {isRefused && (
          <Alert className="mt-6" data-testid="login-refused">
            <AlertTitle>{t("staff.login.notAdminTitle")}</AlertTitle>
            <p className="mt-1">{t("staff.login.notAdmin")}</p>
          </Alert>
        )}
        {failure && (
          <Alert className="mt-6" data-testid="login-error">
            <AlertTitle>{t("staff.login.failed")}</AlertTitle>
            {failure.length > 1 ? (
              <AlertList items={failure} />
            ) : (
              failure[0] !== t("staff.login.failed") && <p className="mt-1">{failure[0]}</p>
            )}
          </Alert>
        )}
        {/* Passkey-first: a passkey with user verification is two factors alone. */}
        <PasskeySignInButton
          role="staff"
          className="mt-6"
          onSignedIn={() => window.location.assign(returnTarget(searchParams.get("redirectTo")))}
        />
        <FormProvider {...form}>
          <form
            method="post"
            noValidate
            onSubmit={(event) => void onSubmit(event)}
            className="mt-6 grid gap-5"
          >
            <TextField
              name="email"
              type="email"
              label={t("staff.login.email")}
              autoComplete="username"
              inputMode="email"
              required
            />
            <TextField
              name="password"
              type="password"
              label={t("staff.login.password")}
              autoComplete="current-password"
              required
            />
            <Button type="submit" size="lg" disabled={!hydrated || submitting} className="mt-2">
              <LogIn aria-hidden className="size-5" />
              {submitting ? t("staff.login.submitting") : t("staff.login.submit")}
            </Button>
          </form>
          <a
            href="/admin/forgot-password"
            className="text-heritage mt-4 inline-block text-sm underline underline-offset-4"
          >
            {t("staff.account.forgot.link")}
          </a>
        </FormProvider>
      </StaffCard>
    </StaffPlainPage>
  );
}

/**
 * The sign-in's second step: a code from the authenticator app, or one of the recovery codes.
 * A right code completes the session; the page then opens where sign-in was going.
 */
function SecondStep({
  methods,
  target,
  onStartOver,
}: {
  methods: readonly string[];
  target: string;
  onStartOver: () => void;
}) {
  const { t, i18n } = useTranslation();
  const [kind, setKind] = useState<"totp" | "recovery">(
    methods.includes("totp") ? "totp" : "recovery",
  );
  const [ended, setEnded] = useState<string | null>(null);
  const startOver = async () => {
    await callApi(logoutStaff, {}, { language: i18n.language });
    onStartOver();
  };
  return (
    <StaffCard
      title={t("staff.mfa.secondStep.title")}
      intro={
        kind === "totp" ? t("staff.mfa.secondStep.intro") : t("staff.mfa.secondStep.introRecovery")
      }
    >
      <div className="mt-6 grid gap-5">
        {/* A passkey of this account completes the step as a code does. */}
        {!ended && methods.includes("passkey") && (
          <PasskeySignInButton role="staff" onSignedIn={() => window.location.assign(target)} />
        )}
        {ended ? (
          <Alert data-testid="second-step-ended">
            <AlertTitle>{ended}</AlertTitle>
          </Alert>
        ) : (
          (methods.includes("totp") || methods.includes("recovery")) && (
            <CodeForm
              key={kind}
              kind={kind}
              label={
                kind === "totp"
                  ? t("staff.mfa.secondStep.code")
                  : t("staff.mfa.secondStep.recoveryCode")
              }
              hint={
                kind === "totp"
                  ? t("staff.mfa.secondStep.codeHint")
                  : t("staff.mfa.secondStep.recoveryHint")
              }
              submitLabel={t("staff.mfa.secondStep.submit")}
              busyLabel={t("staff.mfa.checking")}
              testId="second-step"
              onCode={async (code) => {
                const answer = await callApi(
                  completeSecondFactor,
                  { body: { code } },
                  { language: i18n.language },
                );
                if (answer.ok) {
                  // A full load: the staff area opens in the account's language (its cookie).
                  window.location.assign(target);
                  return null;
                }
                if (answer.status === 401) {
                  setEnded(answer.message ?? t("staff.mfa.sessionEnded"));
                  return null;
                }
                return answer.errors[0]?.message ?? answer.message ?? t("staff.mfa.codeWrong");
              }}
            />
          )
        )}
        <div className="flex flex-wrap gap-3">
          {!ended && methods.includes("totp") && methods.includes("recovery") && (
            <Button
              type="button"
              variant="ghost"
              size="sm"
              onClick={() => setKind(kind === "totp" ? "recovery" : "totp")}
            >
              {kind === "totp"
                ? t("staff.mfa.secondStep.useRecovery")
                : t("staff.mfa.secondStep.useApp")}
            </Button>
          )}
          <Button type="button" variant="ghost" size="sm" onClick={() => void startOver()}>
            {t("staff.mfa.secondStep.startOver")}
          </Button>
        </div>
      </div>
    </StaffCard>
  );
}

import { useMemo } from "react";
import { FormProvider, useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { LANGUAGE_NAMES, LANGUAGES } from "#i18n/config.ts";
import { PASSWORD_MIN_LENGTH } from "#domain/staff/password-rules.ts";
import type { StaffSetup } from "#domain/staff/setup.schema.ts";
import { completeStaffSetup } from "#domain/staff/staff-auth.contract.ts";
import { callApi } from "#app/api-client.ts";
import type { Route } from "./+types/setup";
import { requestInfoContext, staffPagesContext } from "#app/context.ts";
import { SelectField, TextField } from "#app/components/forms/fields.tsx";
import { lazyZodResolver } from "#app/components/forms/lazy-resolver.ts";
import { StaffCard, StaffPlainPage, useHydrated } from "#app/components/staff/staff-page.tsx";
import { STAFF_HOME } from "#app/components/staff/staff-api.ts";
import { Alert } from "#app/components/ui/alert.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { toast } from "#app/hooks/use-toast.ts";
import { staffTitle } from "./require-admin.server.ts";

/** The fields a 400's `errors[]` may name, shown under their input. */
const SETUP_FIELDS = [
  "displayName",
  "email",
  "password",
  "language",
] as const satisfies readonly (keyof StaffSetup)[];

/** How an operator makes an admin when the link cannot be used (server/staff-cli.ts). */
const CREATE_ADMIN_COMMAND = "npm run staff -- create <email> --admin";

export async function loader({ context, request }: Route.LoaderArgs) {
  const staff = context.get(staffPagesContext);
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const usable = staff && token ? await staff.isSetupTokenUsable(token) : false;
  return {
    title: staffTitle(context, "staff.setup.title"),
    usable,
    token: usable ? token : null,
    domain: staff?.adminEmailDomain ?? "",
    language: context.get(requestInfoContext).language,
    passwordMinLength: PASSWORD_MIN_LENGTH,
  };
}

export function headers() {
  // The token is in the address: no cache keeps the page, no Referer carries it away.
  return { "Cache-Control": "private, no-store", "Referrer-Policy": "no-referrer" };
}

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: loaderData?.title ?? "" },
  { name: "robots", content: "noindex, nofollow" },
];

export default function AdminSetup({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  if (!loaderData.usable || !loaderData.token)
    return (
      <StaffPlainPage>
        <StaffCard title={t("staff.setup.invalidTitle")}>
          <div role="alert" className="mt-6 grid gap-4">
            <p className="text-ink">{t("staff.setup.invalidText")}</p>
            <p className="text-ink">{t("staff.setup.invalidHowTo")}</p>
            <pre className="bg-ink text-ivory overflow-x-auto rounded-sm px-4 py-3 text-sm">
              <code>{CREATE_ADMIN_COMMAND}</code>
            </pre>
            <p className="text-muted text-sm">{t("staff.setup.invalidThen")}</p>
          </div>
          <a
            href="/admin/login"
            className="text-heritage mt-6 inline-block font-medium underline underline-offset-4"
          >
            {t("staff.setup.goToLogin")}
          </a>
        </StaffCard>
      </StaffPlainPage>
    );
  return <SetupForm {...loaderData} token={loaderData.token} />;
}

function SetupForm({
  token,
  domain,
  language,
  passwordMinLength,
}: {
  token: string;
  domain: string;
  language: StaffSetup["language"];
  passwordMinLength: number;
}) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const hydrated = useHydrated();
  // The same schema as the API's, loaded on first use; the server checks again with it (and
  // the parts the browser cannot: the company domain, the common-password list).
  const schema = useMemo(
    () =>
      lazyZodResolver<StaffSetup, StaffSetup>(() =>
        import("#domain/staff/setup.schema.ts").then((m) => m.StaffSetupSchema),
      ),
    [],
  );
  const form = useForm<StaffSetup>({
    defaultValues: { token, displayName: "", email: "", password: "", language },
    resolver: schema.resolver,
  });
  const submitting = form.formState.isSubmitting;
  const rootError = form.formState.errors.root?.message;

  const onSubmit = form.handleSubmit(async (values) => {
    const answer = await callApi(completeStaffSetup, { body: values }, { language: i18n.language });
    if (answer.ok) {
      const { user, step } = answer.data;
      toast({
        title: t("staff.setup.successTitle"),
        description: t("staff.setup.successText", { name: user.displayName }),
      });
      // Signed in already (or at enrolment of a first factor); the page opens in the account's language.
      const target = step === "enrolment" ? "/admin/enrol" : STAFF_HOME;
      await navigate(user.language === i18n.language ? target : `${target}?lang=${user.language}`, {
        replace: true,
      });
      return;
    }
    const fieldErrors = answer.errors.flatMap((issue) => {
      const field = SETUP_FIELDS.find((name) => name === issue.path);
      return field ? [{ field, message: issue.message }] : [];
    });
    for (const issue of fieldErrors)
      form.setError(
        issue.field,
        { type: "server", message: issue.message },
        { shouldFocus: issue === fieldErrors[0] },
      );
    if (fieldErrors.length === 0)
      form.setError("root", {
        type: "server",
        message: answer.message ?? t("staff.setup.failed"),
      });
  });

  return (
    <StaffPlainPage>
      <StaffCard title={t("staff.setup.title")} intro={t("staff.setup.intro")}>
        {rootError && <Alert className="mt-6">{rootError}</Alert>}
        <FormProvider {...form}>
          <form
            method="post"
            noValidate
            onSubmit={(event) => void onSubmit(event)}
            className="mt-6 grid gap-5"
          >
            <TextField
              name="displayName"
              label={t("staff.setup.name")}
              autoComplete="name"
              required
            />
            <TextField
              name="email"
              type="email"
              label={t("staff.setup.email")}
              hint={t("staff.setup.emailHint", { domain })}
              autoComplete="username"
              inputMode="email"
              required
            />
            <TextField
              name="password"
              type="password"
              label={t("staff.setup.password")}
              hint={t("staff.setup.passwordHint", { min: passwordMinLength })}
              autoComplete="new-password"
              required
            />
            <SelectField
              name="language"
              label={t("staff.setup.language")}
              hint={t("staff.setup.languageHint")}
              options={LANGUAGES.map((value) => ({ value, label: LANGUAGE_NAMES[value] }))}
            />
            <Button type="submit" size="lg" disabled={!hydrated || submitting} className="mt-2">
              {submitting ? t("staff.setup.submitting") : t("staff.setup.submit")}
            </Button>
          </form>
        </FormProvider>
      </StaffCard>
    </StaffPlainPage>
  );
}

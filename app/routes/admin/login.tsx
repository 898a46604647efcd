import { useMemo, useState } from "react";
import { FormProvider, useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { redirect, useNavigate, useSearchParams } from "react-router";
import { LogIn } from "lucide-react";
import { staffAccessOf, type StaffUser } from "../../../domain/staff/staff-user.ts";
import type { StaffLogin } from "../../../domain/staff/login.schema.ts";
import type { Route } from "./+types/login";
import { sessionContext, staffPagesContext } from "../../context.ts";
import { TextField } from "../../components/forms/fields.tsx";
import { lazyZodResolver } from "../../components/forms/lazy-resolver.ts";
import { StaffCard, StaffPlainPage, useHydrated } from "../../components/staff/staff-page.tsx";
import { callStaffApi, safeRedirectTarget, STAFF_HOME } from "../../components/staff/staff-api.ts";
import { Button } from "../../components/ui/button.tsx";
import { toast } from "../../hooks/use-toast.ts";
import { staffTitle } from "./require-admin.server.ts";

export function loader({ context, request }: Route.LoaderArgs) {
  const staff = context.get(staffPagesContext);
  const session = context.get(sessionContext);
  const url = new URL(request.url);
  // Already signed in as an admin who may enter: straight on.
  if (
    staff &&
    session?.role === "staff" &&
    staffAccessOf(session.user, staff.adminEmailDomain) === "granted"
  )
    throw redirect(safeRedirectTarget(url.searchParams.get("redirectTo")) ?? STAFF_HOME);
  return {
    title: staffTitle(context, "staff.login.title"),
    domain: staff?.adminEmailDomain ?? null,
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
  // The same schema as the API's, loaded on first use; the server checks again with it.
  const schema = useMemo(
    () =>
      lazyZodResolver<StaffLogin, StaffLogin>(() =>
        import("../../../domain/staff/login.schema.ts").then((m) => m.StaffLoginSchema),
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
    const answer = await callStaffApi<{ user: StaffUser }>("POST", "/api/admin/login", {
      body: values,
      language: i18n.language,
    });
    const user = answer.body?.user;
    if (!answer.ok || !user) {
      const fields = answer.errors.filter(
        (issue) => issue.path === "email" || issue.path === "password",
      );
      fields.forEach((issue, index) =>
        form.setError(
          issue.path as keyof StaffLogin,
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
    toast({
      title: t("staff.login.successTitle"),
      description: t("staff.login.successText", { email: user.email }),
    });
    const target = safeRedirectTarget(searchParams.get("redirectTo")) ?? STAFF_HOME;
    // The staff area opens in the account's language (unless the address names one): a
    // `?lang=` makes the page reload its messages, where a plain navigation keeps the current.
    const url = new URL(target, window.location.origin);
    if (user.language !== i18n.language && !url.searchParams.has("lang"))
      url.searchParams.set("lang", user.language);
    await navigate(`${url.pathname}${url.search}${url.hash}`, { replace: true });
  });

  return (
    <StaffPlainPage>
      <StaffCard title={t("staff.login.title")} intro={t("staff.login.intro")}>
        <p className="border-gold/40 bg-ivory text-ink mt-6 rounded-sm border px-4 py-3 text-sm">
          {loaderData.domain
            ? t("staff.login.domainNotice", { domain: loaderData.domain })
            : t("staff.login.domainNoticeGeneric")}
        </p>
        {failure && (
          <div
            role="alert"
            data-testid="login-error"
            className="border-burgundy/50 text-burgundy mt-6 rounded-sm border border-l-4 bg-red-50 px-4 py-3 text-sm"
          >
            <p className="font-semibold">{t("staff.login.failed")}</p>
            {failure.length > 1 ? (
              <ul className="mt-1 list-disc pl-5">
                {failure.map((message) => (
                  <li key={message}>{message}</li>
                ))}
              </ul>
            ) : (
              failure[0] !== t("staff.login.failed") && <p className="mt-1">{failure[0]}</p>
            )}
          </div>
        )}
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
        </FormProvider>
      </StaffCard>
    </StaffPlainPage>
  );
}

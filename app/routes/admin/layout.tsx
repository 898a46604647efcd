import { useTranslation } from "react-i18next";
import {
  isRouteErrorResponse,
  Link,
  Outlet,
  redirect,
  useRouteError,
  useRouteLoaderData,
} from "react-router";
import { ShieldAlert } from "lucide-react";
import type { Route } from "./+types/layout";
import { LogoutButton } from "#app/components/staff/logout-button.tsx";
import { StaffHeader } from "#app/components/staff/staff-header.tsx";
import { StaffCard, StaffPlainPage } from "#app/components/staff/staff-page.tsx";
import { STAFF_HOME } from "#app/components/staff/staff-api.ts";
import { isAccessDenied } from "#app/components/staff/access-denied.ts";
import { requireAdmin } from "./require-admin.server.ts";

/**
 * Every guarded staff page sits under this layout. Its loader is the server-side guard of
 * who may enter (the pages' loaders repeat it: loaders run in parallel) and answers `/admin`
 * itself. A `?lang=` only shows the page in that language: a GET stores nothing, so the
 * account's language changes through the header's menu (POST /api/admin/language) alone.
 */
export function loader({ context, request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  if (url.pathname.replace(/\/+$/, "") === "/admin") throw redirect(STAFF_HOME);
  const { user } = requireAdmin(context, request);
  return { email: user.email, displayName: user.displayName };
}

export function headers() {
  // Personal pages: no shared cache, no back-button copy after logout.
  return { "Cache-Control": "private, no-store" };
}

export const meta: Route.MetaFunction = ({ error }) => [
  ...(isRouteErrorResponse(error) && isAccessDenied(error.data)
    ? [{ title: error.data.title }]
    : []),
  { name: "robots", content: "noindex" },
];

export default function AdminLayout({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <>
      <a
        href="#main"
        className="bg-paper text-heritage sr-only z-50 rounded-sm px-4 py-2 font-medium focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
      >
        {t("a11y.skipToContent")}
      </a>
      <StaffHeader email={loaderData.email} />
      <main id="main" tabIndex={-1} className="flex-1 focus:outline-none">
        <Outlet />
      </main>
    </>
  );
}

/**
 * 'Access Denied' for an admin outside the company domain, with the account's
 * email and Logout; any other failure of a staff page, a short notice.
 */
export function ErrorBoundary() {
  const { t } = useTranslation();
  const error = useRouteError();
  const layoutData = useRouteLoaderData<typeof loader>("routes/admin/layout");
  if (isRouteErrorResponse(error) && isAccessDenied(error.data))
    return (
      <StaffPlainPage>
        <StaffCard title={t("staff.accessDenied.title")}>
          <div className="mt-6 flex gap-4" data-testid="access-denied">
            <ShieldAlert aria-hidden className="text-burgundy mt-0.5 size-6 shrink-0" />
            <div className="grid gap-3">
              <p className="text-ink">{t("staff.accessDenied.body")}</p>
              <p className="text-muted text-sm">
                {t("staff.accessDenied.signedInAs")}{" "}
                <span className="text-ink font-medium" data-testid="staff-email">
                  {error.data.email}
                </span>
              </p>
            </div>
          </div>
          <div className="mt-8">
            <LogoutButton variant="primary" />
          </div>
        </StaffCard>
      </StaffPlainPage>
    );
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  // This layout's loader is the check of who is signed in: when it is what failed (its data is
  // missing), say so ('Failed to check authentication'), not a page's failure.
  const isAuthFailure = !notFound && layoutData === undefined;
  if (isAuthFailure)
    return (
      <StaffPlainPage>
        <StaffCard title={t("staff.shell.authFailed")}>
          <p className="text-ink mt-6" data-testid="auth-check-failed">
            {t("staff.shell.authFailedText")}
          </p>
        </StaffCard>
      </StaffPlainPage>
    );
  return (
    <StaffPlainPage>
      <StaffCard title={notFound ? t("notFound.title") : t("staff.shell.errorTitle")}>
        <p className="text-ink mt-6">
          {notFound ? t("errors.notFound") : t("staff.shell.errorText")}
        </p>
        <Link
          to={STAFF_HOME}
          className="text-heritage mt-6 inline-block font-medium underline underline-offset-4"
        >
          {t("staff.shell.backToInbox")}
        </Link>
      </StaffCard>
    </StaffPlainPage>
  );
}

import { data, redirect, type RouterContextProvider } from "react-router";
import type { StaffUser } from "#domain/staff/staff-user.ts";
import { staffAccessOf } from "#domain/staff/staff-user.ts";
import { translate } from "#i18n/translate.ts";
import {
  requestInfoContext,
  sessionContext,
  type StaffPages,
  staffPagesContext,
} from "#app/context.ts";
import type { AccessDeniedData } from "#app/components/staff/access-denied.ts";
import { pageAddressOf } from "#app/components/staff/page-address.ts";

/**
 * The sign-in page, coming back afterwards to the page `url` is for (a client navigation's
 * data request, `/admin/estates.data`, returns to `/admin/estates`).
 */
export function loginRedirect(url: URL) {
  return redirect(`/admin/login?redirectTo=${encodeURIComponent(pageAddressOf(url))}`);
}

/**
 * The first call of every guarded staff loader (the layout's and each page's: React Router
 * runs them in parallel, and a page's data can be asked for on its own). Nobody signed in, an
 * owner, or staff without the admin flag: to sign-in. An admin outside the company domain:
 * a 403 that the layout shows as 'Access Denied' with the account's email.
 */
export function requireAdmin(
  context: Readonly<RouterContextProvider>,
  request: Request,
): { user: StaffUser; staff: StaffPages } {
  const url = new URL(request.url);
  const session = context.get(sessionContext);
  const staff = context.get(staffPagesContext);
  // Without the staff services (an API-only test app) there is no staff area to enter.
  if (!staff) throw data(null, { status: 404 });
  // A sign-in short of its second factor is not a session here: back to sign-in, which goes on.
  if (!session || session.role !== "staff") throw loginRedirect(url);
  const access = staffAccessOf(session.user, staff.adminEmailDomain);
  if (access === "not_admin") throw loginRedirect(url);
  if (access === "wrong_domain") {
    const { language } = context.get(requestInfoContext);
    throw data(
      {
        reason: "wrong_domain",
        email: session.user.email,
        title: translate(language, "meta.pageTitle", {
          title: translate(language, "staff.accessDenied.title"),
        }),
      } satisfies AccessDeniedData,
      { status: 403, headers: { "Cache-Control": "private, no-store" } },
    );
  }
  return { user: session.user, staff };
}

/** A page title of the staff area ("{page} | Castellum"), in the request's language. */
export function staffTitle(context: Readonly<RouterContextProvider>, key: string): string {
  const { language } = context.get(requestInfoContext);
  return translate(language, "meta.pageTitle", { title: translate(language, key) });
}

/** A page title of the staff area from a name that needs no translation ("{name} | Castellum"). */
export function staffTitleOf(context: Readonly<RouterContextProvider>, name: string): string {
  const { language } = context.get(requestInfoContext);
  return translate(language, "meta.pageTitle", { title: name });
}

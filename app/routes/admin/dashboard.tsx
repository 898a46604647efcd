import { useTranslation } from "react-i18next";
import {
  data,
  isRouteErrorResponse,
  Link,
  redirect,
  type ShouldRevalidateFunctionArgs,
  useLocation,
  useRouteError,
} from "react-router";
import { ShieldAlert } from "lucide-react";
import type { EstateActor } from "#domain/owners/owner-property.ts";
import { staffAccessOf } from "#domain/staff/staff-user.ts";
import { isLanguage } from "#i18n/config.ts";
import { translate } from "#i18n/translate.ts";
import type { Route } from "./+types/dashboard";
import { ownerPagesContext, requestInfoContext, sessionContext } from "#app/context.ts";
import { OwnerDashboard } from "#app/components/owner/owner-dashboard.tsx";
import { isOwnerTab } from "#app/components/owner/owner-tab-ids.ts";
import { OwnerPlainPage } from "#app/components/owner/owner-page.tsx";
import { StaffCard } from "#app/components/staff/staff-page.tsx";
import { buttonVariants } from "#app/components/ui/button.tsx";
import { loginRedirect } from "./require-admin.server.ts";

/** Personal pages: no shared cache, no back-button copy after logout. */
const PRIVATE = { "Cache-Control": "private, no-store" };

/** What a refusal carries to the error boundary. */
interface DeniedData {
  reason: "forbidden" | "wrong_domain";
  email: string;
  title: string;
}

function isDenied(value: unknown): value is DeniedData {
  const reason = (value as { reason?: unknown } | null)?.reason;
  return reason === "forbidden" || reason === "wrong_domain";
}

/** `?estate=`: absent, a positive id, or something that names no estate. */
function readEstateId(value: string | null): number | undefined | "invalid" {
  if (value === null || value === "") return undefined;
  return /^[1-9]\d{0,8}$/.test(value) ? Number(value) : "invalid";
}

/** The owners' sign-in, keeping the language and the dashboard tab a link asked for. */
function verifyPathFor(url: URL): string {
  const keep = new URLSearchParams();
  const tab = url.searchParams.get("tab");
  const lang = url.searchParams.get("lang");
  if (tab && isOwnerTab(tab)) keep.set("tab", tab);
  if (lang && isLanguage(lang)) keep.set("lang", lang);
  return keep.size ? `/onboard/verify?${keep}` : "/onboard/verify";
}

/**
 * Who may open the dashboard (the domain checks the estate again): an owner's
 * session (their claimed estates), or a staff admin of the company domain with `?estate=`.
 * Nobody signed in goes to the owners' verification; staff without the right go to sign-in.
 * The translated fields are edited in `?content=` (default: the page's language).
 */
export async function loader({ context, request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const owners = context.get(ownerPagesContext);
  // Without the owner services (an API-only test app) there is no dashboard to open.
  if (!owners) throw data(null, { status: 404, headers: PRIVATE });
  const { language } = context.get(requestInfoContext);
  const title = (key: string) =>
    translate(language, "meta.pageTitle", { title: translate(language, key) });
  const session = context.get(sessionContext);
  // Signed out, e.g. from a mail's link: sign in first, then on to the tab the link named.
  if (!session) throw redirect(verifyPathFor(url), { headers: PRIVATE });

  const estateId = readEstateId(url.searchParams.get("estate"));
  if (estateId === "invalid") throw data(null, { status: 404, headers: PRIVATE });

  let actor: EstateActor;
  if (session.role === "owner") {
    actor = { role: "owner", email: session.ownerEmail };
  } else {
    const access = staffAccessOf(session.user, owners.adminEmailDomain);
    if (access === "not_admin") throw loginRedirect(url);
    if (access === "wrong_domain")
      throw data(
        {
          reason: "wrong_domain",
          email: session.user.email,
          title: title("owner.access.title"),
        } satisfies DeniedData,
        { status: 403, headers: PRIVATE },
      );
    // Staff open an estate from the estates list; the dashboard has no list of its own.
    if (estateId === undefined) throw redirect("/admin/estates", { headers: PRIVATE });
    actor = { role: "staff", staffUserId: session.user.id, email: session.user.email };
  }

  const content = url.searchParams.get("content");
  const result = await owners.loadDashboard(actor, {
    estateId,
    language: isLanguage(content) ? content : language,
    pageLanguage: language,
  });
  switch (result.outcome) {
    case "ok":
      return {
        kind: "ok" as const,
        title: translate(language, "meta.pageTitle", {
          title: `${result.details.name} · ${translate(language, "owner.dashboard.title")}`,
        }),
        details: result.details,
      };
    case "no_estate":
      return { kind: "no_estate" as const, title: title("owner.dashboard.title") };
    case "not_found":
      throw data(null, { status: 404, headers: PRIVATE });
    case "forbidden":
      throw data(
        {
          reason: "forbidden",
          email: actor.email,
          title: title("owner.access.title"),
        } satisfies DeniedData,
        { status: 403, headers: PRIVATE },
      );
  }
}

export function headers() {
  return PRIVATE;
}

export const meta: Route.MetaFunction = ({ loaderData, error }) => [
  {
    title:
      loaderData?.title ??
      (isRouteErrorResponse(error) && isDenied(error.data) ? error.data.title : ""),
  },
  { name: "robots", content: "noindex" },
];

/** Switching tabs writes `?tab=` into the address; that alone reloads nothing. */
export function shouldRevalidate({
  currentUrl,
  nextUrl,
  defaultShouldRevalidate,
}: ShouldRevalidateFunctionArgs) {
  const withoutTab = (url: URL) => {
    const params = new URLSearchParams(url.search);
    params.delete("tab");
    return `${url.pathname}?${params}`;
  };
  if (
    currentUrl.searchParams.get("tab") !== nextUrl.searchParams.get("tab") &&
    withoutTab(currentUrl) === withoutTab(nextUrl)
  )
    return false;
  return defaultShouldRevalidate;
}

export default function Dashboard({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  if (loaderData.kind === "no_estate")
    return (
      <OwnerPlainPage>
        <StaffCard title={t("owner.dashboard.noEstateTitle")}>
          <p className="text-ink mt-6" data-testid="no-estate">
            {t("owner.dashboard.noEstateText")}
          </p>
          <Link to="/onboard/verify" className={buttonVariants({ className: "mt-8" })}>
            {t("owner.dashboard.goToVerify")}
          </Link>
        </StaffCard>
      </OwnerPlainPage>
    );
  // Another estate is another page: nothing unsaved of one follows to the next.
  return <OwnerDashboard key={loaderData.details.id} details={loaderData.details} />;
}

/**
 * 'Access Denied' for an estate the account may not open (or staff outside the company
 * domain); 'Failed to load property details' for anything else.
 */
export function ErrorBoundary() {
  const { t } = useTranslation();
  const error = useRouteError();
  const location = useLocation();
  if (isRouteErrorResponse(error) && isDenied(error.data))
    return (
      <OwnerPlainPage>
        <StaffCard title={t("owner.access.title")}>
          <div className="mt-6 flex gap-4" data-testid="access-denied">
            <ShieldAlert aria-hidden className="text-burgundy mt-0.5 size-6 shrink-0" />
            <div className="grid gap-3">
              <p className="text-ink">
                {error.data.reason === "forbidden"
                  ? t("owner.errors.forbidden")
                  : t("owner.access.companyOnly")}
              </p>
              <p className="text-muted text-sm">
                {t("owner.access.signedInAs")}{" "}
                <span className="text-ink font-medium">{error.data.email}</span>
              </p>
            </div>
          </div>
          <Link
            to={error.data.reason === "forbidden" ? "/admin/dashboard" : "/admin/login"}
            className="text-heritage mt-8 inline-block font-medium underline underline-offset-4"
          >
            {error.data.reason === "forbidden"
              ? t("owner.access.backToDashboard")
              : t("owner.access.signIn")}
          </Link>
        </StaffCard>
      </OwnerPlainPage>
    );
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return (
    <OwnerPlainPage>
      <StaffCard
        title={notFound ? t("owner.dashboard.notFoundTitle") : t("owner.dashboard.loadFailed")}
      >
        <p className="text-ink mt-6">
          {notFound ? t("owner.dashboard.notFoundText") : t("errors.generic")}
        </p>
        <Link
          to={notFound ? "/admin/dashboard" : `${location.pathname}${location.search}`}
          reloadDocument={!notFound}
          className="text-heritage mt-6 inline-block font-medium underline underline-offset-4"
        >
          {notFound ? t("owner.access.backToDashboard") : t("owner.dashboard.retry")}
        </Link>
      </StaffCard>
    </OwnerPlainPage>
  );
}

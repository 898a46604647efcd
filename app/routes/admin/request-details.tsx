import { useTranslation } from "react-i18next";
import { data, isRouteErrorResponse, useLocation, useNavigate, useRouteError } from "react-router";
import { translate } from "#i18n/translate.ts";
import type { Route } from "./+types/request-details";
import { requestInfoContext } from "#app/context.ts";
import { inboxPathOf, kindOfCollection } from "#app/components/staff/details-path.ts";
import {
  RequestDetailsDialog,
  RequestDetailsFailed,
} from "#app/components/staff/request-details-dialog.tsx";
import { requireAdmin, staffTitleOf } from "./require-admin.server.ts";

/**
 * One request's details, as a dialog over the inbox (`/admin/booking-requests/:collection/:id`
 * with the inbox's search kept). Its loader reads the request; the inbox's loader does not run
 * again when it opens or closes, as the inbox's address (path and search) is unchanged.
 */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  const { staff } = requireAdmin(context, request);
  const kind = kindOfCollection(params.collection);
  const detail = kind ? await staff.getRequestDetail(kind, params.id) : null;
  if (!detail) throw data(null, { status: 404 });
  const { language } = context.get(requestInfoContext);
  const estateNames = await staff.nameEstates(language, [
    detail.propertyId,
    ...detail.history.map((entry) => entry.stay?.propertyId ?? null),
  ]);
  return {
    title: staffTitleOf(
      context,
      translate(language, "staff.details.title", { reference: detail.reference }),
    ),
    detail,
    estateNames,
  };
}

export function headers() {
  return { "Cache-Control": "private, no-store" };
}

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: loaderData?.title ?? "" },
  { name: "robots", content: "noindex" },
];

/** Back to the inbox as it was: same filters, same page, no scroll. */
function useCloseDetails() {
  const navigate = useNavigate();
  const location = useLocation();
  return () => void navigate(inboxPathOf(location.search), { preventScrollReset: true });
}

export default function RequestDetails({ loaderData }: Route.ComponentProps) {
  const close = useCloseDetails();
  return (
    <RequestDetailsDialog
      detail={loaderData.detail}
      estateNames={loaderData.estateNames}
      onClose={close}
    />
  );
}

/** An unknown request, or one that could not be read: said in the dialog, over the inbox. */
export function ErrorBoundary() {
  const { t } = useTranslation();
  const error = useRouteError();
  const close = useCloseDetails();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return (
    <RequestDetailsFailed
      message={notFound ? t("staff.details.notFound") : t("staff.details.failed")}
      onClose={close}
    />
  );
}

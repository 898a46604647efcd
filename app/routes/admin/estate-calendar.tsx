import { useTranslation } from "react-i18next";
import { data, Link, useNavigate, useNavigation, useRevalidator } from "react-router";
import { ArrowLeft } from "lucide-react";
import { NotFoundError } from "#domain/errors.ts";
import { isIsoDate, utcToday } from "#domain/requests/dates.ts";
import type { RequestKind } from "#domain/requests/options.ts";
import { parseEstateId } from "#domain/staff/estates.schema.ts";
import { inboxFilterToSearch } from "#domain/staff/inbox.schema.ts";
import { translate } from "#i18n/translate.ts";
import type { Route } from "./+types/estate-calendar";
import { requestInfoContext } from "#app/context.ts";
import {
  calendarWindowAround,
  EstateCalendarView,
} from "#app/components/calendar/estate-calendar-view.tsx";
import { staffFeedsApi } from "#app/components/calendar/feeds-api.ts";
import { FeedsPanel } from "#app/components/calendar/feeds-panel.tsx";
import { detailsPathOf } from "#app/components/staff/details-path.ts";
import { StaffPageHeader } from "#app/components/staff/staff-page.tsx";
import { requireAdmin, staffTitleOf } from "./require-admin.server.ts";

const KIND_OF_COLLECTION: Record<"bookings" | "booking-requests", RequestKind> = {
  bookings: "property_booking",
  "booking-requests": "booking_request",
};

/**
 * One estate's calendar for staff: three months from the month of
 * `?from=YYYY-MM-DD` (a request's details link here around its nights), else from this month.
 */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  const { staff } = requireAdmin(context, request);
  const { language } = context.get(requestInfoContext);
  const propertyId = parseEstateId(params.id);
  if (propertyId === null) throw data(null, { status: 404 });
  const from = new URL(request.url).searchParams.get("from");
  const window = calendarWindowAround(from && isIsoDate(from) ? from : null, utcToday());
  try {
    const { estate, calendar, feeds, syncMinutes } = await staff.getEstateCalendar({
      propertyId,
      ...window,
      language,
    });
    return {
      title: staffTitleOf(
        context,
        `${estate.name} · ${translate(language, "staff.estateCalendar.title")}`,
      ),
      estate,
      calendar,
      feeds,
      syncMinutes,
    };
  } catch (error) {
    if (error instanceof NotFoundError) throw data(null, { status: 404 });
    throw error;
  }
}

export function headers() {
  return { "Cache-Control": "private, no-store" };
}

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: loaderData?.title ?? "" },
  { name: "robots", content: "noindex" },
];

export default function EstateCalendar({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const navigation = useNavigation();
  const revalidator = useRevalidator();
  const { estate, calendar, feeds, syncMinutes } = loaderData;
  const refresh = () => void revalidator.revalidate();

  return (
    <div className="mx-auto grid max-w-7xl grid-cols-[minmax(0,1fr)] gap-10 px-4 py-10 sm:px-6 lg:py-12">
      <div className="grid gap-4">
        <Link
          to={`/admin/estates/${estate.id}`}
          className="text-heritage inline-flex items-center gap-2 justify-self-start text-sm font-medium underline-offset-4 hover:underline"
        >
          <ArrowLeft aria-hidden className="size-4" />
          {t("staff.estateCalendar.backToEstate", { name: estate.name })}
        </Link>
        <StaffPageHeader
          title={`${estate.name} · ${t("staff.estateCalendar.title")}`}
          description={t("staff.estateCalendar.description", { location: estate.location })}
        />
      </div>
      <EstateCalendarView
        calendar={calendar}
        target={{ area: "staff", estateId: estate.id }}
        busy={navigation.state === "loading"}
        onNavigate={(from) => void navigate(`?from=${from}`, { preventScrollReset: true })}
        onChanged={refresh}
        feeds={
          <FeedsPanel
            icalUrl={calendar.icalUrl}
            feeds={feeds}
            api={staffFeedsApi(estate.id, i18n.language)}
            syncMinutes={syncMinutes}
            onChanged={refresh}
          />
        }
        requestHref={(entry) => {
          const kind = KIND_OF_COLLECTION[entry.collection];
          const search = inboxFilterToSearch({ kind, propertyId: estate.id }).toString();
          return detailsPathOf(kind, entry.requestId, search ? `?${search}` : "");
        }}
      />
    </div>
  );
}

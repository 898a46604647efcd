import { useTranslation } from "react-i18next";
import { data, isRouteErrorResponse } from "react-router";
import { EstateHeader } from "../components/estate-header.tsx";
import { NotFoundError } from "#domain/errors.ts";
import { lastBookableDate, utcToday } from "#domain/requests/dates.ts";
import { readStayDates } from "#domain/catalogue/catalogue-filter.schema.ts";
import { formatDate } from "#domain/requests/summary.ts";
import { translate } from "#i18n/translate.ts";
import type { Route } from "./+types/booking";
import { publicPagesContext, requestInfoContext } from "../context.ts";
import { pageMeta } from "../meta.ts";
import { BackLink, EstateRouteError } from "../components/back-link.tsx";
import { ResponsiveImage } from "../components/responsive-image.tsx";
import { formIsland } from "../components/forms/form-island.tsx";
import { availabilityWindowOf } from "../components/availability-calendar.tsx";

/** A form sent without JavaScript: the page again, with what the form needs. */
export { action } from "../components/forms/form-island.tsx";

/** The form's code loads when the guest engages with it or the page is idle (not with the page). */
const PropertyBookingForm = formIsland(
  () =>
    import("../components/forms/property-booking-form.tsx").then(
      (module) => module.PropertyBookingForm,
    ),
  "mt-10 min-h-screen",
);

export async function loader({ context, params, request }: Route.LoaderArgs) {
  await PropertyBookingForm.ready();
  const { language, botCheck, bookingHorizonMonths } = context.get(requestInfoContext);
  const pages = context.get(publicPagesContext);
  try {
    const property = await pages.getProperty({ idOrSlug: params.idOrSlug, language });
    const lastDate = lastBookableDate(bookingHorizonMonths);
    const today = utcToday();
    const unavailable = await pages.readUnavailableNights({
      propertyId: property.id,
      ...availabilityWindowOf(today),
    });
    return {
      property: {
        id: property.id,
        slug: property.slug,
        name: property.name,
        location: property.location,
        bedrooms: property.bedrooms,
        image: property.images[0] ?? null,
      },
      title: translate(language, "meta.pageTitle", {
        title: translate(language, "forms.propertyBooking.title", { name: property.name }),
      }),
      description: translate(language, "forms.propertyBooking.metaDescription", {
        name: property.name,
        location: property.location,
      }),
      botCheck,
      bookingHorizonMonths,
      today,
      unavailable,
      lastDate,
      lastDateLabel: formatDate(lastDate, language),
      // The dates searched for on /castles start the form; broken ones are dropped.
      stay: readStayDates(new URL(request.url).searchParams, bookingHorizonMonths),
    };
  } catch (error) {
    if (error instanceof NotFoundError) {
      throw data(
        { title: translate(language, "forms.propertyBooking.notFoundTitle") },
        { status: 404 },
      );
    }
    throw error;
  }
}

/** A client-side navigation waits for the form's code too (see `withCode`). */
export async function clientLoader({ serverLoader }: Route.ClientLoaderArgs) {
  return PropertyBookingForm.withCode(serverLoader());
}

export const meta: Route.MetaFunction = (args) => {
  if (!args.loaderData) {
    const title = isRouteErrorResponse(args.error)
      ? (args.error.data as { title?: string })?.title
      : undefined;
    return [{ title: title ?? "" }, { name: "robots", content: "noindex" }];
  }
  return pageMeta(args, {
    title: args.loaderData.title,
    description: args.loaderData.description,
    path: `/booking/${args.loaderData.property.slug}`,
  });
};

export default function BookingPage({ loaderData }: Route.ComponentProps) {
  const { property, botCheck: botCheckConfig, lastDate, lastDateLabel } = loaderData;
  const { t } = useTranslation();
  return (
    <div id="top" className="mx-auto max-w-5xl scroll-mt-24 px-4 py-10 sm:px-6 lg:py-14">
      <BackLink to={`/property/${property.slug}`} label={t("forms.propertyBooking.back")} />
      <header className="mt-8 grid items-center gap-8 md:grid-cols-[1fr_320px]">
        <EstateHeader
          title={t("forms.propertyBooking.title", { name: property.name })}
          location={property.location}
          bedrooms={property.bedrooms}
        />
        {property.image && (
          <ResponsiveImage
            image={property.image}
            alt={property.name}
            sizes="(min-width: 768px) 320px, (min-width: 640px) calc(100vw - 48px), calc(100vw - 32px)"
            isEager
            fetchPriority="high"
            className="aspect-[4/3] w-full rounded-sm object-cover"
          />
        )}
      </header>

      <PropertyBookingForm
        property={property}
        botCheck={botCheckConfig}
        bookingHorizonMonths={loaderData.bookingHorizonMonths}
        serverToday={loaderData.today}
        unavailable={loaderData.unavailable}
        lastDate={lastDate}
        lastDateLabel={lastDateLabel}
        stay={loaderData.stay}
      />
    </div>
  );
}

export function ErrorBoundary() {
  const { t } = useTranslation();
  return (
    <EstateRouteError
      notFoundTitle={t("forms.propertyBooking.notFoundTitle")}
      notFoundText={t("forms.propertyBooking.notFoundText")}
      backLabel={t("forms.propertyBooking.notFoundBack")}
    />
  );
}

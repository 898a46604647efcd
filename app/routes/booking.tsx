import { useTranslation } from "react-i18next";
import { data, isRouteErrorResponse } from "react-router";
import { BedDouble, MapPin } from "lucide-react";
import { getProperty } from "../../domain/catalogue/read-properties.ts";
import { NotFoundError } from "../../domain/errors.ts";
import { lastBookableDate, utcToday } from "../../domain/requests/dates.ts";
import { formatDate } from "../../domain/requests/summary.ts";
import { translate } from "../../i18n/translate.ts";
import type { Route } from "./+types/booking";
import { depsContext, requestInfoContext } from "../context.ts";
import { pageMeta } from "../meta.ts";
import { BackLink, EstateRouteError } from "../components/back-link.tsx";
import { ResponsiveImage } from "../components/responsive-image.tsx";
import { formIsland } from "../components/forms/form-island.tsx";

/** The form's code loads when the guest engages with it or the page is idle (not with the page). */
const PropertyBookingForm = formIsland(
  () =>
    import("../components/forms/property-booking-form.tsx").then(
      (module) => module.PropertyBookingForm,
    ),
  "mt-10 min-h-screen",
);

export async function loader({ context, params }: Route.LoaderArgs) {
  await PropertyBookingForm.ready();
  const { language, botCheck, bookingHorizonMonths } = context.get(requestInfoContext);
  try {
    const property = await getProperty(context.get(depsContext), {
      idOrSlug: params.idOrSlug,
      language,
    });
    const lastDate = lastBookableDate(bookingHorizonMonths);
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
      today: utcToday(),
      lastDate,
      lastDateLabel: formatDate(lastDate, language),
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

/**
 * A client-side navigation waits for the form's code as well, so the page arrives whole (if
 * the code fails to load, the page still comes and says so where the form would be).
 */
export async function clientLoader({ serverLoader }: Route.ClientLoaderArgs) {
  const [data] = await Promise.all([serverLoader(), PropertyBookingForm.ready().catch(() => {})]);
  return data;
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
        <div className="flex flex-col gap-4">
          <h1 className="text-heritage text-5xl font-semibold sm:text-6xl">
            {t("forms.propertyBooking.title", { name: property.name })}
          </h1>
          <div className="text-muted flex flex-wrap items-center gap-x-6 gap-y-2">
            <p className="flex items-center gap-2">
              <MapPin aria-hidden className="text-gold size-4" />
              {property.location}
            </p>
            <p className="flex items-center gap-2">
              <BedDouble aria-hidden className="text-gold size-4" />
              {t("forms.propertyBooking.bedrooms", { count: property.bedrooms })}
            </p>
          </div>
        </div>
        {property.image && (
          <ResponsiveImage
            image={property.image}
            alt={property.name}
            sizes="(min-width: 768px) 320px, (min-width: 640px) calc(100vw - 48px), calc(100vw - 32px)"
            isEager
            isHighPriority
            className="aspect-[4/3] w-full rounded-sm object-cover"
          />
        )}
      </header>

      <PropertyBookingForm
        property={property}
        botCheck={botCheckConfig}
        bookingHorizonMonths={loaderData.bookingHorizonMonths}
        serverToday={loaderData.today}
        lastDate={lastDate}
        lastDateLabel={lastDateLabel}
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

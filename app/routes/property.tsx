import { useTranslation } from "react-i18next";
import { data, isRouteErrorResponse } from "react-router";
import { CalendarCheck } from "lucide-react";
import { NotFoundError } from "#domain/errors.ts";
import { SITE } from "#content/site.ts";
import { LANGUAGE_TAGS, type Language } from "#i18n/config.ts";
import { translate } from "#i18n/translate.ts";
import { mediaUrl } from "#domain/media/media-url.ts";
import type { PageHandle } from "../page-handle.ts";
import type { Route } from "./+types/property";
import { publicPagesContext, requestInfoContext } from "../context.ts";
import { localizedUrl, pageMeta } from "../meta.ts";
import { BackLink, EstateRouteError } from "../components/back-link.tsx";
import { EstateHeader } from "../components/estate-header.tsx";
import { MembersBadge } from "../components/members-badge.tsx";
import { hydrationIsland } from "../components/hydration-island.tsx";
import { PropertyGallery } from "../components/property-gallery.tsx";
import { ShareControl } from "../components/share-control.tsx";
import { ButtonLink } from "../components/ui/button.tsx";
import { formatMoney } from "#domain/pricing/money.ts";
import { shareImageOf } from "../share-image.ts";
import { availabilityWindowOf } from "../components/availability-calendar.tsx";
import { utcToday } from "#domain/requests/dates.ts";
import { readStayDates, staySearchOf } from "#domain/catalogue/catalogue-filter.schema.ts";

/** The largest paint is a photo: app/root.tsx leaves the display face unpreloaded. */
export const handle: PageHandle = { lcpIsImage: true };

// The page hydrates in parts (components/hydration-island.tsx): the header, price and links
// first, then the share buttons and the gallery's buttons once the page is idle, and the
// calendar, far below, as it nears the screen. Each is a short task of its own. The calendar's
// code is not in the page's first load: it is fetched once the page is idle (the server
// renders the calendar whole all the same).
const ShareIsland = hydrationIsland(ShareControl, "idle");
const GalleryIsland = hydrationIsland(PropertyGallery, "idle");
const CalendarIsland = hydrationIsland(
  {
    load: () =>
      import("../components/availability-calendar.tsx").then(
        (module) => module.AvailabilityCalendar,
      ),
  },
  "visible",
);

export async function loader({ context, params, request }: Route.LoaderArgs) {
  const { language, bookingHorizonMonths } = context.get(requestInfoContext);
  const pages = context.get(publicPagesContext);
  try {
    const property = await pages.getProperty({ idOrSlug: params.idOrSlug, language });
    // The server's today (UTC): the page is the same for every visitor, so it can be cached.
    const today = utcToday();
    const [unavailable, fromPrice] = await Promise.all([
      pages.readUnavailableNights({ propertyId: property.id, ...availabilityWindowOf(today) }),
      pages.readFromPrice(property.id),
    ]);
    return {
      property,
      today,
      unavailable,
      // Written here in the page's language: formatting money is the costliest step of the
      // page's hydration (the browser loads the locale's currency data for it).
      fromPrice: fromPrice
        ? translate(language, "pricing.fromNight", {
            price: formatMoney(fromPrice.nightly, fromPrice.currency, language, {
              wholeWhenRound: true,
            }),
          })
        : null,
      // The dates searched for on /castles, passed on to the booking form. As the link's query
      // string, made here: the page's code then needs none of the catalogue's schemas (zod).
      bookingSearch: staySearchOf(
        readStayDates(new URL(request.url).searchParams, bookingHorizonMonths),
      ),
      title: translate(language, "property.metaTitle", { brand: SITE.brand, name: property.name }),
      shareTitle: translate(language, "property.shareTitle", {
        brand: SITE.brand,
        name: property.name,
      }),
      imageAlt: translate(language, "property.imageAlt", {
        name: property.name,
        index: 1,
        count: property.images.length,
      }),
    };
  } catch (error) {
    if (error instanceof NotFoundError) {
      throw data({ title: translate(language, "property.notFound") }, { status: 404 });
    }
    throw error;
  }
}

export const meta: Route.MetaFunction = (args) => {
  if (!args.loaderData) {
    const title = isRouteErrorResponse(args.error)
      ? (args.error.data as { title?: string })?.title
      : undefined;
    return [{ title: title ?? SITE.brand }, { name: "robots", content: "noindex" }];
  }
  const { property, title, shareTitle, imageAlt } = args.loaderData;
  const first = property.images[0];
  // The slug form is canonical, whichever form the visitor used.
  return pageMeta(args, {
    title,
    shareTitle,
    description: property.summary,
    path: `/property/${property.slug}`,
    image: first ? shareImageOf(first, imageAlt) : undefined,
    type: "article",
    jsonLd: propertyJsonLd(property, args.matches),
  });
};

export default function PropertyPage({
  loaderData: { property, shareTitle, today, unavailable, bookingSearch, fromPrice },
}: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <article className="mx-auto max-w-7xl px-4 py-10 sm:px-6 lg:py-14">
      <PropertyBackLink />
      <header className="mt-8 flex flex-col gap-4">
        <EstateHeader
          title={property.name}
          location={property.location}
          bedrooms={property.bedrooms}
          badge={property.membersOnly && <MembersBadge />}
        />
        <div className="flex flex-wrap items-center justify-between gap-4">
          <ShareIsland title={shareTitle} description={property.summary} />
          <div className="flex flex-wrap items-center gap-x-6 gap-y-3">
            {fromPrice && (
              <p className="text-ink text-lg" data-testid="from-price">
                {fromPrice}
              </p>
            )}
            <ButtonLink to={`/booking/${property.slug}${bookingSearch}#top`} size="lg">
              <CalendarCheck aria-hidden className="size-4" />
              {t("property.book")}
            </ButtonLink>
          </div>
        </div>
      </header>

      <GalleryIsland name={property.name} images={property.images} />

      <div className="mt-12 grid gap-12 [contain-intrinsic-size:auto_40rem] [content-visibility:auto] lg:grid-cols-[2fr_1fr]">
        <div className="space-y-10">
          <section>
            <h2 className="text-heritage text-3xl font-semibold">{t("property.about")}</h2>
            <p className="mt-4 text-lg leading-relaxed">{property.summary}</p>
          </section>
          {property.historicalSignificance && (
            <section>
              <h2 className="text-heritage text-3xl font-semibold">{t("property.history")}</h2>
              <p className="text-muted mt-4 leading-relaxed">{property.historicalSignificance}</p>
            </section>
          )}
        </div>
        <div className="lg:border-gold/40 space-y-10 lg:border-l lg:pl-10">
          <FactList title={t("property.amenities")} items={property.amenities} />
          <FactList title={t("property.activities")} items={property.activities} />
        </div>
      </div>
      <CalendarIsland
        unavailable={unavailable}
        today={today}
        intro={t("availability.intro")}
        className={CALENDAR_CLASS}
        monthClassName="xl:w-[calc(25%-1.5rem)]"
      />
      <div className="border-gold/40 mt-14 border-t pt-8">
        <PropertyBackLink />
      </div>
    </article>
  );
}

/**
 * The calendar's box. Far below the first screen, and over a thousand elements: the browser lays
 * it out only as it nears the screen (`content-visibility`), with room kept for it until then.
 */
const CALENDAR_CLASS =
  "border-gold/40 bg-paper shadow-card mt-14 rounded-sm border p-6 [contain-intrinsic-size:auto_44rem] [content-visibility:auto] sm:p-10";

function FactList({ title, items }: { title: string; items: string[] }) {
  return (
    <section>
      <h2 className="text-heritage text-2xl font-semibold">{title}</h2>
      <ul className="mt-4 space-y-2">
        {items.map((item) => (
          <li key={item} className="flex gap-3 leading-relaxed">
            <span aria-hidden className="bg-gold mt-2.5 size-1.5 shrink-0 rotate-45" />
            {item}
          </li>
        ))}
      </ul>
    </section>
  );
}

function PropertyBackLink() {
  const { t } = useTranslation();
  return <BackLink to="/castles" label={t("property.back")} />;
}

export function ErrorBoundary() {
  const { t } = useTranslation();
  return (
    <EstateRouteError
      notFoundTitle={t("property.notFound")}
      notFoundText={t("property.notFoundText")}
      backLabel={t("property.back")}
    />
  );
}

/** schema.org data for search engines: the estate as a lodging business. */
function propertyJsonLd(
  property: Route.ComponentProps["loaderData"]["property"],
  matches: ReadonlyArray<{ id: string; loaderData?: unknown } | undefined>,
) {
  const root = matches.find((match) => match?.id === "root")?.loaderData as
    { publicUrl: string; language: Language } | undefined;
  const publicUrl = root?.publicUrl ?? "";
  return {
    "@context": "https://schema.org",
    "@type": "LodgingBusiness",
    name: property.name,
    description: property.summary,
    url: localizedUrl(publicUrl, `/property/${property.slug}`, root?.language ?? "en"),
    image: property.images
      .slice(0, 4)
      .map((image) => `${publicUrl}${mediaUrl(image.key, 1200, "jpg")}`),
    address: { "@type": "PostalAddress", addressLocality: property.location },
    numberOfRooms: property.bedrooms,
    maximumAttendeeCapacity: property.guestCapacity,
    amenityFeature: property.amenities.map((name) => ({
      "@type": "LocationFeatureSpecification",
      name,
      value: true,
    })),
    inLanguage: LANGUAGE_TAGS[root?.language ?? "en"],
  };
}

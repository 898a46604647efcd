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
import { PropertyGallery } from "../components/property-gallery.tsx";
import { ShareControl } from "../components/share-control.tsx";
import { ButtonLink } from "../components/ui/button.tsx";
import { formatMoney } from "#domain/pricing/money.ts";
import { shareImageOf } from "../share-image.ts";
import {
  AvailabilityCalendar,
  availabilityWindowOf,
} from "../components/availability-calendar.tsx";
import { utcToday } from "#domain/requests/dates.ts";
import { readStayDates, staySearchOf } from "#domain/catalogue/catalogue-filter.schema.ts";

/** The largest paint is a photo: app/root.tsx leaves the display face unpreloaded. */
export const handle: PageHandle = { lcpIsImage: true };

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
      fromPrice,
      // The dates searched for on /castles, passed on to the booking form.
      stay: readStayDates(new URL(request.url).searchParams, bookingHorizonMonths),
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
  loaderData: { property, shareTitle, today, unavailable, stay, fromPrice },
}: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
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
          <ShareControl title={shareTitle} description={property.summary} />
          <div className="flex flex-wrap items-center gap-x-6 gap-y-3">
            {fromPrice && (
              <p className="text-ink text-lg" data-testid="from-price">
                {t("pricing.fromNight", {
                  price: formatMoney(fromPrice.nightly, fromPrice.currency, i18n.language, {
                    wholeWhenRound: true,
                  }),
                })}
              </p>
            )}
            <ButtonLink to={`/booking/${property.slug}${staySearchOf(stay)}#top`} size="lg">
              <CalendarCheck aria-hidden className="size-4" />
              {t("property.book")}
            </ButtonLink>
          </div>
        </div>
      </header>

      <PropertyGallery name={property.name} images={property.images} />

      <div className="mt-12 grid gap-12 lg:grid-cols-[2fr_1fr]">
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
      <AvailabilityCalendar
        unavailable={unavailable}
        today={today}
        intro={t("availability.intro")}
        className="border-gold/40 bg-paper shadow-card mt-14 rounded-sm border p-6 sm:p-10"
        monthClassName="xl:w-[calc(25%-1.5rem)]"
      />
      <div className="border-gold/40 mt-14 border-t pt-8">
        <PropertyBackLink />
      </div>
    </article>
  );
}

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

import { useTranslation } from "react-i18next";
import { Link, useLocation, useNavigation } from "react-router";
import { ArrowLeft, ArrowRight } from "lucide-react";
import {
  CATALOGUE_PAGE_SIZE,
  filterInputFromSearchParams,
  hasFilters,
  readCatalogueFilter,
  staySearchOf,
} from "#domain/catalogue/catalogue-filter.schema.ts";
import { earliestBookableDate, lastBookableDate } from "#domain/requests/dates.ts";
import { toPropertyCard } from "#domain/catalogue/read-properties.ts";
import { translate } from "#i18n/translate.ts";
import type { Route } from "./+types/castles";
import { publicPagesContext, requestInfoContext } from "../context.ts";
import { pageMeta } from "../meta.ts";
import { CatalogueFilters } from "../components/catalogue-filters.tsx";
import { PropertyCard } from "../components/property-card.tsx";
import { ButtonLink } from "../components/ui/button.tsx";

/** Cards in the first rows get their first image eagerly (3 columns on large screens). */
const ABOVE_FOLD_CARDS = 3;

export async function loader({ context, request }: Route.LoaderArgs) {
  const { language, bookingHorizonMonths } = context.get(requestInfoContext);
  // A hand-edited URL with a bad value still shows the catalogue, with a notice; dates that
  // break their rules are left out with an error under their fields, the other filters kept.
  const { filter, dates, dateErrors, hasInvalidFilter } = readCatalogueFilter(
    filterInputFromSearchParams(new URL(request.url).searchParams),
    bookingHorizonMonths,
  );
  // One page of 24 whatever the URL's `limit` (that is for API clients).
  const page = await context.get(publicPagesContext).searchProperties({
    language,
    filter,
    pageSize: CATALOGUE_PAGE_SIZE,
  });
  const properties = page.properties.map((property) => toPropertyCard(property));
  return {
    properties,
    filter,
    dates,
    dateErrors,
    earliestDate: earliestBookableDate(),
    lastDate: lastBookableDate(bookingHorizonMonths),
    isFiltered: hasFilters(filter),
    // The searched dates as the query string each card's link keeps, made here: the page's code
    // then needs none of the catalogue's schemas (zod) in the browser.
    staySearch: staySearchOf(
      filter.checkIn && filter.checkOut
        ? { checkIn: filter.checkIn, checkOut: filter.checkOut }
        : null,
    ),
    hasInvalidFilter,
    total: page.total,
    isTotalCapped: page.isTotalCapped,
    nextAfter: page.nextAfter,
    previousBefore: page.previousBefore,
    language,
    title: translate(language, "meta.castlesTitle"),
    description: translate(language, "meta.castlesDescription", {
      // Past the cap, "1,000+" (a string count is interpolated without plural forms).
      count: page.isTotalCapped
        ? `${new Intl.NumberFormat(language).format(page.total)}+`
        : page.total,
    }),
  };
}

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: args.loaderData?.title ?? "",
    description: args.loaderData?.description ?? "",
  });

export default function Castles({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const location = useLocation();
  const isReloading = navigation.state === "loading" && navigation.location.pathname === "/castles";
  const { properties, filter, total, isFiltered, isTotalCapped } = loaderData;
  const capped = { total: new Intl.NumberFormat(loaderData.language).format(total) };
  return (
    <div className="mx-auto max-w-7xl px-4 py-12 sm:px-6 lg:py-16">
      <CastlesHeading />
      <CalloutCard />
      {/* Remounted when the URL changes, so its fields always show the URL's filters. */}
      <CatalogueFilters
        key={location.search}
        filter={filter}
        dates={loaderData.dates}
        dateErrors={loaderData.dateErrors}
        earliestDate={loaderData.earliestDate}
        lastDate={loaderData.lastDate}
      />
      {loaderData.hasInvalidFilter && (
        <p role="alert" className="text-burgundy mt-4 text-sm">
          {t("filters.invalid")}
        </p>
      )}
      <p role="status" className="text-muted mt-8 text-sm" data-testid="results-status">
        {isReloading
          ? t("castles.loading")
          : isTotalCapped
            ? t(isFiltered ? "filters.resultsCapped" : "castles.countCapped", capped)
            : isFiltered
              ? t("filters.results", { count: total })
              : t("castles.count", { count: total })}
      </p>
      {properties.length === 0 ? (
        <div
          className="border-gold/40 bg-paper mt-6 rounded-sm border p-8 text-center"
          data-testid="no-results"
        >
          <p className="font-display text-heritage text-2xl">{t("filters.empty")}</p>
          <p className="text-muted mt-2">
            {t(filter.checkIn ? "catalogueDates.emptyHint" : "filters.emptyHint")}
          </p>
          <Link
            to="/castles"
            className="text-heritage mt-4 inline-block underline underline-offset-4"
          >
            {t("filters.clear")}
          </Link>
        </div>
      ) : (
        <ul
          className="mt-6 grid grid-cols-1 gap-8 md:grid-cols-2 lg:grid-cols-3"
          aria-busy={isReloading}
        >
          {properties.map((property, index) => (
            <li key={property.id}>
              <PropertyCard
                property={property}
                isAboveFold={index < ABOVE_FOLD_CARDS}
                staySearch={loaderData.staySearch}
              />
            </li>
          ))}
        </ul>
      )}
      <Pagination nextAfter={loaderData.nextAfter} previousBefore={loaderData.previousBefore} />
    </div>
  );
}

/** Keyset page links that keep the filters of the current URL. */
function Pagination({
  nextAfter,
  previousBefore,
}: {
  nextAfter: string | null;
  previousBefore: string | null;
}) {
  const { t } = useTranslation();
  const location = useLocation();
  if (nextAfter === null && previousBefore === null) return null;
  const hrefWith = (cursor: "after" | "before", value: string) => {
    const params = new URLSearchParams(location.search);
    params.delete("after");
    params.delete("before");
    params.set(cursor, value);
    return `/castles?${params}`;
  };
  const linkClass =
    "inline-flex min-h-11 items-center gap-2 rounded-sm border border-heritage px-5 text-sm text-heritage hover:bg-heritage hover:text-ivory";
  return (
    <nav aria-label={t("filters.pagination")} className="mt-12 flex justify-between gap-4">
      {previousBefore !== null ? (
        <Link to={hrefWith("before", previousBefore)} className={linkClass} rel="prev">
          <ArrowLeft aria-hidden className="size-4" />
          {t("filters.previous")}
        </Link>
      ) : (
        <span />
      )}
      {nextAfter !== null && (
        <Link to={hrefWith("after", nextAfter)} className={linkClass} rel="next">
          {t("filters.next")}
          <ArrowRight aria-hidden className="size-4" />
        </Link>
      )}
    </nav>
  );
}

function CastlesHeading() {
  const { t } = useTranslation();
  return (
    <header className="max-w-3xl">
      <h1 className="text-heritage text-5xl font-semibold sm:text-6xl">{t("castles.title")}</h1>
      <div aria-hidden className="bg-gold mt-5 h-px w-24" />
      <p className="text-muted mt-5 text-lg leading-relaxed">{t("castles.intro")}</p>
    </header>
  );
}

function CalloutCard() {
  const { t } = useTranslation();
  return (
    <aside className="border-gold/50 bg-paper shadow-card mt-10 flex flex-col gap-6 rounded-sm border p-6 sm:p-8 md:flex-row md:items-center md:justify-between">
      <div className="max-w-2xl">
        <h2 className="text-heritage text-3xl font-semibold">{t("castles.calloutTitle")}</h2>
        <p className="text-muted mt-2 leading-relaxed">{t("castles.calloutText")}</p>
      </div>
      <ButtonLink to="/booking-request" size="lg" className="shrink-0">
        {t("castles.calloutButton")}
        <ArrowRight aria-hidden className="size-4" />
      </ButtonLink>
    </aside>
  );
}

/** The list could not be read: the spec's message, inside the page's own frame. */
export function ErrorBoundary() {
  const { t } = useTranslation();
  return (
    <div className="mx-auto max-w-7xl px-4 py-12 sm:px-6 lg:py-16">
      <CastlesHeading />
      <CalloutCard />
      <p
        role="alert"
        className="border-burgundy/40 bg-paper text-burgundy mt-10 rounded-sm border p-6"
      >
        {t("castles.failed")}
      </p>
    </div>
  );
}

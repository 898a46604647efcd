import { useTranslation } from "react-i18next";
import { useNavigation } from "react-router";
import { ArrowRight } from "lucide-react";
import { listProperties } from "../../domain/catalogue/read-properties.ts";
import { translate } from "../../i18n/translate.ts";
import type { Route } from "./+types/castles";
import { depsContext, requestInfoContext } from "../context.ts";
import { pageMeta } from "../meta.ts";
import { PropertyCard } from "../components/property-card.tsx";
import { ButtonLink } from "../components/ui/button.tsx";

/** Cards in the first rows get their first image eagerly (3 columns on large screens). */
const ABOVE_FOLD_CARDS = 3;

export async function loader({ context }: Route.LoaderArgs) {
  const { language } = context.get(requestInfoContext);
  const all = await listProperties(context.get(depsContext), { language });
  // Ship only what a card shows: the page's data travels twice (HTML and hydration).
  const properties = all.map(
    ({ id, slug, name, location, bedrooms, summary, membersOnly, images }) => ({
      id,
      slug,
      name,
      location,
      bedrooms,
      summary,
      membersOnly,
      images,
    }),
  );
  return {
    properties,
    title: translate(language, "meta.castlesTitle"),
    description: translate(language, "meta.castlesDescription", { count: properties.length }),
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
  const isReloading = navigation.state === "loading" && navigation.location.pathname === "/castles";
  return (
    <div className="mx-auto max-w-7xl px-4 py-12 sm:px-6 lg:py-16">
      <CastlesHeading />
      <CalloutCard />
      <p role="status" className={isReloading ? "text-muted mt-8 text-center" : "sr-only"}>
        {isReloading
          ? t("castles.loading")
          : t("castles.count", { count: loaderData.properties.length })}
      </p>
      <ul
        className="mt-10 grid grid-cols-1 gap-8 md:grid-cols-2 lg:grid-cols-3"
        aria-busy={isReloading}
      >
        {loaderData.properties.map((property, index) => (
          <li key={property.id}>
            <PropertyCard property={property} isAboveFold={index < ABOVE_FOLD_CARDS} />
          </li>
        ))}
      </ul>
    </div>
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

import type { CSSProperties } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import {
  Bot,
  Building2,
  Castle,
  CreditCard,
  Crown,
  Gamepad2,
  Gem,
  Glasses,
  KeyRound,
  Landmark,
  PartyPopper,
  Plane,
  UtensilsCrossed,
  type LucideIcon,
} from "lucide-react";
import { HOME, localize } from "#content/site-content.ts";
import { SITE } from "#content/site.ts";
import { toPropertyCard } from "#domain/catalogue/read-properties.ts";
import { tokenomicsFigures } from "#domain/tokenomics/figures.ts";
import { translate } from "#i18n/translate.ts";
import type { PageHandle } from "../page-handle.ts";
import type { Route } from "./+types/home";
import { publicPagesContext, requestInfoContext } from "../context.ts";
import { pageMeta } from "../meta.ts";
import { hydrationIsland } from "../components/hydration-island.tsx";
import { PropertyCard } from "../components/property-card.tsx";
import { ResponsiveImage } from "../components/responsive-image.tsx";
import { ButtonLink } from "../components/ui/button.tsx";

/** The four featured estates, by name. */
const FEATURED_SLUGS = ["venetian-countryside", "padua", "carlton-towers", "gordon-castle"];

const CARD_ICONS: Record<string, LucideIcon> = {
  "buy-access": KeyRound,
  "exclusive-perks": Gem,
  "travel-lifestyle": Plane,
  "ai-concierge": Bot,
  "physical-properties": Castle,
  "vip-membership": Crown,
  "payment-card": CreditCard,
  "food-beverage": UtensilsCrossed,
  events: PartyPopper,
  metaverse: Glasses,
  gaming: Gamepad2,
  "virtual-museum": Landmark,
};

/** The largest paint is a photo: app/root.tsx leaves the display face unpreloaded. */
export const handle: PageHandle = { lcpIsImage: true };

export async function loader({ context }: Route.LoaderArgs) {
  const { language } = context.get(requestInfoContext);
  const pages = context.get(publicPagesContext);
  const [featuredProperties, heroImage] = await Promise.all([
    pages.listPropertiesBySlug({ slugs: FEATURED_SLUGS, language }),
    pages.getFeaturedImage(),
  ]);
  // A featured card cycles through four images at most: the rest stay behind.
  const featured = featuredProperties.map((property) => toPropertyCard(property, 4));
  const text = (value: Parameters<typeof localize>[0]) => localize(value, language);
  const card = (c: (typeof HOME.tokenUtility.cards)[number]) => ({
    key: c.key,
    title: text(c.title),
    description: text(c.description),
  });
  return {
    heroImage,
    featured,
    content: {
      hero: { title: text(HOME.hero.title), subtitle: text(HOME.hero.subtitle) },
      featured: { title: text(HOME.featured.title), intro: text(HOME.featured.intro) },
      tokenUtility: {
        title: text(HOME.tokenUtility.title),
        intro: text(HOME.tokenUtility.intro),
        cards: HOME.tokenUtility.cards.map(card),
      },
      memberBenefits: {
        title: text(HOME.memberBenefits.title),
        intro: text(HOME.memberBenefits.intro),
        cards: HOME.memberBenefits.cards.map(card),
      },
    },
    supply: tokenomicsFigures(language).totalSupply,
    title: translate(language, "meta.defaultTitle"),
    description: translate(language, "meta.defaultDescription"),
  };
}

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: args.loaderData?.title ?? SITE.brand,
    description: args.loaderData?.description ?? "",
  });

type Loaded = Route.ComponentProps["loaderData"];

export default function Home({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { content } = loaderData;
  return (
    <>
      <section className="bg-heritage relative isolate flex min-h-[78vh] items-end overflow-hidden">
        {loaderData.heroImage && (
          <ResponsiveImage
            image={loaderData.heroImage}
            alt=""
            sizes="100vw"
            isEager
            fetchPriority="high"
            pictureClassName="absolute inset-0 -z-10"
            className="size-full object-cover"
          />
        )}
        <div
          aria-hidden
          className="from-ink/85 via-ink/45 to-ink/10 absolute inset-0 -z-10 bg-gradient-to-t"
        />
        <div className="mx-auto w-full max-w-7xl px-6 pt-32 pb-20">
          <img src="/brand/crest.svg" alt={SITE.brand} width={72} height={72} className="size-18" />
          <h1 className="text-ivory mt-6 max-w-3xl text-5xl leading-tight font-semibold sm:text-7xl">
            {content.hero.title}
          </h1>
          <p className="text-ivory/90 mt-6 max-w-2xl text-lg leading-relaxed">
            {content.hero.subtitle}
          </p>
          <div className="mt-10 flex flex-wrap gap-4">
            <ButtonLink to="/castles" variant="light" size="lg">
              {t("home.bookStay")}
            </ButtonLink>
            <ButtonLink to="/tokensale" size="lg" variant="onDark">
              {t("home.joinUs")}
            </ButtonLink>
            <ButtonLink to="/whitepaper" variant="onDark" size="lg">
              {t("home.learnMore")}
              {/* Screen readers (and crawlers) hear where the link leads. */}
              <span className="sr-only">{t("home.learnMoreContext")}</span>
            </ButtonLink>
          </div>
        </div>
      </section>
      <FeaturedIsland featured={loaderData.featured} text={content.featured} />
      <CardSectionIsland
        id="token-utility"
        section={content.tokenUtility}
        columns="lg:grid-cols-4"
        note={t("home.supplyFact", { supply: loaderData.supply })}
      />
      <CardSectionIsland
        id="member-benefits"
        section={content.memberBenefits}
        columns="sm:grid-cols-2 lg:grid-cols-4"
      />
    </>
  );
}

// Below the hero, the page hydrates in parts (components/hydration-island.tsx), each as it nears
// the screen: the featured estates' cards (their images change on hover), then the two card
// sections. The hero and the header are live first, in a shorter task.
const FeaturedIsland = hydrationIsland(FeaturedSection, "visible");
const CardSectionIsland = hydrationIsland(CardSection, "visible");

/** The featured grid (max-w-7xl, px-4 then px-6, gap-8; 1, 2 from 640 px, 4 from 1024 px). */
const FEATURED_CARD_SIZES =
  "(min-width: 1280px) 284px, (min-width: 1024px) calc((100vw - 144px) / 4), (min-width: 640px) calc((100vw - 80px) / 2), calc(100vw - 32px)";

function FeaturedSection({
  featured,
  text,
}: {
  featured: Loaded["featured"];
  text: Loaded["content"]["featured"];
}) {
  const { t } = useTranslation();
  return (
    <section aria-labelledby="featured-title" className="mx-auto max-w-7xl px-4 py-20 sm:px-6">
      <div className="flex flex-wrap items-end justify-between gap-6">
        <div className="max-w-2xl">
          <h2 id="featured-title" className="text-heritage text-4xl font-semibold sm:text-5xl">
            {text.title}
          </h2>
          <p className="text-muted mt-4 text-lg">{text.intro}</p>
        </div>
        <ButtonLink to="/castles" variant="outline">
          {t("home.viewAll")}
        </ButtonLink>
      </div>
      {featured.length === 0 ? (
        // The home list shows the loading text when nothing matches.
        <p role="status" className="text-muted mt-10">
          {t("home.loading")}
        </p>
      ) : (
        <ul
          className="mt-10 grid grid-cols-1 gap-8 sm:grid-cols-2 lg:grid-cols-4"
          data-testid="featured"
        >
          {featured.map((property, index) => (
            <li
              key={property.id}
              className="stagger-in"
              style={{ "--stagger-index": index } as CSSProperties}
            >
              <PropertyCard property={property} isAboveFold={false} sizes={FEATURED_CARD_SIZES} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function CardSection({
  id,
  section,
  columns,
  note,
}: {
  id: string;
  section: Loaded["content"]["tokenUtility"];
  columns: string;
  /** A line under the section's introduction. */
  note?: string;
}) {
  return (
    <section aria-labelledby={`${id}-title`} className="border-gold/30 bg-paper/60 border-t">
      <div className="mx-auto max-w-7xl px-4 py-20 sm:px-6">
        <h2 id={`${id}-title`} className="text-heritage text-4xl font-semibold sm:text-5xl">
          {section.title}
        </h2>
        <p className="text-muted mt-4 max-w-2xl text-lg">{section.intro}</p>
        {note && <p className="text-heritage mt-3 text-sm font-medium">{note}</p>}
        <ul className={`mt-10 grid grid-cols-1 gap-6 ${columns}`} data-testid={id}>
          {section.cards.map((card, index) => {
            const Icon = CARD_ICONS[card.key] ?? Building2;
            return (
              <li
                key={card.key}
                className="stagger-in border-gold/30 bg-paper shadow-card rounded-sm border p-6"
                style={{ "--stagger-index": index } as CSSProperties}
              >
                <Icon aria-hidden className="text-gold size-7" />
                <h3 className="text-heritage mt-4 text-2xl font-semibold">{card.title}</h3>
                <p className="text-muted mt-2 leading-relaxed">{card.description}</p>
              </li>
            );
          })}
        </ul>
      </div>
    </section>
  );
}

/** The featured list could not be read: the spec's message, with the rest of the way on. */
export function ErrorBoundary() {
  const { t } = useTranslation();
  return (
    <section className="mx-auto max-w-3xl px-6 py-24 text-center">
      <p role="alert" className="text-burgundy text-lg">
        {t("home.error")}
      </p>
      <Link to="/castles" className="text-heritage mt-6 inline-block underline underline-offset-4">
        {t("home.viewAll")}
      </Link>
    </section>
  );
}

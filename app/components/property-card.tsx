import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { BedDouble, MapPin } from "lucide-react";
import type { PropertyCardData } from "#domain/catalogue/read-properties.ts";
import { MembersBadge } from "./members-badge.tsx";
import { ResponsiveImage } from "./responsive-image.tsx";
import { cn } from "./ui/cn.ts";

/** A hovered card shows its next image every 800 ms (with a 0.4 s fade). */
export const CARD_IMAGE_INTERVAL_MS = 800;
/**
 * How wide a card's image is drawn in the catalogue's grid (max-w-7xl, px-4 then px-6 from
 * 640 px, gap-8; one column, two from 768 px, three from 1024 px), for the `sizes` attribute.
 */
export const CATALOGUE_CARD_SIZES =
  "(min-width: 1280px) 390px, (min-width: 1024px) calc((100vw - 112px) / 3), (min-width: 768px) calc((100vw - 80px) / 2), (min-width: 640px) calc(100vw - 48px), calc(100vw - 32px)";

/**
 * A catalogue card. Hovering (or focusing) it cycles through the estate's images; leaving
 * returns to the first. Only the first image loads until the card is first hovered.
 */
export function PropertyCard({
  property,
  isAboveFold,
  sizes = CATALOGUE_CARD_SIZES,
  staySearch = "",
}: {
  property: PropertyCardData;
  isAboveFold: boolean;
  /** The image's `sizes`: how wide the grid holding the card draws it. */
  sizes?: string;
  /**
   * The dates the guest searched for, as the query string the estate's page keeps for its
   * booking form (`staySearchOf`). A string rather than the dates, so the card does not bring
   * the catalogue's schemas (and zod) to pages that show cards without a search.
   */
  staySearch?: string;
}) {
  const { t } = useTranslation();
  const [active, setActive] = useState(0);
  const [isHovered, setHovered] = useState(false);
  const [hasHovered, setHasHovered] = useState(false);
  const imageCount = property.images.length;
  const article = useRef<HTMLElement>(null);

  // A pointer that came over the card before the page hydrated sent its `mouseenter` to no one:
  // the card starts cycling as if it had just arrived.
  useEffect(() => {
    if (!article.current?.matches(":hover")) return;
    setHovered(true);
    setHasHovered(true);
  }, []);

  useEffect(() => {
    if (!isHovered || imageCount < 2) return;
    if (window.matchMedia("(prefers-reduced-motion: reduce)").matches) return;
    const timer = setInterval(
      () => setActive((index) => (index + 1) % imageCount),
      CARD_IMAGE_INTERVAL_MS,
    );
    return () => clearInterval(timer);
  }, [isHovered, imageCount]);

  const enter = () => {
    setHovered(true);
    setHasHovered(true);
  };
  const leave = () => {
    setHovered(false);
    setActive(0);
  };

  return (
    <article
      ref={article}
      className="group bg-paper shadow-card has-[a:focus-visible]:outline-gold relative flex h-full flex-col overflow-hidden rounded-sm transition-shadow hover:shadow-lg has-[a:focus-visible]:outline-2 has-[a:focus-visible]:outline-offset-2"
      onMouseEnter={enter}
      onMouseLeave={leave}
      onFocus={enter}
      onBlur={leave}
      data-testid="property-card"
    >
      <div
        className="bg-heritage/10 relative aspect-[4/3] overflow-hidden"
        data-testid="card-gallery"
        data-active-image={active}
      >
        {property.images.map((image, index) =>
          index === 0 || hasHovered ? (
            <ResponsiveImage
              key={image.key}
              image={image}
              alt={
                index === 0
                  ? t("property.imageAlt", { name: property.name, index: 1, count: imageCount })
                  : ""
              }
              sizes={sizes}
              isEager={isAboveFold && index === 0}
              fetchPriority={isAboveFold && index === 0 ? "high" : undefined}
              className={cn(
                "absolute inset-0 size-full object-cover transition-opacity duration-[400ms] ease-in-out",
                index === active ? "opacity-100" : "opacity-0",
              )}
            />
          ) : null,
        )}
        {property.membersOnly && <MembersBadge className="absolute top-3 left-3 shadow" />}
      </div>
      <div className="flex flex-1 flex-col gap-2 p-5">
        <p className="text-muted flex items-center gap-1.5 text-xs font-medium tracking-[0.14em] uppercase">
          <MapPin aria-hidden className="text-gold size-3.5 shrink-0" />
          {property.location}
        </p>
        <h2 className="text-heritage text-2xl leading-tight font-semibold">
          <Link
            to={`/property/${property.id}${staySearch}`}
            className="after:absolute after:inset-0 after:content-[''] focus-visible:outline-none"
          >
            {property.name}
          </Link>
        </h2>
        <p className="text-ink flex items-center gap-1.5 text-sm">
          <BedDouble aria-hidden className="text-gold size-4" />
          {t("castles.bedrooms", { count: property.bedrooms })}
        </p>
        <p className="text-muted line-clamp-3 text-sm leading-relaxed" data-testid="card-summary">
          {property.summary}
        </p>
      </div>
    </article>
  );
}

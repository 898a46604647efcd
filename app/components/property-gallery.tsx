import { lazy, Suspense, useState } from "react";
import { useTranslation } from "react-i18next";
import { Images } from "lucide-react";
import type { PropertyImage } from "#domain/catalogue/property.ts";
import { ResponsiveImage } from "./responsive-image.tsx";
import { Button } from "./ui/button.tsx";

// The dialogs' code loads with the first click, not with the page.
const GalleryDialogs = lazy(() => import("./property-gallery-dialogs.tsx"));

/** The page shows 4 images; the first 2 load eagerly. */
const GRID_IMAGES = 4;
const EAGER_IMAGES = 2;
/** The grid (max-w-7xl, px-4 then px-6, gap-3; two columns from 640 px) for `sizes`. */
const GRID_SIZES =
  "(min-width: 1280px) 610px, (min-width: 640px) calc((100vw - 60px) / 2), calc(100vw - 32px)";

/**
 * The property's image grid, the gallery dialog listing every image with its number, and the
 * full-size dialog that a click on the image closes.
 */
export function PropertyGallery({ name, images }: { name: string; images: PropertyImage[] }) {
  const { t } = useTranslation();
  const [isGalleryOpen, setGalleryOpen] = useState(false);
  const [fullSize, setFullSize] = useState<number | null>(null);
  const alt = (index: number) =>
    t("property.imageAlt", { name, index: index + 1, count: images.length });

  return (
    <section aria-label={t("property.gallery", { name })} className="mt-8">
      <ul className="grid grid-cols-1 gap-3 sm:grid-cols-2" data-testid="property-images">
        {images.slice(0, GRID_IMAGES).map((image, index) => (
          <li key={image.key} className="bg-heritage/10 aspect-[4/3] overflow-hidden rounded-sm">
            <button
              type="button"
              className="block size-full cursor-zoom-in"
              onClick={() => setGalleryOpen(true)}
              aria-label={t("property.openGallery", { label: alt(index) })}
            >
              <ResponsiveImage
                image={image}
                alt={alt(index)}
                sizes={GRID_SIZES}
                isEager={index < EAGER_IMAGES}
                // The second is beside the first on a wide screen, below it on a phone: it waits
                // for the first and the rest of the first screen.
                fetchPriority={index === 0 ? "high" : index < EAGER_IMAGES ? "low" : undefined}
                className="size-full object-cover transition-transform duration-500 hover:scale-[1.02]"
              />
            </button>
          </li>
        ))}
      </ul>
      {images.length > GRID_IMAGES && (
        <Button variant="outline" className="mt-4" onClick={() => setGalleryOpen(true)}>
          <Images aria-hidden className="size-4" />
          {t("property.viewAll", { total: images.length })}
        </Button>
      )}

      {(isGalleryOpen || fullSize !== null) && (
        <Suspense fallback={null}>
          <GalleryDialogs
            name={name}
            images={images}
            isGalleryOpen={isGalleryOpen}
            onGalleryOpenChange={setGalleryOpen}
            fullSize={fullSize}
            onFullSizeChange={setFullSize}
          />
        </Suspense>
      )}
    </section>
  );
}

import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Images } from "lucide-react";
import type { PropertyImage } from "../../domain/catalogue/property.ts";
import { ResponsiveImage } from "./responsive-image.tsx";
import { Button } from "./ui/button.tsx";
import { Dialog, DialogContent, DialogDescription, DialogTitle } from "./ui/dialog.tsx";

/** Spec point 9: the page shows 4 images; the first 2 load eagerly. */
const GRID_IMAGES = 4;
const EAGER_IMAGES = 2;

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
                sizes="(min-width: 1280px) 620px, (min-width: 640px) 48vw, 92vw"
                isEager={index < EAGER_IMAGES}
                isHighPriority={index === 0}
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

      <Dialog open={isGalleryOpen} onOpenChange={setGalleryOpen}>
        <DialogContent
          closeLabel={t("property.closeDialog")}
          className="max-w-6xl"
          data-testid="gallery-dialog"
        >
          <DialogTitle className="text-heritage pr-12 text-3xl font-semibold">{name}</DialogTitle>
          <DialogDescription className="text-muted mt-1 text-sm">
            {t("property.galleryCount", { count: images.length })}
          </DialogDescription>
          <ol className="mt-6 grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {images.map((image, index) => (
              <li key={image.key}>
                <figure>
                  <button
                    type="button"
                    className="bg-heritage/10 block aspect-[4/3] w-full cursor-zoom-in overflow-hidden rounded-sm"
                    onClick={() => setFullSize(index)}
                    aria-label={t("property.openFullSize", { label: alt(index) })}
                  >
                    <ResponsiveImage
                      image={image}
                      alt={alt(index)}
                      sizes="(min-width: 1024px) 360px, (min-width: 640px) 45vw, 90vw"
                      className="size-full object-cover"
                    />
                  </button>
                  <figcaption className="text-muted mt-2 text-sm">
                    {t("property.imageNumber", { index: index + 1, count: images.length })}
                  </figcaption>
                </figure>
              </li>
            ))}
          </ol>
        </DialogContent>
      </Dialog>

      <Dialog open={fullSize !== null} onOpenChange={(open) => !open && setFullSize(null)}>
        <DialogContent
          closeLabel={t("property.closeDialog")}
          className="bg-ink max-w-[min(96vw,1600px)] p-2"
          data-testid="fullsize-dialog"
        >
          <DialogTitle className="sr-only">{fullSize !== null ? alt(fullSize) : name}</DialogTitle>
          <DialogDescription className="sr-only">{t("property.fullSizeHint")}</DialogDescription>
          {fullSize !== null && images[fullSize] && (
            <button
              type="button"
              className="block w-full cursor-zoom-out"
              onClick={() => setFullSize(null)}
              aria-label={t("property.closeFullSize")}
            >
              <ResponsiveImage
                image={images[fullSize]}
                alt={alt(fullSize)}
                sizes="96vw"
                isEager
                className="mx-auto max-h-[86vh] w-auto object-contain"
              />
            </button>
          )}
        </DialogContent>
      </Dialog>
    </section>
  );
}

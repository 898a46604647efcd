import { useTranslation } from "react-i18next";
import type { PropertyImage } from "#domain/catalogue/property.ts";
import { ResponsiveImage } from "./responsive-image.tsx";
import { Dialog, DialogContent, DialogDescription, DialogTitle } from "./ui/dialog.tsx";

interface GalleryDialogsProps {
  name: string;
  images: PropertyImage[];
  isGalleryOpen: boolean;
  onGalleryOpenChange: (open: boolean) => void;
  /** Index of the image shown full size, or null. */
  fullSize: number | null;
  onFullSizeChange: (index: number | null) => void;
}

/**
 * The gallery dialog listing every image with its number, and the full-size dialog that a
 * click on the image closes. Keyboard-complete through Radix: focus trapped, Esc closes,
 * focus returns.
 */
export default function GalleryDialogs({
  name,
  images,
  isGalleryOpen,
  onGalleryOpenChange,
  fullSize,
  onFullSizeChange,
}: GalleryDialogsProps) {
  const { t } = useTranslation();
  const alt = (index: number) =>
    t("property.imageAlt", { name, index: index + 1, count: images.length });
  return (
    <>
      <Dialog open={isGalleryOpen} onOpenChange={onGalleryOpenChange}>
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
                    onClick={() => onFullSizeChange(index)}
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

      <Dialog open={fullSize !== null} onOpenChange={(open) => !open && onFullSizeChange(null)}>
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
              onClick={() => onFullSizeChange(null)}
              aria-label={t("property.closeFullSize")}
            >
              <ResponsiveImage
                image={images[fullSize]}
                alt={alt(fullSize)}
                sizes="min(96vw, 115vh, 1600px)"
                isEager
                className="mx-auto max-h-[86vh] w-auto object-contain"
              />
            </button>
          )}
        </DialogContent>
      </Dialog>
    </>
  );
}

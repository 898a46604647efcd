import { useEffect, useRef, useState } from "react";
import { preload } from "react-dom";
import type { PropertyImage } from "#domain/catalogue/property.ts";
import { mediaSrcSet, mediaUrl } from "#domain/media/media-url.ts";

interface ResponsiveImageProps {
  image: PropertyImage;
  alt: string;
  /** The `sizes` attribute: how wide the image is drawn at each breakpoint. */
  sizes: string;
  isEager?: boolean;
  /**
   * `high`: the image the page fetches first (its largest paint), announced in the head too;
   * `low`: an eager image that should wait for everything else the first screen needs.
   */
  fetchPriority?: "high" | "low";
  className?: string;
  /** Classes of the `<picture>` wrapper. */
  pictureClassName?: string;
}

/**
 * An image from the media route in AVIF, WebP or JPEG at the width the browser needs, with
 * its intrinsic size set so nothing shifts while it loads. An image that fails is hidden.
 */
export function ResponsiveImage({
  image,
  alt,
  sizes,
  isEager = false,
  fetchPriority,
  className,
  pictureClassName,
}: ResponsiveImageProps) {
  // The image a page fetches first is announced at the top of the head, before the route's
  // modules, in the format the <picture> below picks where AVIF is supported (a browser without
  // it skips the hint by its type and finds the image as before).
  if (fetchPriority === "high")
    preload(mediaUrl(image.key, 800, "avif"), {
      as: "image",
      imageSrcSet: mediaSrcSet(image.key, "avif"),
      imageSizes: sizes,
      type: "image/avif",
      fetchPriority: "high",
    });
  const [hasFailed, setFailed] = useState(false);
  const img = useRef<HTMLImageElement>(null);
  // An image that failed before hydration fired its error event before React listened.
  useEffect(() => {
    const element = img.current;
    if (element?.complete && element.naturalWidth === 0 && element.currentSrc) setFailed(true);
  }, []);
  if (hasFailed) return null;
  return (
    <picture className={pictureClassName}>
      <source type="image/avif" srcSet={mediaSrcSet(image.key, "avif")} sizes={sizes} />
      <source type="image/webp" srcSet={mediaSrcSet(image.key, "webp")} sizes={sizes} />
      <img
        ref={img}
        src={mediaUrl(image.key, 800, "jpg")}
        srcSet={mediaSrcSet(image.key, "jpg")}
        sizes={sizes}
        width={image.width}
        height={image.height}
        alt={alt}
        loading={isEager ? "eager" : "lazy"}
        fetchPriority={fetchPriority}
        decoding={isEager ? "sync" : "async"}
        onError={() => setFailed(true)}
        className={className}
      />
    </picture>
  );
}

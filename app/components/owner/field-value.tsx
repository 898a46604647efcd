import { useTranslation } from "react-i18next";
import type { OwnerPropertyDetails } from "#domain/owners/owner-property.ts";
import { ResponsiveImage } from "../responsive-image.tsx";
import { formatDay, formatMoment } from "../staff/format.ts";
import type { DisplayPair, FieldDisplay } from "./field-display.ts";

function formatMoney(locale: string, amount: number, currency: string): string {
  try {
    return new Intl.NumberFormat(locale, {
      style: "currency",
      currency,
      maximumFractionDigits: Number.isInteger(amount) ? 0 : 2,
    }).format(amount);
  } catch {
    // A currency code Intl does not know: the amount and the code as stored.
    return `${new Intl.NumberFormat(locale).format(amount)} ${currency}`;
  }
}

/** A date-only value as a day, a timestamp with its time (both in UTC, as the staff area). */
function formatDate(value: string, locale: string): string {
  return (
    (/^\d{4}-\d{2}-\d{2}$/.test(value) ? formatDay(value, locale) : formatMoment(value, locale)) ||
    value
  );
}

function PairValue({ pair }: { pair: DisplayPair }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  switch (pair.kind) {
    case "money":
      return <>{formatMoney(locale, pair.value, pair.currency)}</>;
    case "number":
      return <>{new Intl.NumberFormat(locale, { maximumFractionDigits: 8 }).format(pair.value)}</>;
    case "yesNo":
      return <>{pair.value ? t("owner.overview.yes") : t("owner.overview.no")}</>;
    case "date":
      return <>{formatDate(pair.value, locale)}</>;
    case "count":
      return <>{t("owner.overview.imageCount", { count: pair.value })}</>;
    case "text":
      return <span className="break-all">{pair.value}</span>;
  }
}

/**
 * A field's value as guests' text, never as HTML: text as text (paragraphs kept), lists as
 * lists, objects as labelled rows.
 */
export function FieldValue({
  display,
  details,
  onShowImages,
}: {
  display: FieldDisplay;
  details: OwnerPropertyDetails;
  onShowImages: () => void;
}) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  switch (display.kind) {
    case "empty":
      return <p className="text-muted italic">{t("owner.overview.empty")}</p>;
    case "text":
      return (
        <p
          className={
            display.multiline ? "leading-relaxed break-words whitespace-pre-line" : "break-words"
          }
        >
          {display.text}
        </p>
      );
    case "number":
      return <p className="tabular-nums">{new Intl.NumberFormat(locale).format(display.value)}</p>;
    case "date":
      return <p>{formatDate(display.value, locale)}</p>;
    case "list":
      return (
        <ul className="marker:text-gold list-disc space-y-1 pl-5">
          {display.items.map((item, index) => (
            <li key={`${index}-${item}`}>{item}</li>
          ))}
        </ul>
      );
    case "pairs":
      return (
        <dl className="grid gap-1.5">
          {display.pairs.map((pair) => (
            <div
              key={pair.key}
              className="grid grid-cols-[minmax(5rem,9rem)_minmax(0,1fr)] gap-x-4"
            >
              <dt className="text-muted text-sm">{t(`owner.keys.${pair.key}`)}</dt>
              <dd className="text-ink">
                <PairValue pair={pair} />
              </dd>
            </div>
          ))}
        </dl>
      );
    case "imageCount":
      return (
        <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
          <p>{t("owner.overview.imageCount", { count: display.count })}</p>
          <button
            type="button"
            onClick={onShowImages}
            className="text-heritage rounded-sm text-sm font-medium underline underline-offset-4"
          >
            {t("owner.overview.manageImages")}
          </button>
        </div>
      );
    case "selectedImages": {
      const numberOf = new Map(details.gallery.map((image, index) => [image.key, index + 1]));
      const format = new Intl.NumberFormat(locale);
      return (
        <ol className="flex flex-wrap gap-2">
          {display.keys.map((key, index) => {
            const image = details.gallery.find((item) => item.key === key);
            if (!image) return null;
            return (
              <li key={key} className="relative w-20">
                <ResponsiveImage
                  image={image}
                  alt={t("owner.images.tileSelected", {
                    number: format.format(numberOf.get(key) ?? 0),
                    total: format.format(details.gallery.length),
                    rank: format.format(index + 1),
                  })}
                  sizes="80px"
                  className="aspect-[4/3] w-full rounded-sm object-cover"
                />
                <span
                  aria-hidden
                  className="bg-heritage text-ivory absolute top-1 left-1 flex size-5 items-center justify-center rounded-full text-xs font-semibold tabular-nums"
                >
                  {format.format(index + 1)}
                </span>
              </li>
            );
          })}
        </ol>
      );
    }
  }
}

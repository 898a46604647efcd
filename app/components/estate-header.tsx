import { useTranslation } from "react-i18next";
import { BedDouble, MapPin } from "lucide-react";

/**
 * The head of a page about one estate: its title as the page's heading (the estate's name, or a
 * sentence naming it), what stands beside the title (a badge), and the estate's location and
 * bedrooms. The property page and the booking page show it alike.
 */
export function EstateHeader({
  title,
  location,
  bedrooms,
  badge,
}: {
  title: string;
  location: string;
  bedrooms: number;
  badge?: React.ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center gap-4">
        <h1 className="text-heritage text-5xl font-semibold sm:text-6xl">{title}</h1>
        {badge}
      </div>
      <div className="text-muted flex flex-wrap items-center gap-x-6 gap-y-2">
        <p className="flex items-center gap-2">
          <MapPin aria-hidden className="text-gold size-4" />
          {location}
        </p>
        <p className="flex items-center gap-2">
          <BedDouble aria-hidden className="text-gold size-4" />
          {t("castles.bedrooms", { count: bedrooms })}
        </p>
      </div>
    </div>
  );
}

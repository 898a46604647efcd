import type { Language } from "#i18n/config.ts";
import { translate } from "#i18n/translate.ts";
import type { PriceLine } from "./quote.ts";

/** A line's label in `language`: what it charges for, and a season's dates. */
export function lineLabel(language: Language, line: PriceLine): string {
  if (line.code === "nights" && line.season) {
    const format = new Intl.DateTimeFormat(language, {
      day: "numeric",
      month: "short",
      timeZone: "UTC",
    });
    const date = (day: string) => format.format(new Date(`${day}T00:00:00Z`));
    // The season's last night, not its exclusive end, is what a reader expects to see.
    const lastNight = new Date(Date.parse(`${line.season.end}T00:00:00Z`) - 86_400_000);
    return translate(language, "pricing.lines.seasonNights", {
      start: date(line.season.start),
      end: format.format(lastNight),
    });
  }
  if (line.code === "extra" && line.text) return line.text;
  return translate(language, `pricing.lines.${line.code}`);
}

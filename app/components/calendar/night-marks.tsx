import type { TFunction } from "i18next";
import { useTranslation } from "react-i18next";
import { type DayState, DAY_TONE_CLASS, type DayTone } from "../ui/month-grid.tsx";
import { cn } from "../ui/cn.ts";
import { kindsOf, type NightFacts, type NightKind } from "./calendar-days.ts";

/**
 * How an estate's calendar draws a night: the month grid's tone (hatched and struck through
 * when the night is closed to guests, ringed for a collision), and a shape per thing the night
 * holds, so that stays, pending requests, blocks, imported busy times and collisions are told
 * apart without colour. The legend draws the same samples.
 */

/** The shape of each kind (hidden from screen readers: the day's label says it). */
const SHAPES: Record<NightKind, string> = {
  // A filled disc.
  stay: "size-1.5 rounded-full bg-current",
  // A ring.
  tentative: "size-1.5 rounded-full border border-current",
  // A filled square.
  block: "size-1.5 bg-current",
  // A diamond outline.
  external: "size-1.5 rotate-45 border border-current",
  // A bar, like an exclamation mark's.
  collision: "h-2 w-0.5 bg-current",
};

export function NightMark({ kind }: { kind: NightKind }) {
  return <span data-mark={kind} className={cn("inline-block shrink-0", SHAPES[kind])} />;
}

/** The marks of the kinds present, side by side. */
function Marks({ kinds }: { kinds: readonly NightKind[] }) {
  return (
    <span className="flex items-center gap-0.5">
      {kinds.map((kind) => (
        <NightMark key={kind} kind={kind} />
      ))}
    </span>
  );
}

/** The grid's tone of a night: closed to guests, only pending requests, or free. */
function toneOf(kinds: readonly NightKind[]): DayTone {
  if (kinds.includes("collision")) return "conflict";
  if (kinds.some((kind) => kind === "stay" || kind === "block" || kind === "external"))
    return "unavailable";
  if (kinds.includes("tentative")) return "range";
  return "available";
}

/** The tone a kind is drawn in when it is alone on a night (the legend's samples). */
export const TONE_OF_KIND: Record<NightKind | "free", DayTone> = {
  free: "available",
  stay: "unavailable",
  block: "unavailable",
  external: "unavailable",
  tentative: "range",
  collision: "conflict",
};

/** A night as the month grid draws it and a screen reader says it. */
export function dayStateOf(facts: NightFacts | undefined, t: TFunction): DayState {
  const kinds = kindsOf(facts);
  if (!facts || kinds.length === 0)
    return { tone: "available", label: t("owner.calendar.day.free") };
  const parts = [
    ...(facts.collision ? [t("owner.calendar.day.collision")] : []),
    ...facts.stays.map((reference) => t("owner.calendar.day.stay", { reference })),
    ...[...new Set(facts.blocks)].map((kind) =>
      t("owner.calendar.day.block", { kind: t(`owner.calendar.kinds.${kind}`) }),
    ),
    ...(facts.external > 0 ? [t("owner.calendar.day.external")] : []),
    ...facts.tentative.map((reference) => t("owner.calendar.day.tentative", { reference })),
  ];
  return { tone: toneOf(kinds), label: parts.join("; "), mark: <Marks kinds={kinds} /> };
}

/** What the days show: a sample day of each kind, drawn as the grid draws it. */
export function CalendarLegend() {
  const { t } = useTranslation();
  const items = ["free", "stay", "tentative", "block", "external", "collision"] as const;
  return (
    <ul
      aria-label={t("owner.calendar.legend.title")}
      data-testid="calendar-legend"
      className="text-ink flex flex-wrap gap-x-6 gap-y-2 text-sm"
    >
      {items.map((item) => (
        <li key={item} className="flex items-center gap-2">
          <span
            aria-hidden
            className={cn(
              "border-ink/10 relative flex size-8 items-center justify-center rounded-sm border text-xs tabular-nums",
              DAY_TONE_CLASS[TONE_OF_KIND[item]],
            )}
          >
            8
            {item !== "free" && (
              <span className="absolute inset-x-0 bottom-0.5 flex justify-center">
                <NightMark kind={item} />
              </span>
            )}
          </span>
          {t(`owner.calendar.legend.${item}`)}
        </li>
      ))}
    </ul>
  );
}

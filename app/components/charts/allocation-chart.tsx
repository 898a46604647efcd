import type { ReactNode } from "react";
import { cn } from "../ui/cn.ts";
import { ScrollRegion } from "../ui/scroll-region.tsx";

/**
 * Fills for up to eleven series, in the order of the allocation table, so a bucket has the
 * same colour in the donut and the unlock chart. Brand hues and their tints, alternating so
 * neighbours differ in hue as well as lightness.
 */
export const CHART_COLORS = [
  "#1F3D2B", // heritage
  "#A07A3F", // antique gold
  "#7A1F2B", // burgundy
  "#3E6B4F", // heritage tint
  "#6E5226", // gold shade
  "#A84A57", // burgundy tint
  "#1C1917", // ink
  "#7FA38A", // heritage light
  "#C7A46A", // gold light
  "#D08C95", // burgundy light
  "#57534E", // muted
] as const;

export function chartColor(index: number): string {
  return CHART_COLORS[index % CHART_COLORS.length]!;
}

/** Coordinates rounded so server and browser print the same attribute strings. */
export function svgNumber(value: number): string {
  return String(Math.round(value * 1000) / 1000);
}

/** The text equivalent of a chart: a table behind a disclosure. */
export function ChartDataTable({
  summary,
  caption,
  children,
}: {
  summary: string;
  caption: string;
  children: ReactNode;
}) {
  return (
    <details className="group border-ink/10 mt-6 rounded-sm border">
      <summary className="text-heritage hover:bg-heritage/5 focus-visible:outline-gold cursor-pointer px-4 py-3 text-sm font-medium focus-visible:outline-2">
        {summary}
      </summary>
      <ScrollRegion label={caption} className="px-4 pb-4">
        <table className="w-full border-collapse text-left text-sm">
          <caption className="sr-only">{caption}</caption>
          {children}
        </table>
      </ScrollRegion>
    </details>
  );
}

export const TH_CLASS = "border-ink/15 text-ink border-b px-3 py-2 font-semibold";
export const TD_CLASS = "border-ink/10 text-ink border-b px-3 py-2 tabular-nums";

export interface AllocationSlice {
  key: string;
  /** Translated name of the bucket. */
  label: string;
  /** Percent of the total supply. */
  share: number;
}

export interface AllocationChartProps {
  /** Prefix of the element ids; unique on the page. */
  id?: string;
  /** The chart's accessible name and visible heading. */
  title: string;
  /** A visible sentence under the title. */
  caption?: string;
  /** BCP 47 tag for number formatting (LANGUAGE_TAGS[language]). */
  locale: string;
  slices: readonly AllocationSlice[];
  /** Tokens in the whole supply, for the tokens column of the table. */
  totalSupply: number;
  /** Big text in the hole of the donut, e.g. "10 billion", and a smaller line under it. */
  centerLabel?: string;
  centerSubLabel?: string;
  /** Text of the disclosure that opens the data table. */
  tableSummary: string;
  columns: { item: string; share: string; tokens: string };
  className?: string;
}

const SIZE = 200;
const RADIUS = 78;
const STROKE = 34;
/** Gap between slices, in stroke length units. */
const GAP = 1.2;

/**
 * The allocation of the supply as a donut with a legend and a data table. Server-rendered
 * SVG: stroke dashes on circles, so only arithmetic (no trigonometry) sets the geometry.
 */
export function AllocationChart({
  id = "allocation-chart",
  title,
  caption,
  locale,
  slices,
  totalSupply,
  centerLabel,
  centerSubLabel,
  tableSummary,
  columns,
  className,
}: AllocationChartProps) {
  const percent = new Intl.NumberFormat(locale, { style: "percent", maximumFractionDigits: 2 });
  const tokens = new Intl.NumberFormat(locale, { maximumFractionDigits: 0 });
  const circumference = 2 * Math.PI * RADIUS;
  const titleId = `${id}-title`;
  const total = slices.reduce((sum, slice) => sum + slice.share, 0);

  const arcs: { key: string; color: string; dash: number; offset: number }[] = [];
  let offset = 0;
  for (const [index, slice] of slices.entries()) {
    const length = (slice.share / total) * circumference;
    arcs.push({
      key: slice.key,
      color: chartColor(index),
      dash: Math.max(length - GAP, 0.5),
      offset,
    });
    offset += length;
  }

  return (
    <figure className={cn("bg-paper shadow-card rounded-sm p-6", className)}>
      <figcaption className="mb-6">
        <span className="font-display text-heritage block text-2xl font-semibold">{title}</span>
        {caption && <span className="text-muted mt-1 block text-sm">{caption}</span>}
      </figcaption>
      <div className="flex flex-col items-center gap-8 md:flex-row md:items-start">
        <svg
          role="img"
          aria-labelledby={titleId}
          viewBox={`0 0 ${SIZE} ${SIZE}`}
          width="100%"
          className="h-auto max-w-72 shrink-0"
        >
          <title id={titleId}>{title}</title>
          <g transform={`rotate(-90 ${SIZE / 2} ${SIZE / 2})`}>
            {arcs.map((arc) => (
              <circle
                key={arc.key}
                cx={SIZE / 2}
                cy={SIZE / 2}
                r={RADIUS}
                fill="none"
                stroke={arc.color}
                strokeWidth={STROKE}
                strokeDasharray={`${svgNumber(arc.dash)} ${svgNumber(circumference - arc.dash)}`}
                strokeDashoffset={svgNumber(-arc.offset)}
              />
            ))}
          </g>
          {centerLabel && (
            <text
              x={SIZE / 2}
              y={centerSubLabel ? SIZE / 2 - 2 : SIZE / 2 + 6}
              textAnchor="middle"
              fill="#1C1917"
              fontSize={17}
              fontWeight={600}
            >
              {centerLabel}
            </text>
          )}
          {centerSubLabel && (
            <text x={SIZE / 2} y={SIZE / 2 + 18} textAnchor="middle" fill="#57534E" fontSize={13}>
              {centerSubLabel}
            </text>
          )}
        </svg>
        <ul className="grid w-full gap-x-6 gap-y-2 text-sm sm:grid-cols-2">
          {slices.map((slice, index) => (
            <li key={slice.key} className="flex items-baseline gap-2">
              <span
                aria-hidden
                className="inline-block size-3 shrink-0 translate-y-0.5 rounded-[2px]"
                style={{ backgroundColor: chartColor(index) }}
              />
              <span className="text-ink">{slice.label}</span>
              <span className="text-muted ml-auto tabular-nums">
                {percent.format(slice.share / 100)}
              </span>
            </li>
          ))}
        </ul>
      </div>
      <ChartDataTable summary={tableSummary} caption={title}>
        <thead>
          <tr>
            <th scope="col" className={TH_CLASS}>
              {columns.item}
            </th>
            <th scope="col" className={cn(TH_CLASS, "text-right")}>
              {columns.share}
            </th>
            <th scope="col" className={cn(TH_CLASS, "text-right")}>
              {columns.tokens}
            </th>
          </tr>
        </thead>
        <tbody>
          {slices.map((slice) => (
            <tr key={slice.key}>
              <th scope="row" className={cn(TD_CLASS, "font-normal")}>
                {slice.label}
              </th>
              <td className={cn(TD_CLASS, "text-right")}>{percent.format(slice.share / 100)}</td>
              <td className={cn(TD_CLASS, "text-right")}>
                {tokens.format(Math.round((totalSupply * slice.share) / 100))}
              </td>
            </tr>
          ))}
        </tbody>
      </ChartDataTable>
    </figure>
  );
}

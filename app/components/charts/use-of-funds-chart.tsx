import { cn } from "../ui/cn.ts";
import { ChartDataTable, svgNumber, TD_CLASS, TH_CLASS } from "./allocation-chart.tsx";

export interface UseOfFundsItem {
  key: string;
  /** Translated name of the item. */
  label: string;
  /** Percent of the funds raised. */
  share: number;
}

export interface UseOfFundsChartProps {
  /** Prefix of the element ids; unique on the page. */
  id?: string;
  /** The chart's accessible name and visible heading. */
  title: string;
  caption?: string;
  /** BCP 47 tag for number formatting (LANGUAGE_TAGS[language]). */
  locale: string;
  items: readonly UseOfFundsItem[];
  tableSummary: string;
  columns: { item: string; share: string };
  className?: string;
}

// A small viewBox keeps the text readable when the chart shrinks to a phone's width.
const WIDTH = 340;
const ROW_HEIGHT = 50;
/** Room at the right of the track for the value. */
const VALUE_WIDTH = 48;
const TRACK_WIDTH = WIDTH - VALUE_WIDTH;
const BAR_HEIGHT = 16;

/**
 * The use of the sale funds as horizontal bars on a 0-100% track, each labelled above and
 * valued at the right, with a data table.
 */
export function UseOfFundsChart({
  id = "use-of-funds-chart",
  title,
  caption,
  locale,
  items,
  tableSummary,
  columns,
  className,
}: UseOfFundsChartProps) {
  const percent = new Intl.NumberFormat(locale, { style: "percent", maximumFractionDigits: 2 });
  const titleId = `${id}-title`;
  const height = items.length * ROW_HEIGHT;

  return (
    <figure className={cn("bg-paper shadow-card rounded-sm p-6", className)}>
      <figcaption className="mb-6">
        <span className="font-display text-heritage block text-2xl font-semibold">{title}</span>
        {caption && <span className="text-muted mt-1 block text-sm">{caption}</span>}
      </figcaption>
      <svg
        role="img"
        aria-labelledby={titleId}
        viewBox={`0 0 ${WIDTH} ${height}`}
        width="100%"
        className="h-auto max-w-md"
      >
        <title id={titleId}>{title}</title>
        {items.map((item, index) => {
          const top = index * ROW_HEIGHT;
          const barY = top + 23;
          return (
            <g key={item.key}>
              <text x={0} y={top + 17} fontSize={14} fill="#1C1917">
                {item.label}
              </text>
              <rect x={0} y={barY} width={TRACK_WIDTH} height={BAR_HEIGHT} rx={2} fill="#EFE9DC" />
              <rect
                x={0}
                y={barY}
                width={svgNumber((Math.min(Math.max(item.share, 0), 100) / 100) * TRACK_WIDTH)}
                height={BAR_HEIGHT}
                rx={2}
                fill={index === 0 ? "#1F3D2B" : "#A07A3F"}
              />
              <text
                x={WIDTH}
                y={barY + BAR_HEIGHT - 4}
                fontSize={14}
                fontWeight={600}
                fill="#1C1917"
                textAnchor="end"
              >
                {percent.format(item.share / 100)}
              </text>
            </g>
          );
        })}
      </svg>
      <ChartDataTable summary={tableSummary} caption={title}>
        <thead>
          <tr>
            <th scope="col" className={TH_CLASS}>
              {columns.item}
            </th>
            <th scope="col" className={cn(TH_CLASS, "text-right")}>
              {columns.share}
            </th>
          </tr>
        </thead>
        <tbody>
          {items.map((item) => (
            <tr key={item.key}>
              <th scope="row" className={cn(TD_CLASS, "font-normal")}>
                {item.label}
              </th>
              <td className={cn(TD_CLASS, "text-right")}>{percent.format(item.share / 100)}</td>
            </tr>
          ))}
        </tbody>
      </ChartDataTable>
    </figure>
  );
}

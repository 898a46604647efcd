import type { CirculatingSupplyPoint } from "#domain/tokenomics/unlock-schedule.ts";
import { cn } from "../ui/cn.ts";
import { HorizontalGrid } from "./horizontal-grid.tsx";
import { ChartDataTable, chartColor, svgNumber, TD_CLASS, TH_CLASS } from "./allocation-chart.tsx";

export interface UnlockSeries {
  /** A bucket key of the points' `byBucket`. */
  key: string;
  /** Translated name of the bucket. */
  label: string;
}

export interface UnlockChartProps {
  /** Prefix of the element ids; unique on the page. */
  id?: string;
  /** The chart's accessible name and visible heading. */
  title: string;
  caption?: string;
  /** BCP 47 tag for number formatting (LANGUAGE_TAGS[language]). */
  locale: string;
  /** circulatingSupply(): one point per month from launch. */
  points: readonly (Pick<CirculatingSupplyPoint, "month" | "total"> & {
    byBucket: Readonly<Record<string, number>>;
  })[];
  totalSupply: number;
  /** Buckets bottom to top, in allocation order so colours match the allocation chart. */
  series: readonly UnlockSeries[];
  axisLabels: { month: string; share: string };
  tableSummary: string;
  columns: { month: string; total: string };
  /** Months listed in the table; every 6 months by default. */
  tableMonths?: readonly number[];
  className?: string;
}

// A small viewBox keeps the text readable when the chart shrinks to a phone's width.
const WIDTH = 440;
const HEIGHT = 280;
const PLOT = { left: 46, right: 12, top: 28, bottom: 46 };
const PLOT_WIDTH = WIDTH - PLOT.left - PLOT.right;
const PLOT_HEIGHT = HEIGHT - PLOT.top - PLOT.bottom;
const SHARE_TICKS = [0, 0.25, 0.5, 0.75, 1];

/**
 * Circulating supply by month as stacked areas, one per allocation bucket, with the total as
 * a line on top, axes in months and percent of supply, a legend and a data table.
 */
export function UnlockChart({
  id = "unlock-chart",
  title,
  caption,
  locale,
  points,
  totalSupply,
  series,
  axisLabels,
  tableSummary,
  columns,
  tableMonths,
  className,
}: UnlockChartProps) {
  const percent = new Intl.NumberFormat(locale, { style: "percent", maximumFractionDigits: 1 });
  const integer = new Intl.NumberFormat(locale);
  const titleId = `${id}-title`;
  const lastMonth = points.at(-1)?.month ?? 0;
  const monthTicks = ticksEvery(lastMonth <= 24 ? 6 : 12, lastMonth);
  const rows = points.filter((point) =>
    tableMonths ? tableMonths.includes(point.month) : point.month % 6 === 0,
  );

  const x = (month: number) => PLOT.left + (lastMonth === 0 ? 0 : (month / lastMonth) * PLOT_WIDTH);
  const y = (share: number) => PLOT.top + (1 - share) * PLOT_HEIGHT;

  // Cumulative shares: stacked[i][p] is the top of series i at point p.
  const stacked: number[][] = [];
  series.forEach((item, i) => {
    stacked.push(
      points.map(
        (point, p) => (stacked[i - 1]?.[p] ?? 0) + (point.byBucket[item.key] ?? 0) / totalSupply,
      ),
    );
  });
  const line = (shares: readonly number[]) =>
    shares.map((share, p) => `${svgNumber(x(points[p]!.month))},${svgNumber(y(share))}`);

  const areas = series.map((item, i) => {
    const top = line(stacked[i]!);
    const bottom = line(stacked[i - 1] ?? points.map(() => 0)).reverse();
    return { key: item.key, color: chartColor(i), d: `M${top.join("L")}L${bottom.join("L")}Z` };
  });
  const totalLine = `M${line(points.map((point) => point.total / totalSupply)).join("L")}`;

  return (
    <figure className={cn("bg-paper shadow-card rounded-sm p-6", className)}>
      <figcaption className="mb-6">
        <span className="font-display text-heritage block text-2xl font-semibold">{title}</span>
        {caption && <span className="text-muted mt-1 block text-sm">{caption}</span>}
      </figcaption>
      <svg
        role="img"
        aria-labelledby={titleId}
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        width="100%"
        className="h-auto max-w-xl"
      >
        <title id={titleId}>{title}</title>
        <HorizontalGrid
          values={SHARE_TICKS}
          y={y}
          left={PLOT.left}
          right={WIDTH - PLOT.right}
          format={(share) => percent.format(share)}
          fontSize={13}
          labelGap={8}
          baseline={4.5}
        />
        <g fontSize={13} fill="#57534E">
          <text x={8} y={16} textAnchor="start">
            {axisLabels.share}
          </text>
        </g>
        {areas.map((area) => (
          <path key={area.key} d={area.d} fill={area.color} stroke="#FFFFFF" strokeWidth={0.5} />
        ))}
        <path d={totalLine} fill="none" stroke="#1C1917" strokeWidth={1.5} />
        <g fontSize={13} fill="#57534E">
          <line
            x1={PLOT.left}
            x2={WIDTH - PLOT.right}
            y1={PLOT.top + PLOT_HEIGHT}
            y2={PLOT.top + PLOT_HEIGHT}
            stroke="#57534E"
          />
          {monthTicks.map((month) => (
            <g key={month}>
              <line
                x1={svgNumber(x(month))}
                x2={svgNumber(x(month))}
                y1={PLOT.top + PLOT_HEIGHT}
                y2={PLOT.top + PLOT_HEIGHT + 5}
                stroke="#57534E"
              />
              <text x={svgNumber(x(month))} y={PLOT.top + PLOT_HEIGHT + 19} textAnchor="middle">
                {integer.format(month)}
              </text>
            </g>
          ))}
          <text x={PLOT.left + PLOT_WIDTH / 2} y={HEIGHT - 6} textAnchor="middle">
            {axisLabels.month}
          </text>
        </g>
      </svg>
      <ul className="mt-4 flex flex-wrap gap-x-5 gap-y-2 text-sm">
        {series.map((item, i) => (
          <li key={item.key} className="flex items-center gap-2">
            <span
              aria-hidden
              className="inline-block size-3 shrink-0 rounded-[2px]"
              style={{ backgroundColor: chartColor(i) }}
            />
            <span className="text-ink">{item.label}</span>
          </li>
        ))}
        <li className="flex items-center gap-2">
          <span aria-hidden className="bg-ink inline-block h-0.5 w-4 shrink-0" />
          <span className="text-ink">{columns.total}</span>
        </li>
      </ul>
      <ChartDataTable summary={tableSummary} caption={title}>
        <thead>
          <tr>
            <th scope="col" className={TH_CLASS}>
              {columns.month}
            </th>
            {series.map((item) => (
              <th key={item.key} scope="col" className={cn(TH_CLASS, "text-right")}>
                {item.label}
              </th>
            ))}
            <th scope="col" className={cn(TH_CLASS, "text-right")}>
              {columns.total}
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((point) => (
            <tr key={point.month}>
              <th scope="row" className={cn(TD_CLASS, "font-normal")}>
                {integer.format(point.month)}
              </th>
              {series.map((item) => (
                <td key={item.key} className={cn(TD_CLASS, "text-right")}>
                  {percent.format((point.byBucket[item.key] ?? 0) / totalSupply)}
                </td>
              ))}
              <td className={cn(TD_CLASS, "text-right font-semibold")}>
                {percent.format(point.total / totalSupply)}
              </td>
            </tr>
          ))}
        </tbody>
      </ChartDataTable>
    </figure>
  );
}

function ticksEvery(step: number, last: number): number[] {
  const ticks: number[] = [];
  for (let month = 0; month <= last; month += step) ticks.push(month);
  return ticks;
}

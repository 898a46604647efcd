import { useTranslation } from "react-i18next";
import { REQUEST_STATUSES, type RequestStatus } from "#domain/requests/options.ts";
import type { WeeklyCounts } from "#domain/staff/inbox.ts";
import { ChartDataTable, svgNumber, TD_CLASS, TH_CLASS } from "../charts/allocation-chart.tsx";
import { cn } from "../ui/cn.ts";
import { formatWeek } from "./format.ts";
import { HorizontalGrid } from "../charts/horizontal-grid.tsx";
import {
  STATUS_TONE_ORDER,
  STATUS_TONES,
  type StatusTone,
  statusLabelKey,
  TONE_FILLS,
} from "../status-tones.ts";

/**
 * The chart stacks every kind of request, so statuses that are the same step of the workflow
 * (In progress and In review, Confirmed and Accepted, Rejected and Declined) share a band and
 * its colour; the legend and the table name both.
 */
const BANDS: readonly { key: StatusTone; tone: StatusTone; statuses: readonly RequestStatus[] }[] =
  STATUS_TONE_ORDER.map((tone) => ({
    key: tone,
    tone,
    statuses: REQUEST_STATUSES.filter((status) => STATUS_TONES[status] === tone),
  }));
const WIDTH = 640;
const HEIGHT = 240;
const PLOT = { left: 40, right: 8, top: 16, bottom: 34 };
const PLOT_WIDTH = WIDTH - PLOT.left - PLOT.right;
const PLOT_HEIGHT = HEIGHT - PLOT.top - PLOT.bottom;

/** A round top for the y axis and its ticks (whole requests only). */
function axisOf(max: number): { top: number; ticks: number[] } {
  if (max <= 4) return { top: 4, ticks: [0, 1, 2, 3, 4] };
  const rough = max / 4;
  const magnitude = 10 ** Math.floor(Math.log10(rough));
  const step = ([1, 2, 5, 10].find((m) => m * magnitude >= rough) ?? 10) * magnitude;
  const top = Math.ceil(max / step) * step;
  const ticks: number[] = [];
  for (let value = 0; value <= top; value += step) ticks.push(value);
  return { top, ticks };
}

/**
 * Requests per week of arrival, stacked by current status, as a hand-drawn SVG with a title,
 * a legend in words, and the same figures as a table (like the tokenomics charts).
 */
export function WeeklyChart({
  weeks,
  className,
}: {
  weeks: readonly WeeklyCounts[];
  className?: string;
}) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const integer = new Intl.NumberFormat(locale);
  const titleId = "weekly-chart-title";
  const title = t("staff.overview.chartTitle", { count: weeks.length });
  const bandLabel = (band: (typeof BANDS)[number]) =>
    band.statuses.map((status) => t(statusLabelKey(status))).join(" / ");
  const rows = weeks.map((week) => {
    const values = BANDS.map((band) =>
      band.statuses.reduce((sum, status) => sum + (week.byStatus[status] ?? 0), 0),
    );
    return { week, values, total: values.reduce((a, b) => a + b, 0) };
  });
  const { top, ticks } = axisOf(Math.max(0, ...rows.map((row) => row.total)));
  const slot = PLOT_WIDTH / Math.max(1, rows.length);
  const barWidth = Math.min(36, slot * 0.64);
  const y = (value: number) => PLOT.top + PLOT_HEIGHT - (value / top) * PLOT_HEIGHT;

  return (
    <figure className={cn("bg-paper border-gold/30 min-w-0 rounded-sm border p-5", className)}>
      <figcaption className="mb-3">
        <span className="font-display text-heritage block text-xl font-semibold">{title}</span>
        <span className="text-muted mt-1 block text-sm">{t("staff.overview.chartCaption")}</span>
      </figcaption>
      {/* On a phone the chart keeps a readable size and scrolls sideways, from the latest week. */}
      <div
        ref={(element) => {
          if (element) element.scrollLeft = element.scrollWidth;
        }}
        className="focus-visible:outline-gold overflow-x-auto focus-visible:outline-2"
        role="group"
        aria-labelledby={titleId}
        tabIndex={0}
      >
        <svg
          role="img"
          aria-labelledby={titleId}
          viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
          width="100%"
          className="h-auto min-w-[32rem]"
        >
          <title id={titleId}>{title}</title>
          <HorizontalGrid
            values={ticks}
            y={y}
            left={PLOT.left}
            right={WIDTH - PLOT.right}
            format={(tick) => integer.format(tick)}
            fontSize={12}
            labelGap={6}
            baseline={4}
          />
          {rows.map((row, index) => {
            const x = PLOT.left + slot * index + (slot - barWidth) / 2;
            let base = 0;
            return (
              <g key={row.week.weekStart}>
                {row.values.map((value, band) => {
                  if (value === 0) return null;
                  const from = base;
                  base += value;
                  return (
                    <rect
                      key={BANDS[band]!.key}
                      x={svgNumber(x)}
                      width={svgNumber(barWidth)}
                      y={svgNumber(y(base))}
                      height={svgNumber(y(from) - y(base))}
                      fill={TONE_FILLS[BANDS[band]!.tone]}
                      stroke="#FFFFFF"
                      strokeWidth={0.75}
                    />
                  );
                })}
              </g>
            );
          })}
          <g fontSize={12} fill="#57534E">
            <line
              x1={PLOT.left}
              x2={WIDTH - PLOT.right}
              y1={PLOT.top + PLOT_HEIGHT}
              y2={PLOT.top + PLOT_HEIGHT}
              stroke="#57534E"
            />
            {rows.map((row, index) =>
              // Every other week is labelled, so the labels never collide on a narrow screen.
              index % 2 === rows.length % 2 ? null : (
                <text
                  key={row.week.weekStart}
                  x={svgNumber(PLOT.left + slot * index + slot / 2)}
                  y={PLOT.top + PLOT_HEIGHT + 20}
                  textAnchor="middle"
                >
                  {formatWeek(row.week.weekStart, locale)}
                </text>
              ),
            )}
          </g>
        </svg>
      </div>
      <ul className="mt-3 flex flex-wrap gap-x-5 gap-y-2 text-sm">
        {BANDS.map((band) => (
          <li key={band.key} className="flex items-center gap-2">
            <span
              aria-hidden
              className="inline-block size-3 shrink-0 rounded-[2px]"
              style={{ backgroundColor: TONE_FILLS[band.tone] }}
            />
            <span className="text-ink">{bandLabel(band)}</span>
          </li>
        ))}
      </ul>
      <ChartDataTable summary={t("staff.overview.tableSummary")} caption={title}>
        <thead>
          <tr>
            <th scope="col" className={TH_CLASS}>
              {t("staff.overview.week")}
            </th>
            {BANDS.map((band) => (
              <th key={band.key} scope="col" className={cn(TH_CLASS, "text-right")}>
                {bandLabel(band)}
              </th>
            ))}
            <th scope="col" className={cn(TH_CLASS, "text-right")}>
              {t("staff.overview.total")}
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.week.weekStart}>
              <th scope="row" className={cn(TD_CLASS, "font-normal whitespace-nowrap")}>
                {formatWeek(row.week.weekStart, locale)}
              </th>
              {row.values.map((value, band) => (
                <td key={BANDS[band]!.key} className={cn(TD_CLASS, "text-right")}>
                  {integer.format(value)}
                </td>
              ))}
              <td className={cn(TD_CLASS, "text-right font-semibold")}>
                {integer.format(row.total)}
              </td>
            </tr>
          ))}
        </tbody>
      </ChartDataTable>
    </figure>
  );
}

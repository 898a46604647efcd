import { svgNumber } from "./allocation-chart.tsx";

/**
 * The horizontal grid of a chart: a light line at each value and its label left of the plot.
 * Shared by the token charts and the staff area's weekly chart.
 */
export function HorizontalGrid({
  values,
  y,
  left,
  right,
  format,
  fontSize,
  labelGap,
  baseline,
}: {
  values: readonly number[];
  /** The value's vertical position in the SVG. */
  y: (value: number) => number;
  /** The plot's left and right edges. */
  left: number;
  right: number;
  format: (value: number) => string;
  fontSize: number;
  /** Space between a label and the plot. */
  labelGap: number;
  /** How far below the line a label's baseline sits (about a third of the font size). */
  baseline: number;
}) {
  return (
    <g fontSize={fontSize} fill="#57534E">
      {values.map((value) => (
        <g key={value}>
          <line
            x1={left}
            x2={right}
            y1={svgNumber(y(value))}
            y2={svgNumber(y(value))}
            stroke="#E7E5E4"
          />
          <text x={left - labelGap} y={svgNumber(y(value) + baseline)} textAnchor="end">
            {format(value)}
          </text>
        </g>
      ))}
    </g>
  );
}

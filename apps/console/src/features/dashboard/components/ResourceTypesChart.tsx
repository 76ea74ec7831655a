/**
 * The dashboard's donut of resources by type, drawn as plain SVG with the total in the hole and
 * a text legend beside it.
 *
 * Each slice is a whole circle whose stroke is dashed to the slice's length, not an arc path:
 * a path from an angle back to the same angle draws nothing, which is how a single type at
 * 100% ends up as an empty ring in many hand-made donuts. A dash as long as the circumference
 * is simply the full ring (and a lone slice is not dashed at all).
 */
import type { ReactNode } from 'react';
import { theme, type GlobalToken } from 'antd';
import './charts.css';

export interface TypeSlice {
  key: string;
  label: string;
  count: number;
}

export interface ResourceTypesChartProps {
  /** Every type to list, e.g. Linux, Windows, MySQL, PostgreSQL, SQL Server; counts may be 0. */
  slices: readonly TypeSlice[];
  /** The caption under the total in the hole, e.g. 'Resources'. */
  totalLabel: string;
  /** The chart's accessible name. */
  ariaLabel: string;
}

// The drawing's own units; the SVG is sized by the stylesheet.
const SIZE = 120;
const CENTER = SIZE / 2;
const STROKE = 16;
const RADIUS = CENTER - STROKE / 2 - 4;
const CIRCUMFERENCE = 2 * Math.PI * RADIUS;

/** antd's preset palette names, each a colour of the theme token. */
type PaletteColor = keyof Pick<
  GlobalToken,
  'blue' | 'cyan' | 'gold' | 'purple' | 'magenta' | 'green' | 'volcano' | 'geekblue' | 'lime'
>;

/**
 * The resource kinds the statistics API answers (and the resource `os` names), so each keeps
 * its colour whichever others are present.
 */
const KNOWN_COLORS: Readonly<Record<string, PaletteColor>> = {
  linux: 'blue',
  windows: 'cyan',
  win32: 'cyan',
  mysql: 'gold',
  postgresql: 'purple',
  sqlserver: 'magenta',
  mssql: 'magenta',
};
const OTHER_COLORS: readonly PaletteColor[] = ['green', 'volcano', 'geekblue', 'lime'];

/** A colour for `key` that never depends on the other slices or their order. */
function paletteColor(key: string): PaletteColor {
  const known = KNOWN_COLORS[key];
  if (known) return known;
  let hash = 0;
  for (const char of key) hash = (hash * 31 + (char.codePointAt(0) ?? 0)) >>> 0;
  return OTHER_COLORS[hash % OTHER_COLORS.length] ?? 'green';
}

/** A non-negative finite count, so bad input cannot put NaN into the markup. */
function amount(value: number): number {
  return Number.isFinite(value) && value > 0 ? value : 0;
}

/** A donut of the slices' counts, the total in the middle and every slice in the legend. */
export function ResourceTypesChart({
  slices,
  totalLabel,
  ariaLabel,
}: ResourceTypesChartProps): ReactNode {
  const { token } = theme.useToken();
  const counted = slices.map((slice) => ({
    ...slice,
    count: amount(slice.count),
    color: token[paletteColor(slice.key)],
  }));
  const total = counted.reduce((sum, slice) => sum + slice.count, 0);

  let start = 0;
  const arcs = counted.flatMap((slice) => {
    if (total === 0 || slice.count === 0) return [];
    const length = (slice.count / total) * CIRCUMFERENCE;
    const arc = { ...slice, start, length };
    start += length;
    return [arc];
  });

  return (
    <div className="pc-chart-donut">
      <div className="pc-chart-donut__ring">
        <svg
          className="pc-chart-donut__svg"
          role="img"
          aria-label={ariaLabel}
          viewBox={`0 0 ${SIZE} ${SIZE}`}
        >
          {/* The track: what shows, grey, when every count is 0. */}
          <circle
            className="pc-chart-donut__track"
            cx={CENTER}
            cy={CENTER}
            r={RADIUS}
            fill="none"
            stroke={token.colorFillSecondary}
            strokeWidth={STROKE}
          />
          {/* Rotated so the first slice starts at twelve o'clock and they run clockwise. */}
          <g transform={`rotate(-90 ${CENTER} ${CENTER})`}>
            {arcs.map((arc) => (
              <circle
                key={arc.key}
                className="pc-chart-donut__slice"
                data-key={arc.key}
                cx={CENTER}
                cy={CENTER}
                r={RADIUS}
                fill="none"
                stroke={arc.color}
                strokeWidth={STROKE}
                // The gap is a whole circumference, so the dash is drawn once and never wraps.
                // The one slice that is everything is left undashed: a dash meeting its own
                // start leaves a hairline seam at twelve o'clock.
                strokeDasharray={arcs.length > 1 ? `${arc.length} ${CIRCUMFERENCE}` : undefined}
                strokeDashoffset={arcs.length > 1 ? -arc.start : undefined}
              >
                <title>{`${arc.label}: ${arc.count}`}</title>
              </circle>
            ))}
          </g>
        </svg>
        <div className="pc-chart-donut__hole">
          <div
            className="pc-chart-donut__total"
            style={{ color: token.colorText, fontSize: token.fontSizeHeading3 }}
          >
            {total}
          </div>
          <div style={{ color: token.colorTextSecondary, fontSize: token.fontSizeSM }}>
            {totalLabel}
          </div>
        </div>
      </div>
      <ul className="pc-chart-legend">
        {counted.map((slice) => (
          <li key={slice.key} className="pc-chart-legend__item">
            <span
              className="pc-chart-legend__swatch"
              style={{ background: slice.color }}
              aria-hidden
            />
            <span className="pc-chart-donut__label" style={{ color: token.colorTextSecondary }}>
              {slice.label}
            </span>
            <span className="pc-chart-donut__count" style={{ color: token.colorText }}>
              {slice.count}
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}

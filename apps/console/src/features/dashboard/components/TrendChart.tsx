/**
 * The dashboard's daily trend: connection count (left axis) and connection hours (right axis)
 * as two lines over 7 to 90 days, drawn as plain SVG so the console needs no chart library.
 *
 * The SVG scales with its container through its viewBox, text included: the x labels are
 * thinned by count (about seven at most), not by measuring, so they never overlap at any width.
 * Screen readers get the same numbers from a visually hidden table, one row per day.
 */
import { useState, type ReactNode } from 'react';
import { theme, type GlobalToken } from 'antd';
import './charts.css';

export interface TrendDay {
  /** 'YYYY-MM-DD'. */
  date: string;
  conn_count: number;
  /** Seconds. */
  conn_time: number;
}

export interface TrendChartProps {
  /** In date order, one per day; may all be zero, 7 to 90 long. */
  days: readonly TrendDay[];
  /** The count series' legend and axis name, e.g. 'Connections'. */
  countLabel: string;
  /** The duration series' legend and axis name, e.g. 'Duration (hours)'. */
  hoursLabel: string;
  /** The chart's accessible name, also the hidden table's caption. */
  ariaLabel: string;
  /** A day in words: a point's tooltip and its row in the hidden table. */
  describeDay: (day: TrendDay) => string;
}

// The drawing's own units; the SVG is stretched to its container's width.
const WIDTH = 600;
const HEIGHT = 240;
const PLOT_LEFT = 40;
const PLOT_RIGHT = WIDTH - 40;
// Room above the plot for the two axis names.
const PLOT_TOP = 28;
const PLOT_BOTTOM = HEIGHT - 26;
const FONT_SIZE = 11;
const MAX_X_LABELS = 7;
// Tick intervals the leading axis aims for.
const TARGET_INTERVALS = 4;

/** A value axis from 0 to `max`, its grid at every tick. */
interface Axis {
  max: number;
  ticks: number[];
  /** Decimals a tick label shows: 0 for counts, 1 for hours. */
  decimals: number;
}

/** A non-negative finite number, so bad input cannot put NaN into the markup. */
function amount(value: number): number {
  return Number.isFinite(value) && value > 0 ? value : 0;
}

/**
 * The smallest round step (1, 2, 2.5 or 5 times a power of ten) at least `raw` that is a whole
 * multiple of `minStep`: 1 keeps count ticks integers, 0.1 keeps hour ticks to one decimal.
 */
function niceStep(raw: number, minStep: number): number {
  const target = Math.max(raw, minStep);
  const power = 10 ** Math.floor(Math.log10(target));
  for (const factor of [1, 2, 2.5, 5, 10]) {
    const step = factor * power;
    const multiple = step / minStep;
    if (step >= target - 1e-9 && Math.abs(multiple - Math.round(multiple)) < 1e-9) return step;
  }
  return 10 * power;
}

function axisOf(step: number, intervals: number, minStep: number): Axis {
  const decimals = minStep < 1 ? 1 : 0;
  const scale = 10 ** decimals;
  // Rounded to the label's precision so 3 × 0.1 is 0.3, not 0.30000000000000004.
  const ticks = Array.from(
    { length: intervals + 1 },
    (_, i) => Math.round(i * step * scale) / scale,
  );
  return { max: ticks[intervals] ?? step, ticks, decimals };
}

/** The axis that picks the number of intervals: round ticks just above its data. */
function leadingAxis(dataMax: number, minStep: number): Axis {
  const step = niceStep(dataMax / TARGET_INTERVALS, minStep);
  const intervals = Math.max(1, Math.ceil(dataMax / step - 1e-9));
  return axisOf(step, intervals, minStep);
}

/** The other axis, with the same number of intervals so both share the grid lines. */
function followingAxis(dataMax: number, minStep: number, intervals: number): Axis {
  return axisOf(niceStep((dataMax > 0 ? dataMax : 1) / intervals, minStep), intervals, minStep);
}

/**
 * Both axes. Whichever series has data leads (counts first); all zero gives 0..1 on both, so
 * the flat lines still have an axis to sit on.
 */
function axesOf(countMax: number, hoursMax: number): { count: Axis; hours: Axis } {
  if (countMax > 0 || hoursMax <= 0) {
    const count = leadingAxis(countMax > 0 ? countMax : 1, 1);
    return { count, hours: followingAxis(hoursMax, 0.1, count.ticks.length - 1) };
  }
  const hours = leadingAxis(hoursMax, 0.1);
  return { count: followingAxis(countMax, 1, hours.ticks.length - 1), hours };
}

/** 'MM-DD' from 'YYYY-MM-DD'; anything else as given. */
function shortDate(date: string): string {
  return /^\d{4}-\d{2}-\d{2}$/.test(date) ? date.slice(5) : date;
}

/** Every how many days an x label goes, counted back from the last day so today is named. */
function labelStride(length: number): number {
  return Math.max(1, Math.ceil(length / MAX_X_LABELS));
}

interface ValueGridProps {
  axes: { count: Axis; hours: Axis };
  yOf: (value: number, axis: Axis) => number;
  token: GlobalToken;
}

/** The horizontal grid lines, count ticks on the left and hour ticks on the right. */
function ValueGrid({ axes, yOf, token }: ValueGridProps): ReactNode {
  const textProps = { fill: token.colorTextSecondary, fontSize: FONT_SIZE };
  return axes.count.ticks.map((tick, i) => {
    const y = yOf(tick, axes.count);
    const right = axes.hours.ticks[i] ?? 0;
    return (
      <g key={i}>
        <line
          x1={PLOT_LEFT}
          x2={PLOT_RIGHT}
          y1={y}
          y2={y}
          stroke={i === 0 ? token.colorBorder : token.colorBorderSecondary}
        />
        <text
          className="pc-chart-tick pc-chart-tick--count"
          x={PLOT_LEFT - 6}
          y={y}
          textAnchor="end"
          dominantBaseline="middle"
          {...textProps}
        >
          {tick.toFixed(axes.count.decimals)}
        </text>
        <text
          className="pc-chart-tick pc-chart-tick--hours"
          x={PLOT_RIGHT + 6}
          y={y}
          dominantBaseline="middle"
          {...textProps}
        >
          {/* Number() drops a trailing .0: 1, 1.5, 2. */}
          {String(Number(right.toFixed(axes.hours.decimals)))}
        </text>
      </g>
    );
  });
}

/** Two lines on two axes with a legend, a hover tooltip and a hidden data table. */
export function TrendChart({
  days,
  countLabel,
  hoursLabel,
  ariaLabel,
  describeDay,
}: TrendChartProps): ReactNode {
  const { token } = theme.useToken();
  const [hovered, setHovered] = useState<number | null>(null);

  const counts = days.map((day) => amount(day.conn_count));
  const hours = days.map((day) => amount(day.conn_time) / 3600);
  const axes = axesOf(Math.max(0, ...counts), Math.max(0, ...hours));

  const band = (PLOT_RIGHT - PLOT_LEFT) / Math.max(1, days.length);
  const xOf = (i: number): number => PLOT_LEFT + (i + 0.5) * band;
  const yOf = (value: number, axis: Axis): number =>
    PLOT_BOTTOM - (value / axis.max) * (PLOT_BOTTOM - PLOT_TOP);
  const stride = labelStride(days.length);
  const dotRadius = days.length > 31 ? 2 : 3;

  const series = [
    {
      key: 'count',
      label: countLabel,
      color: token.colorPrimary,
      values: counts,
      axis: axes.count,
    },
    { key: 'hours', label: hoursLabel, color: token.colorWarning, values: hours, axis: axes.hours },
  ];
  const hoveredDay = hovered === null ? undefined : days[hovered];
  // The tooltip slides from left-aligned at the first day to right-aligned at the last.
  const hoveredAt = hovered === null ? 0 : (xOf(hovered) / WIDTH) * 100;
  const textProps = { fill: token.colorTextSecondary, fontSize: FONT_SIZE };

  return (
    <div className="pc-chart-trend">
      <ul className="pc-chart-legend" style={{ color: token.colorTextSecondary }}>
        {series.map((s) => (
          <li key={s.key} className="pc-chart-legend__item">
            <span
              className="pc-chart-legend__swatch pc-chart-legend__swatch--line"
              style={{ background: s.color }}
              aria-hidden
            />
            {s.label}
          </li>
        ))}
      </ul>
      <div className="pc-chart-trend__plot">
        <svg
          className="pc-chart-trend__svg"
          role="img"
          aria-label={ariaLabel}
          viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
          onMouseLeave={() => setHovered(null)}
        >
          <text x={0} y={FONT_SIZE} {...textProps}>
            {countLabel}
          </text>
          <text x={WIDTH} y={FONT_SIZE} textAnchor="end" {...textProps}>
            {hoursLabel}
          </text>
          <ValueGrid axes={axes} yOf={yOf} token={token} />
          {days.map((day, i) =>
            (days.length - 1 - i) % stride === 0 ? (
              <text
                key={i}
                className="pc-chart-tick pc-chart-tick--date"
                x={xOf(i)}
                y={PLOT_BOTTOM + 16}
                textAnchor="middle"
                {...textProps}
              >
                {shortDate(day.date)}
              </text>
            ) : null,
          )}
          {hovered !== null && (
            <line
              x1={xOf(hovered)}
              x2={xOf(hovered)}
              y1={PLOT_TOP}
              y2={PLOT_BOTTOM}
              stroke={token.colorBorder}
              strokeDasharray="3 3"
            />
          )}
          {series.map((s) => (
            <g key={s.key} className={`pc-chart-series pc-chart-series--${s.key}`}>
              <polyline
                points={s.values.map((v, i) => `${xOf(i)},${yOf(v, s.axis)}`).join(' ')}
                fill="none"
                stroke={s.color}
                strokeWidth={2}
                strokeLinejoin="round"
                strokeLinecap="round"
              />
              {s.values.map((v, i) => (
                <circle
                  key={i}
                  cx={xOf(i)}
                  cy={yOf(v, s.axis)}
                  r={hovered === i ? dotRadius + 1.5 : dotRadius}
                  fill={token.colorBgContainer}
                  stroke={s.color}
                  strokeWidth={2}
                />
              ))}
            </g>
          ))}
          {/* Last, so the transparent columns are on top and take the pointer for their day. */}
          {days.map((day, i) => (
            <rect
              key={i}
              className="pc-chart-trend__hit"
              x={PLOT_LEFT + i * band}
              y={PLOT_TOP}
              width={band}
              height={PLOT_BOTTOM - PLOT_TOP}
              fill="transparent"
              onMouseEnter={() => setHovered(i)}
            >
              <title>{describeDay(day)}</title>
            </rect>
          ))}
        </svg>
        {hoveredDay && (
          <div
            className="pc-chart-trend__tooltip"
            aria-hidden
            style={{
              top: `${(PLOT_TOP / HEIGHT) * 100}%`,
              left: `${hoveredAt}%`,
              transform: `translateX(-${hoveredAt}%)`,
              background: token.colorBgSpotlight,
              color: token.colorTextLightSolid,
              borderRadius: token.borderRadius,
              boxShadow: token.boxShadowSecondary,
              fontSize: token.fontSizeSM,
            }}
          >
            {describeDay(hoveredDay)}
          </div>
        )}
      </div>
      <table className="pc-chart-visually-hidden">
        <caption>{ariaLabel}</caption>
        <tbody>
          {days.map((day, i) => (
            // By position: the days are a fixed window, and a repeated date must not lose a row.
            <tr key={i}>
              <td>{describeDay(day)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

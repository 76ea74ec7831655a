/** The trend chart: accessible name, the hidden table, round axes and no NaN on empty data. */
import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { TrendChart, type TrendDay } from './TrendChart';

/** `counts.length` days from 2026-11-19, `hours[i]` hours each (0 when missing). */
function week(counts: number[], hours: number[] = []): TrendDay[] {
  return counts.map((conn_count, i) => ({
    date: `2026-11-${String(19 + i).padStart(2, '0')}`,
    conn_count,
    conn_time: Math.round((hours[i] ?? 0) * 3600),
  }));
}

const describeDay = (day: TrendDay): string =>
  `${day.date}: ${day.conn_count} connections, ${day.conn_time / 3600} hours`;

function renderChart(days: readonly TrendDay[]) {
  return render(
    <TrendChart
      days={days}
      countLabel="Connections"
      hoursLabel="Duration (hours)"
      ariaLabel="Connections in the last 7 days"
      describeDay={describeDay}
    />,
  );
}

const ticks = (container: HTMLElement, axis: 'count' | 'hours' | 'date'): string[] =>
  Array.from(container.querySelectorAll(`.pc-chart-tick--${axis}`), (el) => el.textContent ?? '');

describe('TrendChart', () => {
  it('is an image named by ariaLabel, with a hidden table of one row per day', () => {
    const days = week([3, 0, 5, 2, 1, 4, 6], [1.5, 0, 2, 0.25, 0.5, 1, 3.5]);
    renderChart(days);
    expect(screen.getByRole('img', { name: 'Connections in the last 7 days' })).toBeInTheDocument();
    const table = screen.getByRole('table', { name: 'Connections in the last 7 days' });
    const rows = within(table).getAllByRole('row');
    expect(rows.map((row) => row.textContent)).toEqual(days.map(describeDay));
    expect(rows[6]).toHaveTextContent('2026-11-25: 6 connections, 3.5 hours');
    // The legend names both series.
    expect(screen.getAllByText('Connections').length).toBeGreaterThan(0);
    expect(screen.getAllByText('Duration (hours)').length).toBeGreaterThan(0);
  });

  it('gives each day a native tooltip and shows the styled one on hover', () => {
    const days = week([3, 0, 5, 2, 1, 4, 6], [1.5, 0, 2, 0.25, 0.5, 1, 3.5]);
    const { container } = renderChart(days);
    const columns = container.querySelectorAll('.pc-chart-trend__hit');
    expect(Array.from(columns, (c) => c.querySelector('title')?.textContent)).toEqual(
      days.map(describeDay),
    );
    fireEvent.mouseEnter(columns[2] as Element);
    const tooltip = container.querySelector('.pc-chart-trend__tooltip');
    expect(tooltip).toHaveTextContent('2026-11-21: 5 connections, 2 hours');
    fireEvent.mouseLeave(screen.getByRole('img'));
    expect(container.querySelector('.pc-chart-trend__tooltip')).toBeNull();
  });

  it('draws all-zero days on 0..1 axes without NaN', () => {
    const { container } = renderChart(week([0, 0, 0, 0, 0, 0, 0]));
    const markup = container.innerHTML;
    expect(markup).not.toMatch(/NaN|Infinity/);
    expect(ticks(container, 'count')).toEqual(['0', '1']);
    expect(ticks(container, 'hours')).toEqual(['0', '1']);
    // Both lines lie flat on the baseline.
    const ys = Array.from(container.querySelectorAll('.pc-chart-series circle'), (c) =>
      c.getAttribute('cy'),
    );
    expect(ys).toHaveLength(14);
    expect(new Set(ys).size).toBe(1);
  });

  it('labels the count axis with integers and the hours axis with at most one decimal', () => {
    for (const max of [1, 2, 3, 5, 7, 12, 99, 1234]) {
      const { container, unmount } = renderChart(week([0, 1, max, 2, 0, 1, 1], [0, 0.3, 0.7]));
      const count = ticks(container, 'count');
      expect(count.every((t) => /^\d+$/.test(t))).toBe(true);
      const values = count.map(Number);
      expect(values[0]).toBe(0);
      expect(values.at(-1)).toBeGreaterThanOrEqual(max);
      expect(new Set(values).size).toBe(values.length);
      const hours = ticks(container, 'hours');
      expect(hours.every((t) => /^\d+(\.\d)?$/.test(t))).toBe(true);
      expect(Number(hours.at(-1))).toBeGreaterThanOrEqual(0.7);
      expect(container.innerHTML).not.toMatch(/NaN|Infinity/);
      unmount();
    }
  });

  it('thins the date labels of a long window to at most seven, the last day included', () => {
    const days = Array.from({ length: 90 }, (_, i) => {
      const date = new Date(Date.UTC(2026, 8, 1 + i)).toISOString().slice(0, 10);
      return { date, conn_count: i % 5, conn_time: (i % 3) * 1800 };
    });
    const { container } = renderChart(days);
    const dates = ticks(container, 'date');
    expect(dates.length).toBeLessThanOrEqual(7);
    expect(dates.length).toBeGreaterThanOrEqual(5);
    expect(dates.at(-1)).toBe('11-29');
    expect(dates.every((d) => /^\d{2}-\d{2}$/.test(d))).toBe(true);
    expect(screen.getAllByRole('row')).toHaveLength(90);
  });
});

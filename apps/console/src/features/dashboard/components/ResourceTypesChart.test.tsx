/** The resource types donut: total, legend, the full ring of a single type, the empty ring. */
import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { ResourceTypesChart, type TypeSlice } from './ResourceTypesChart';

function slices(counts: [number, number, number, number, number]): TypeSlice[] {
  const names = [
    ['linux', 'Linux'],
    ['windows', 'Windows'],
    ['mysql', 'MySQL'],
    ['postgresql', 'PostgreSQL'],
    ['sqlserver', 'SQL Server'],
  ] as const;
  return names.map(([key, label], i) => ({ key, label, count: counts[i] ?? 0 }));
}

function renderChart(data: readonly TypeSlice[]) {
  return render(
    <ResourceTypesChart slices={data} totalLabel="Resources" ariaLabel="Resources by type" />,
  );
}

/** The legend's count beside `label`. */
const legendCount = (label: string): string | null | undefined =>
  screen.getByText(label).closest('li')?.querySelector('.pc-chart-donut__count')?.textContent;

const arcsOf = (container: HTMLElement): SVGCircleElement[] =>
  Array.from(container.querySelectorAll<SVGCircleElement>('.pc-chart-donut__slice'));

const circumferenceOf = (circle: SVGCircleElement): number =>
  2 * Math.PI * Number(circle.getAttribute('r'));

/** The drawn length of a slice: the first number of its dash array, all of it undashed. */
const dashOf = (arc: SVGCircleElement): number => {
  const dashes = arc.getAttribute('stroke-dasharray');
  return dashes === null ? circumferenceOf(arc) : Number(dashes.split(' ')[0]);
};

/** Where a slice starts along the ring (0 at twelve o'clock). */
const startOf = (arc: SVGCircleElement): number =>
  -Number(arc.getAttribute('stroke-dashoffset') ?? 0);

describe('ResourceTypesChart', () => {
  it('shows the total in the hole and every type with its count in the legend', () => {
    const { container } = renderChart(slices([6, 2, 3, 0, 1]));
    expect(screen.getByRole('img', { name: 'Resources by type' })).toBeInTheDocument();
    const hole = container.querySelector('.pc-chart-donut__hole') as HTMLElement;
    expect(hole).toHaveTextContent('12');
    expect(hole).toHaveTextContent('Resources');
    expect(legendCount('Linux')).toBe('6');
    expect(legendCount('Windows')).toBe('2');
    expect(legendCount('MySQL')).toBe('3');
    expect(legendCount('PostgreSQL')).toBe('0');
    expect(legendCount('SQL Server')).toBe('1');
    // PostgreSQL is listed but draws no arc; the arcs make up the whole ring, end to end.
    const arcs = arcsOf(container);
    expect(arcs.map((a) => a.dataset.key)).toEqual(['linux', 'windows', 'mysql', 'sqlserver']);
    const whole = circumferenceOf(arcs[0] as SVGCircleElement);
    expect(dashOf(arcs[0] as SVGCircleElement)).toBeCloseTo(whole / 2);
    expect(arcs.reduce((sum, a) => sum + dashOf(a), 0)).toBeCloseTo(whole);
    expect(startOf(arcs[3] as SVGCircleElement)).toBeCloseTo((whole * 11) / 12);
    expect(container.innerHTML).not.toMatch(/NaN|Infinity/);
  });

  it('draws a single non-zero type as a full ring', () => {
    const { container } = renderChart(slices([0, 0, 4, 0, 0]));
    const arcs = arcsOf(container);
    expect(arcs).toHaveLength(1);
    const arc = arcs[0] as SVGCircleElement;
    expect(arc.dataset.key).toBe('mysql');
    // Undashed: the whole circle, with no seam where a dash would meet its own start.
    expect(arc).not.toHaveAttribute('stroke-dasharray');
    expect(arc.getAttribute('stroke-width')).toBe(
      container.querySelector('.pc-chart-donut__track')?.getAttribute('stroke-width'),
    );
    expect(container.querySelector('.pc-chart-donut__hole')).toHaveTextContent('4');
    expect(container.innerHTML).not.toMatch(/NaN|Infinity/);
  });

  it('draws the grey ring and a total of 0 when every count is 0', () => {
    const { container } = renderChart(slices([0, 0, 0, 0, 0]));
    expect(arcsOf(container)).toHaveLength(0);
    expect(container.querySelector('.pc-chart-donut__track')).not.toBeNull();
    expect(container.querySelector('.pc-chart-donut__total')).toHaveTextContent(/^0$/);
    expect(legendCount('Linux')).toBe('0');
    expect(legendCount('SQL Server')).toBe('0');
    expect(container.innerHTML).not.toMatch(/NaN|Infinity/);
  });

  it('keeps a type colour whatever the other types are', () => {
    const colorOf = (container: HTMLElement, key: string) =>
      container.querySelector(`.pc-chart-donut__slice[data-key="${key}"]`)?.getAttribute('stroke');
    const first = renderChart(slices([1, 1, 1, 1, 1]));
    const mysql = colorOf(first.container, 'mysql');
    first.unmount();
    const second = renderChart(slices([0, 0, 5, 0, 0]).slice(2));
    expect(colorOf(second.container, 'mysql')).toBe(mysql);
  });
});

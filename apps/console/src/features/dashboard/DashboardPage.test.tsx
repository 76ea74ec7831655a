/**
 * The dashboard (spec 1 §2.5): the counters, the connection trend with its totals, resources by
 * type, the top lists, the online sessions with the unsafe-mode warning, the 7/30/90-day window,
 * and a failed figure shown in its own card with a Retry.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ConnectionDay } from '@portcullis/contract';
import { apiError, mockApi } from '../../test/api-mock';
import { account, onlineConnection, paged, shellReplies } from '../../test/fixtures';
import { renderApp } from '../../test/render';

afterEach(() => vi.unstubAllGlobals());

const DAY = 86_400;

function days(n: number): ConnectionDay[] {
  return Array.from({ length: n }, (_, i) => ({
    date: `2026-11-${String(i + 1).padStart(2, '0')}`,
    conn_count: i === 2 ? 12 : 0,
    conn_time: i === 2 ? 5400 : 0,
  }));
}

function replies(): Record<string, unknown> {
  return {
    ...shellReplies(account()),
    'GET /api/v1/summary': {
      accounts: 14,
      networks: 2,
      resources: 37,
      shared_resources: 5,
      projects: 6,
      current_plan: null,
      expire: null,
    },
    'GET /api/connect/numbers': (call: { query: URLSearchParams }) => ({
      items: days((Number(call.query.get('time_end')) - Number(call.query.get('time_from'))) / DAY),
    }),
    'GET /api/statistic/overview_v1': {
      conn_count: 12,
      conn_time: 5400,
      accounts: 3,
      resources: 2,
    },
    'GET /api/instances_summary': {
      linux: 20,
      windows: 4,
      mysql: 9,
      postgresql: 3,
      sqlserver: 1,
    },
    'GET /api/statistic/account_v1': {
      items: [
        {
          account_id: 7,
          account: 'erin@demo.local',
          name: 'Erin',
          avatar: '',
          conn_count: 9,
          conn_time: 4000,
        },
      ],
    },
    'GET /api/statistic/resource_v1': {
      items: [{ id: 111, name: 'web-1', conn_count: 8, conn_time: 3000 }],
    },
    'GET /api/v1/tunnel_connection/list': paged([
      onlineConnection(1, 'erin'),
      onlineConnection(2, 'frank', { safe_mode: 1 }),
      onlineConnection(3, 'gina', { way: 'mysql' }),
    ]),
  };
}

describe('dashboard', () => {
  it('shows the team’s figures, the window’s statistics and the online sessions', async () => {
    const { calls } = mockApi(replies());
    renderApp('/operation/dashboard');
    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeInTheDocument();
    // Counters.
    const counter = async (title: string) =>
      (await screen.findByText(title)).closest('.ant-statistic') as HTMLElement;
    expect(within(await counter('Shared resources')).getByText('5')).toBeInTheDocument();
    expect(within(await counter('Members')).getByText('14')).toBeInTheDocument();
    expect(within(await counter('Work groups')).getByText('6')).toBeInTheDocument();
    // The trend: a day in words, and the window's totals.
    expect(
      await screen.findByText('2026-11-03: 12 connections, 1.5 hours', { selector: 'td, th' }),
    ).toBeInTheDocument();
    expect(screen.getByText('12 connections')).toBeInTheDocument();
    expect(screen.getByText('01:30:00 in all')).toBeInTheDocument();
    expect(screen.getByText('by 3 members')).toBeInTheDocument();
    // Resources by type: the total in the hole and the legend.
    const types = screen.getByText('Resource types').closest('.ant-card') as HTMLElement;
    expect(within(types).getByText('37')).toBeInTheDocument();
    expect(within(types).getByText('SQL Server')).toBeInTheDocument();
    // Top lists.
    const members = screen.getByText('Top 10 members by connection time').closest('.ant-card');
    expect(within(members as HTMLElement).getByText('Erin')).toBeInTheDocument();
    expect(within(members as HTMLElement).getByText('01:06:40')).toBeInTheDocument();
    const resources = screen.getByText('Top 10 resources by connections').closest('.ant-card');
    expect(within(resources as HTMLElement).getByText('8 connections')).toBeInTheDocument();
    // Online sessions: only the one without security mode carries the warning.
    const sessions = screen.getByText('Online sessions', { selector: '.ant-card-head-title' });
    const card = sessions.closest('.ant-card') as HTMLElement;
    const erin = (await within(card).findByText('erin')).closest('tr') as HTMLElement;
    const frank = within(card).getByText('frank').closest('tr') as HTMLElement;
    expect(within(erin).getByRole('img', { name: 'Not in security mode' })).toBeInTheDocument();
    expect(within(frank).queryByRole('img', { name: 'Not in security mode' })).toBeNull();
    expect(within(erin).getByRole('button', { name: 'Disconnect erin' })).toBeInTheDocument();
    // Monitor for terminal sessions only: a database session has no screen to watch.
    expect(within(erin).getByRole('button', { name: 'Monitor erin' })).toBeInTheDocument();
    const gina = within(card).getByText('gina').closest('tr') as HTMLElement;
    expect(within(gina).queryByRole('button', { name: 'Monitor gina' })).toBeNull();
    // Nor the warning: security mode governs terminals, not database sessions.
    expect(within(gina).queryByRole('img', { name: 'Not in security mode' })).toBeNull();

    // Seven days ending tonight, in the browser's days.
    const numbers = calls.filter((c) => c.path === '/api/connect/numbers');
    const first = numbers[0]?.query;
    expect(Number(first?.get('time_end')) - Number(first?.get('time_from'))).toBe(7 * DAY);
    expect(first?.get('utc_offset')).toBe(String(-new Date().getTimezoneOffset()));
  });

  it('asks again for 30 days when the window changes', async () => {
    const user = userEvent.setup({ delay: null });
    const { calls } = mockApi(replies());
    renderApp('/operation/dashboard');
    await screen.findByText('2026-11-03: 12 connections, 1.5 hours', { selector: 'td, th' });
    await user.click(screen.getByText('30 days'));
    await screen.findByText('2026-11-30: 0 connections, 0 hours', { selector: 'td, th' });
    const spans = calls
      .filter((c) => c.path === '/api/statistic/account_v1')
      .map((c) => Number(c.query.get('time_end')) - Number(c.query.get('time_from')));
    expect(spans).toEqual([7 * DAY, 30 * DAY]);
  });

  it('shows a figure that failed in its own card, with a Retry that asks again', async () => {
    const user = userEvent.setup({ delay: null });
    let fail = true;
    mockApi({
      ...replies(),
      'GET /api/instances_summary': () =>
        fail
          ? apiError(500, 'InternalError')
          : { linux: 1, windows: 0, mysql: 0, postgresql: 0, sqlserver: 0 },
    });
    renderApp('/operation/dashboard');
    const types = (await screen.findByText('Resource types')).closest('.ant-card') as HTMLElement;
    const retry = await within(types).findByRole('button', { name: 'Retry' });
    // The rest of the page is there all the same.
    expect(await screen.findByText('by 3 members')).toBeInTheDocument();
    fail = false;
    await user.click(retry);
    await waitFor(() => expect(within(types).getByText('Linux')).toBeInTheDocument());
  });
});

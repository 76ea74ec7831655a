import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import dayjs from 'dayjs';
import { LOG_END_PADDING_SECONDS, TEAM_EVENTS } from '@portcullis/contract';
import i18next from 'i18next';
import { mockApi, type RecordedCall } from '../../test/api-mock';
import { account, shellReplies } from '../../test/fixtures';
import { findDialog, renderApp } from '../../test/render';
import { filterQuery } from './api';
import { LOG_EVENTS } from './components/LogTab';

afterEach(async () => {
  vi.unstubAllGlobals();
  await i18next.changeLanguage('en_US');
});

const T = 1_700_000_000;

function login(id: number, success: boolean, reason = '') {
  return {
    id,
    time: T + id,
    account: `u${id}@demo.local`,
    admin: 0,
    ip: '10.0.0.1',
    success,
    reason,
  };
}

function team(id: number, event: string) {
  return {
    id,
    time: T + id,
    account: 'ada@demo.local',
    event,
    user: `u${id}@demo.local`,
    group: '',
  };
}

const ALARM = {
  id: 9,
  operation_time: T,
  account_name: 'bob@demo.local',
  con_ip: '10.0.0.9',
  resource_name: 'db-1',
  project_name: 'Ops',
  way: 'terminal',
  event: 'intercept',
  command: 'rm -rf /',
  notice_accounts: ['ada@demo.local', 'sec@demo.local'],
};

/** A notice command that ran, and whose mail reached nobody. */
const NOTICE = {
  ...ALARM,
  id: 8,
  operation_time: T - 10,
  resource_name: 'web-2',
  event: 'notice',
  command: 'sudo -l',
  notice_accounts: [],
};

function serve(extra: Record<string, unknown> = {}) {
  return mockApi({
    ...shellReplies(account({ is_admin: 1 })),
    'GET /api/event/get_login_log': (call: RecordedCall) => {
      const rows = Array.from({ length: 12 }, (_, i) =>
        login(i + 1, i !== 0, i === 0 ? 'AccountDisabled' : ''),
      );
      const page = Number(call.query.get('page_index'));
      return { objects: rows.slice((page - 1) * 10, page * 10), num_results: rows.length };
    },
    'GET /api/event/get_account_log': { objects: [team(1, 'addUser')], num_results: 1 },
    'GET /api/event/get_net_log': { objects: [], num_results: 0 },
    'GET /api/event/get_notice_log': (call: RecordedCall) => {
      const event = call.query.get('event');
      const rows = [ALARM, NOTICE].filter((r) => !event || r.event === event);
      return { objects: rows, num_results: rows.length };
    },
    'POST /api/event/alarm': (call: RecordedCall) =>
      (call.body as { id: number }).id === NOTICE.id ? NOTICE : ALARM,
    ...extra,
  });
}

/** The alarm log's outcome column: ALARM's row blocked, NOTICE's alarm only. Returns NOTICE's row. */
async function expectOutcomes(
  title: string,
  blocked: string,
  noticed: string,
): Promise<HTMLElement> {
  const blockedRow = (await screen.findByText('db-1')).closest('tr') as HTMLElement;
  expect(within(blockedRow).getByText(blocked)).toBeInTheDocument();
  const noticedRow = screen.getByText('web-2').closest('tr') as HTMLElement;
  expect(within(noticedRow).getByText(noticed)).toBeInTheDocument();
  expect(screen.getByRole('columnheader', { name: title })).toBeInTheDocument();
  return noticedRow;
}

function logCalls(calls: RecordedCall[], path: string): RecordedCall[] {
  return calls.filter((c) => c.path === path);
}

describe('system log page', () => {
  it('opens on the login log: status, translated reason, times, and a pager past 10', async () => {
    const user = userEvent.setup({ delay: null });
    const { calls } = serve();
    renderApp('/system/log');
    expect(
      await screen.findByRole('tab', { name: 'Login logs', selected: true }),
    ).toBeInTheDocument();
    const failed = (await screen.findByText('u1@demo.local')).closest('tr') as HTMLElement;
    expect(within(failed).getByText('Failure')).toBeInTheDocument();
    expect(within(failed).getByText('User disabled')).toBeInTheDocument();
    expect(within(failed).getByText('Member')).toBeInTheDocument();
    expect(within(failed).getByText(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)).toBeInTheDocument();
    const ok = (await screen.findByText('u2@demo.local')).closest('tr') as HTMLElement;
    expect(within(ok).getByText('Success')).toBeInTheDocument();
    await user.click(screen.getByTitle('2'));
    expect(await screen.findByText('u11@demo.local')).toBeInTheDocument();
    expect(logCalls(calls, '/api/event/get_login_log').at(-1)?.query.get('page_index')).toBe('2');
  });

  it('filters by account type and text, pads the end date, and exports the same filters', async () => {
    const user = userEvent.setup({ delay: null });
    const { calls } = serve();
    renderApp('/system/log?type=loginLogs');
    await screen.findByText('u2@demo.local');
    await user.click(screen.getByRole('combobox', { name: 'Account type' }));
    await user.click(await screen.findByTitle('Audit administrator'));
    fireEvent.change(screen.getByRole('textbox', { name: 'Search text' }), {
      target: { value: '  ada ' },
    });
    await user.click(screen.getByRole('button', { name: /Search/ }));
    await waitFor(() => {
      const q = logCalls(calls, '/api/event/get_login_log').at(-1)?.query;
      expect(q?.get('admin')).toBe('2');
      expect(q?.get('account')).toBe('ada');
      expect(q?.get('page_index')).toBe('1');
    });
    const href = screen.getByRole('link', { name: /Export/ }).getAttribute('href') ?? '';
    const url = new URL(href, 'http://console.local');
    expect(url.pathname).toBe('/api/event/sys_log_export');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      log_type: 'login',
      admin: '2',
      account: 'ada',
    });
  });

  it('turns a date range into epoch seconds, the end padded by a day', () => {
    const start = dayjs('2026-03-01 15:00:00');
    const end = dayjs('2026-03-02 09:30:00');
    const query = filterQuery('team', {
      searchKey: 'user',
      text: ' bob ',
      event: 'addUser',
      range: [start, end],
    });
    expect(query).toEqual({
      start_time: dayjs('2026-03-01').unix(),
      end_time: dayjs('2026-03-02').unix() + LOG_END_PADDING_SECONDS,
      event: 'addUser',
      user: 'bob',
    });
    // The login log has no event; the account type belongs to it alone.
    expect(filterQuery('login', { searchKey: 'account', text: '', event: 'x', admin: 3 })).toEqual({
      admin: 3,
    });
  });

  it('switching tab pushes the route and starts again with empty filters', async () => {
    const user = userEvent.setup({ delay: null });
    const { calls } = serve();
    const app = renderApp('/system/log');
    await screen.findByText('u2@demo.local');
    fireEvent.change(screen.getByRole('textbox', { name: 'Search text' }), {
      target: { value: 'u1' },
    });
    await user.click(screen.getByRole('tab', { name: 'Team logs' }));
    await waitFor(() => expect(app.location()).toBe('/system/log?type=teamLogs'));
    expect(await screen.findByText('Add member')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Search text' })).toHaveValue('');
    // The team log filters by event and searches account or member.
    expect(screen.getByRole('combobox', { name: 'Event type' })).toBeInTheDocument();
    await user.click(screen.getByRole('combobox', { name: 'Search by' }));
    expect(await screen.findByTitle('Member')).toBeInTheDocument();

    await user.click(screen.getByRole('tab', { name: 'Login logs' }));
    await waitFor(() => expect(app.location()).toBe('/system/log?type=loginLogs'));
    await screen.findByText('u2@demo.local');
    // Back on the login log: page 1 read afresh.
    expect(logCalls(calls, '/api/event/get_login_log')).toHaveLength(2);
    expect(logCalls(calls, '/api/event/get_login_log').at(-1)?.query.get('page_index')).toBe('1');
  });

  it("shows 'No Data' for an empty log", async () => {
    serve();
    renderApp('/system/log?type=clusterLogs');
    expect(await screen.findByText('No Data')).toBeInTheDocument();
    expect(document.querySelector('.ant-pagination')).toBeNull();
  });

  it('opens an alarm in the right-hand detail panel', async () => {
    const user = userEvent.setup({ delay: null });
    const { calls } = serve();
    renderApp('/system/log?type=alarmLogs');
    await user.click(await screen.findByText('db-1'));
    const panel = await findDialog('Alarm detail');
    expect(await within(panel).findByText('sec@demo.local')).toBeInTheDocument();
    expect(within(panel).getByText('rm -rf /')).toBeInTheDocument();
    expect(within(panel).getByText('Blocked')).toBeInTheDocument();
    expect(calls.find((c) => c.path === '/api/event/alarm')?.body).toEqual({ id: 9 });
  });

  it('says whether each alarm was blocked or only raised, and filters by it', async () => {
    const user = userEvent.setup({ delay: null });
    const { calls } = serve();
    renderApp('/system/log?type=alarmLogs');
    await expectOutcomes('Outcome', 'Blocked', 'Alarm only');

    await user.click(screen.getByRole('combobox', { name: 'Event type' }));
    await user.click(await screen.findByTitle('Blocked'));
    await user.click(screen.getByRole('button', { name: /Search/ }));
    await waitFor(() =>
      expect(logCalls(calls, '/api/event/get_notice_log').at(-1)?.query.get('event')).toBe(
        'intercept',
      ),
    );
    await waitFor(() => expect(screen.queryByText('web-2')).not.toBeInTheDocument());
    const href = screen.getByRole('link', { name: /Export/ }).getAttribute('href') ?? '';
    expect(new URL(href, 'http://console.local').searchParams.get('event')).toBe('intercept');
  });

  it('reads 已拦截 and 仅告警 in Chinese, in the list and the detail', async () => {
    await i18next.changeLanguage('zh_CN');
    serve();
    renderApp('/system/log?type=alarmLogs');
    const noticed = await expectOutcomes('处理结果', '已拦截', '仅告警');
    await userEvent.setup({ delay: null }).click(noticed);
    const panel = await findDialog('告警详情');
    expect(await within(panel).findByText('sudo -l')).toBeInTheDocument();
    expect(within(panel).getByText('仅告警')).toBeInTheDocument();
  });

  it('keeps role 3 and role 0 out (System Log is not theirs)', async () => {
    mockApi(shellReplies(account({ is_admin: 3 })));
    const app = renderApp('/system/log');
    await waitFor(() => expect(app.location()).toBe('/operation/dashboard'));
    app.unmount();
    vi.unstubAllGlobals();
    mockApi(shellReplies(account({ is_admin: 0 })));
    const member = renderApp('/system/log');
    await waitFor(() => expect(member.location()).toBe('/operation/workgroup'));
  });

  it('names every event of the vocabularies in both languages', () => {
    for (const language of ['en_US', 'zh_CN']) {
      const t = i18next.getFixedT(language);
      for (const events of Object.values(LOG_EVENTS)) {
        for (const event of events ?? []) {
          expect(t(`system-log.event.${event}`)).not.toContain('system-log.');
        }
      }
    }
    expect(TEAM_EVENTS.length).toBeGreaterThan(0);
  });
});

import { useEffect, type ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ActionLogEntry } from '@portcullis/contract';
import { mockApi, type RecordedCall } from '../../test/api-mock';
import { account, paged } from '../../test/fixtures';
import { findDialog, renderApp, renderInApp } from '../../test/render';
import { PanelProvider } from '../../shared/panel/PanelProvider';
import { usePanel } from '../../shared/panel/panel-context';
import { CONNECT_LOGS_PANEL, ConnectLogsPanel } from './components/ConnectLogsPanel';
import { CONNECT_PANEL, ConnectPanel } from './components/ConnectPanel';
import { code, projectResource } from './test-fixtures';

afterEach(() => vi.unstubAllGlobals());

const SLOW = 120_000;
const ME = { id: 7, name: 'Mia', avatar: '' };
const T = 1_700_000_000;

// The panels on their own (the rows that open them are covered in WorkgroupDetail).
function Opened({ panelKey, children }: { panelKey: string; children: ReactNode }): ReactNode {
  const { open } = usePanel();
  useEffect(() => open(panelKey), [open, panelKey]);
  return children;
}

function show(panelKey: string, node: ReactNode): void {
  renderInApp(
    <PanelProvider>
      <Opened panelKey={panelKey}>{node}</Opened>
    </PanelProvider>,
  );
}

function entry(id: number, overrides: Partial<ActionLogEntry> = {}): ActionLogEntry {
  return {
    way: 'wetty',
    code: 'abcd****st',
    resource_id: 111,
    resource_name: 'web',
    resource_ip_address: '10.0.0.11',
    account_name: 'Mia',
    avatar: '',
    account_id: 7,
    agent_version: '3.1.0',
    start_date: T + id * 100,
    date: T + id * 100 + 65,
    connection_id: id,
    guacamole: 0,
    rdp_width: 0,
    rdp_height: 0,
    client_ip_address: '172.16.0.3',
    unsafe_mode: 0,
    play: 1,
    ...overrides,
  };
}

describe('Connect panel', () => {
  it(
    'shows verification, security mode, default user, host, port, user, SSH command and full screen',
    async () => {
      const user = userEvent.setup({ delay: null });
      const resource = projectResource({
        id: 11,
        name: 'web',
        default_username: 'root',
        safe: { network_safe_mode: 1, safe_mode_approver: 0 },
      });
      const { calls } = mockApi({
        'GET /api/current_account': account({ id: ME.id, name: ME.name, is_admin: 0 }),
        'GET /api/tunnel': paged([
          code({
            account: ME,
            safe_mode: 1,
            connect: {
              host: 'gw.example',
              port: 9998,
              command: 'ssh -p 9998 abcdefghijklmnopqrst@gw.example',
            },
          }),
        ]),
        'PUT /api/project_resource/11/default_username': (call: RecordedCall) =>
          projectResource({
            id: 11,
            default_username: (call.body as { default_username: string }).default_username,
          }),
      });
      show(CONNECT_PANEL, <ConnectPanel resource={resource} />);
      const panel = await findDialog('Connect to web');
      expect(await within(panel).findByText('Verification method')).toBeInTheDocument();
      expect(within(panel).getByText('Your SSH key or the code')).toBeInTheDocument();
      expect(within(panel).getByText('Security mode')).toBeInTheDocument();
      expect(within(panel).getByText('On')).toBeInTheDocument();
      expect(within(panel).getByText('gw.example')).toBeInTheDocument();
      expect(within(panel).getByText('9998')).toBeInTheDocument();
      expect(within(panel).getByText('Username (code)')).toBeInTheDocument();
      expect(within(panel).getByText('abcdefghijklmnopqrst')).toBeInTheDocument();
      expect(within(panel).getByText('SSH command')).toBeInTheDocument();
      expect(
        within(panel).getByText('ssh -p 9998 abcdefghijklmnopqrst@gw.example'),
      ).toBeInTheDocument();
      const full = await within(panel).findByRole('link', { name: /Full screen/ });
      expect(full).toHaveAttribute('href', '/operation/terminal/11?name=web');
      expect(full).toHaveAttribute('target', '_blank');
      expect(within(panel).getByRole('button', { name: 'Open web terminal' })).toBeEnabled();

      // The default login user is chosen in place.
      const choice = within(panel).getByRole('combobox', { name: 'Default username' });
      expect(within(panel).getByTitle('root')).toBeInTheDocument();
      await user.click(choice);
      await waitFor(() => {
        const option = document.querySelector('.ant-select-item-option[title="deploy"]');
        if (!option) throw new Error('no option deploy');
        fireEvent.click(option);
      });
      await waitFor(() =>
        expect(
          calls.find((c) => c.path === '/api/project_resource/11/default_username')?.body,
        ).toEqual({ default_username: 'deploy' }),
      );
    },
    SLOW,
  );

  it(
    'shows the first login user as the default when none was chosen',
    async () => {
      mockApi({
        'GET /api/current_account': account({ id: ME.id, name: ME.name, is_admin: 0 }),
        'GET /api/tunnel': paged([code({ account: ME })]),
      });
      show(
        CONNECT_PANEL,
        <ConnectPanel
          resource={projectResource({
            id: 11,
            name: 'web',
            login_user: ['deploy', 'root'],
            default_username: '',
          })}
        />,
      );
      const panel = await findDialog('Connect to web');
      expect(await within(panel).findByTitle('deploy')).toBeInTheDocument();
    },
    SLOW,
  );

  it(
    'points to Manage Code without a valid code of the member’s own',
    async () => {
      mockApi({
        'GET /api/current_account': account({ id: ME.id, name: ME.name, is_admin: 0 }),
        'GET /api/tunnel': paged([code({ account: ME, expire_time: T, expired: true })]),
      });
      show(CONNECT_PANEL, <ConnectPanel resource={projectResource({ id: 11, name: 'web' })} />);
      const panel = await findDialog('Connect to web');
      expect(await within(panel).findByText(/no valid code/)).toBeInTheDocument();
      expect(within(panel).getByRole('button', { name: 'Manage Code' })).toBeEnabled();
    },
    SLOW,
  );
});

describe('Connect panel, finding the member’s code', () => {
  it(
    'asks for the member’s own valid code, however many other codes the resource has',
    async () => {
      const others = Array.from({ length: 10 }, (_, i) =>
        code({ id: 100 + i, account: { id: 50 + i, name: `m${i}`, avatar: '' }, masked: true }),
      );
      const { calls } = mockApi({
        'GET /api/current_account': account({ id: ME.id, name: ME.name, is_admin: 1 }),
        // As the server does: the filters narrow to the caller's code; without them, page 1
        // holds ten newer codes of other members (it used to be searched for the member's).
        'GET /api/tunnel': (call: RecordedCall) =>
          call.query.get('account_id') === String(ME.id) && call.query.get('type') === 'normal'
            ? paged([code({ account: ME })])
            : paged(others),
      });
      show(CONNECT_PANEL, <ConnectPanel resource={projectResource({ id: 11, name: 'web' })} />);
      const panel = await findDialog('Connect to web');
      expect(await within(panel).findByText('abcdefghijklmnopqrst')).toBeInTheDocument();
      const asked = calls.find((c) => c.path === '/api/tunnel')!;
      expect(asked.query.get('project_resource_id')).toBe('11');
      expect(Number(asked.query.get('expire_time_gt'))).toBeGreaterThan(T);
    },
    SLOW,
  );
});

describe('Connect Logs panel', () => {
  it(
    'lists the resource’s sessions with playback and download, pages, and links to all logs',
    async () => {
      const user = userEvent.setup({ delay: null });
      const rows = [
        entry(12, { unsafe_mode: 1 }),
        entry(11, { date: T + 11 * 100 - 5 }), // ended before it began: nothing to play
        entry(10, { play: 0 }),
        entry(9, { date: 0, play: 0 }), // still open
        entry(8, { way: 'mysql' }),
        entry(7, { date: T + 7 * 100 }), // began and ended in the same second
      ];
      const { calls } = mockApi({
        'GET /api/search_tunnel': (call: RecordedCall) =>
          call.query.get('page_index') === '2'
            ? { total: 12, data: [entry(2)] }
            : { total: 12, data: rows },
      });
      show(
        CONNECT_LOGS_PANEL,
        <ConnectLogsPanel resource={projectResource({ id: 11, name: 'web', resource_id: 111 })} />,
      );
      const panel = await findDialog('Connect Logs · web');
      const first = (await within(panel).findByText('Unsafe mode')).closest('tr') as HTMLElement;
      const search = calls.find((c) => c.path === '/api/search_tunnel');
      expect(search?.query.get('resource_id')).toBe('111');
      expect(search?.query.get('page_size')).toBe('10');

      expect(within(first).getByText('wetty')).toBeInTheDocument();
      expect(within(first).getByText('172.16.0.3')).toBeInTheDocument();
      expect(within(first).getByText('00:01:05')).toBeInTheDocument();
      expect(within(first).getByRole('link', { name: /Playback/ })).toHaveAttribute(
        'href',
        '/playlog.html?connection_id=12&way=wetty',
      );
      expect(within(first).getByRole('button', { name: /Download/ })).toBeInTheDocument();

      const [, backwards, unplayed, open, database, instant] = within(panel)
        .getAllByRole('row')
        .slice(1);
      expect(within(backwards!).queryByRole('link', { name: /Playback/ })).toBeNull();
      expect(within(backwards!).getByText('00:00:00')).toBeInTheDocument();
      expect(within(backwards!).getByRole('button', { name: /Download/ })).toBeInTheDocument();
      expect(within(unplayed!).queryByRole('button', { name: /Download/ })).toBeNull();
      expect(within(open!).getByText('Online')).toBeInTheDocument();
      expect(within(database!).queryByRole('link', { name: /Playback/ })).toBeNull();
      expect(within(database!).getByRole('button', { name: /Download/ })).toBeInTheDocument();
      // Nothing to play back in no time, but the recording downloads.
      expect(within(instant!).queryByRole('link', { name: /Playback/ })).toBeNull();
      expect(within(instant!).getByRole('button', { name: /Download/ })).toBeInTheDocument();
      // The actions stay at the panel's right edge, never cut off by a wide row ("Downlo").
      const actions = within(first)
        .getByRole('button', { name: /Download/ })
        .closest('td');
      expect(actions).toHaveClass('ant-table-cell-fix-end');

      expect(within(panel).getByRole('link', { name: /Show all/ })).toHaveAttribute(
        'href',
        '/operation/log?resourceName=111%3Aweb',
      );
      await user.click(within(panel).getByRole('listitem', { name: '2' }));
      await waitFor(() => expect(calls.at(-1)?.query.get('page_index')).toBe('2'));
    },
    SLOW,
  );

  it(
    'says so when there is no session yet',
    async () => {
      mockApi({ 'GET /api/search_tunnel': { total: 0, data: [] } });
      show(CONNECT_LOGS_PANEL, <ConnectLogsPanel resource={projectResource({ name: 'web' })} />);
      const panel = await findDialog('Connect Logs · web');
      expect(await within(panel).findByText('No connection yet')).toBeInTheDocument();
    },
    SLOW,
  );
});

describe('full-page terminal', () => {
  it('explains a path without a resource', async () => {
    mockApi({});
    renderApp('/operation/terminal/none');
    expect(await screen.findByText('No resource was named to connect to.')).toBeInTheDocument();
  });
});

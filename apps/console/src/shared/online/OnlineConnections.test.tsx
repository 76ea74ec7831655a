/**
 * The online sessions dialog (header) and the workgroup detail's online connections panel:
 * both list what the server answers and cut after a confirmation.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { apiError, mockApi, type RecordedCall } from '../../test/api-mock';
import { account, onlineConnection, paged, shellReplies } from '../../test/fixtures';
import { findDialog, renderApp } from '../../test/render';
import { projectResource, workgroup } from '../../features/workgroup/test-fixtures';

afterEach(() => vi.unstubAllGlobals());

const SLOW = 120_000;

const rowOf = (name: string) => screen.getByText(name).closest('tr') as HTMLElement;

describe('online connections', () => {
  it(
    'opens from the header count, lists sessions and disconnects the selected ones',
    async () => {
      const user = userEvent.setup({ delay: null });
      let live = [
        onlineConnection(1, 'erin'),
        onlineConnection(2, 'frank'),
        onlineConnection(3, 'gina'),
      ];
      const { calls } = mockApi({
        ...shellReplies(account()),
        'GET /api/v1/tunnel_connection/count': () => ({ count: live.length }),
        'GET /api/v1/tunnel_connection/list': () => paged(live),
        'POST /api/tunnel_connection/delete_all': (call: RecordedCall) => {
          const ids = (call.body as { connection_ids: number[] }).connection_ids;
          live = live.filter((c) => !ids.includes(c.id));
          return { ok: true, cut: ids.length };
        },
        'DELETE /api/tunnel_connection/3': apiError(404, 'ConnectionIDNotFound'),
      });
      renderApp('/personal/info');
      await user.click(await screen.findByRole('button', { name: 'Online sessions: 3' }));
      const dialog = await findDialog('Online sessions');
      await within(dialog).findByText('erin');
      const erin = rowOf('erin');
      expect(within(erin).getByText('Ops')).toBeInTheDocument();
      expect(within(erin).getByText('192.0.2.7')).toBeInTheDocument();
      expect(within(erin).getByText('terminal')).toBeInTheDocument();
      expect(within(erin).getByText('01:02:05')).toBeInTheDocument();

      const bulk = within(dialog).getByRole('button', { name: /Disconnect$/ });
      expect(bulk).toBeDisabled();
      await user.click(within(erin).getByRole('checkbox'));
      await user.click(within(rowOf('frank')).getByRole('checkbox'));
      await user.click(within(dialog).getByRole('button', { name: /Disconnect 2 sessions/ }));
      // The confirmation, which says how many end (before, "The session ends at once"), then
      // the batch call.
      const confirm = await screen.findByRole('tooltip');
      expect(
        within(confirm).getByText(
          'The 2 selected sessions end at once; their members can connect again while their codes are valid.',
        ),
      ).toBeInTheDocument();
      await user.click(within(confirm).getByRole('button', { name: 'Disconnect' }));
      await waitFor(() =>
        expect(calls.find((c) => c.path === '/api/tunnel_connection/delete_all')?.body).toEqual({
          connection_ids: [1, 2],
        }),
      );
      await waitFor(() => expect(within(dialog).queryByText('erin')).toBeNull());
      expect(await screen.findByText('Online sessions: 1')).toBeInTheDocument();

      // One row; a session already gone is said as information.
      await user.click(within(rowOf('gina')).getByRole('button', { name: 'Disconnect gina' }));
      const again = (await screen.findAllByRole('tooltip')).at(-1) as HTMLElement;
      await user.click(within(again).getByRole('button', { name: 'Disconnect' }));
      expect(await screen.findByText('The connection does not exist')).toBeInTheDocument();
    },
    SLOW,
  );

  it(
    'opens a resource’s online connections from its row in the workgroup detail',
    async () => {
      const user = userEvent.setup({ delay: null });
      let live = [onlineConnection(4, 'hana')];
      const { calls } = mockApi({
        ...shellReplies(account({ id: 7, is_admin: 0 })),
        'GET /api/v1/project/5': workgroup({ id: 5, name: 'Ops' }),
        'GET /api/v1/project/resources/5': () =>
          paged([projectResource({ id: 11, name: 'web', online_connections: live.length })]),
        'GET /api/v1/tunnel_connection/list': () => paged(live),
        'DELETE /api/tunnel_connection/4': () => {
          live = [];
          return { ok: true };
        },
      });
      renderApp('/operation/workgroup/5?type=ecs');
      await screen.findByText('web', {}, { timeout: 15_000 });
      await user.click(screen.getByRole('button', { name: 'Online connections of web: 1' }));
      const panel = await findDialog('Online connections · web');
      await within(panel).findByText('hana');
      const listed = calls.find((c) => c.path === '/api/v1/tunnel_connection/list');
      expect(listed?.query.get('q_project')).toBe('5');
      expect(listed?.query.get('q_resource')).toBe('111');
      await user.click(within(panel).getByRole('button', { name: 'Disconnect hana' }));
      const confirm = await screen.findByRole('tooltip');
      await user.click(within(confirm).getByRole('button', { name: 'Disconnect' }));
      await waitFor(() => expect(within(panel).queryByText('hana')).toBeNull());
      expect(
        await screen.findByRole('button', { name: 'Online connections of web: 0' }),
      ).toBeInTheDocument();
    },
    SLOW,
  );

  it(
    'goes back a page when the last row of the last page is cut',
    async () => {
      const user = userEvent.setup({ delay: null });
      let live = Array.from({ length: 11 }, (_, i) => onlineConnection(i + 1, `member-${i + 1}`));
      mockApi({
        ...shellReplies(account()),
        'GET /api/v1/tunnel_connection/count': () => ({ count: live.length }),
        'GET /api/v1/tunnel_connection/list': (call: RecordedCall) =>
          paged(live, Number(call.query.get('page') ?? 1)),
        'DELETE /api/tunnel_connection/11': () => {
          live = live.filter((c) => c.id !== 11);
          return { ok: true };
        },
      });
      renderApp('/personal/info');
      await user.click(await screen.findByRole('button', { name: 'Online sessions: 11' }));
      const dialog = await findDialog('Online sessions');
      await within(dialog).findByText('member-1');
      await user.click(within(dialog).getByTitle('2'));
      await within(dialog).findByText('member-11');
      await user.click(within(rowOf('member-11')).getByRole('button', { name: /Disconnect/ }));
      const confirm = await screen.findByRole('tooltip');
      await user.click(within(confirm).getByRole('button', { name: 'Disconnect' }));
      // Page 2 is gone: the first page shows, not "No online sessions" with no pager.
      expect(await within(dialog).findByText('member-1')).toBeInTheDocument();
      expect(within(dialog).queryByText('No online sessions')).toBeNull();
    },
    SLOW,
  );
});

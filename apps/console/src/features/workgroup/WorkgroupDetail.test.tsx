import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ProjectResource } from '@portcullis/contract';
import { mockApi, type RecordedCall } from '../../test/api-mock';
import { account, paged, shellReplies } from '../../test/fixtures';
import { findDialog, renderApp } from '../../test/render';
import { workgroupMember } from '../workgroup-admin/fixtures';
import { option } from '../workgroup-admin/test-kit';
import { projectResource, workgroup } from './test-fixtures';

afterEach(() => vi.unstubAllGlobals());

const SLOW = 120_000;
const MEMBER = account({ id: 7, is_admin: 0 });

describe('workgroup detail', () => {
  it(
    'lists servers and databases with their state and the actions their rules allow',
    async () => {
      const user = userEvent.setup({ delay: null });
      const servers: ProjectResource[] = [
        projectResource({
          id: 11,
          name: 'web',
          code: 'abcd****st',
          online_connections: 2,
          logs: 7,
        }),
        projectResource({ id: 12, name: 'desk', os: 'win32', port: 3389, agent_status: 0 }),
      ];
      const databases: ProjectResource[] = [
        projectResource({
          id: 21,
          name: 'orders',
          os: 'mysql',
          type: 'rds',
          port: 3306,
          resource: {
            status: 2,
            resource_type: 'mysql',
            network_id: 3,
            extension: { username: [], login_username: [] },
          },
        }),
        projectResource({ id: 22, name: 'stats', os: 'postgresql', type: 'rds', port: 5432 }),
      ];
      const { calls } = mockApi({
        ...shellReplies(MEMBER),
        'GET /api/v1/project/5': workgroup({ id: 5, name: 'Ops' }),
        'GET /api/v1/project/resources/5': (call: RecordedCall) =>
          paged(call.query.get('type') === 'rds' ? databases : servers),
        'PUT /api/project_resource/11/default_username': (call: RecordedCall) =>
          projectResource({
            id: 11,
            default_username: (call.body as { default_username: string }).default_username,
          }),
      });
      // The search rides in the URL: by IP here.
      const app = renderApp('/operation/workgroup/5?type=ecs&q_ip=10.0');
      const web = (await screen.findByText('web', {}, { timeout: 15_000 })).closest(
        'tr',
      ) as HTMLElement;
      const listed = calls.find((c) => c.path === '/api/v1/project/resources/5');
      expect(listed?.query.get('q_ip')).toBe('10.0');
      expect(listed?.query.get('type')).toBe('ecs');
      expect(screen.getByRole('searchbox', { name: 'Search servers' })).toHaveValue('10.0');
      expect(within(web).getByLabelText('Linux')).toBeTruthy();
      expect(within(web).getByLabelText('Cluster Lab is available')).toBeTruthy();
      expect(within(web).getByText('abcd****st')).toBeInTheDocument();
      expect(within(web).getByText('2')).toBeInTheDocument();
      expect(within(web).getByText('7')).toBeInTheDocument();
      expect(within(web).getByRole('button', { name: 'Connect to web' })).toBeEnabled();
      expect(within(web).getByRole('button', { name: 'Manage codes of web' })).toBeEnabled();
      const desk = screen.getByText('desk').closest('tr') as HTMLElement;
      expect(within(desk).getByLabelText('Windows')).toBeTruthy();
      expect(within(desk).getByLabelText('Cluster Lab is unavailable')).toBeTruthy();
      for (const name of ['Connect to desk', 'Config of desk', 'Manage codes of desk']) {
        expect(within(desk).getByRole('button', { name })).toBeDisabled();
      }
      expect(screen.getByRole('link', { name: /Export Ansible/ })).toHaveAttribute(
        'href',
        '/api/project/5/hosts?type=ansible&export=true',
      );

      // Config: the default login user among the workgroup's.
      await user.click(within(web).getByRole('button', { name: 'Config of web' }));
      const config = await findDialog('Linux default login user');
      await user.click(within(config).getByRole('combobox'));
      await user.click(await screen.findByTitle('deploy'));
      await user.click(within(config).getByRole('button', { name: 'Save' }));
      expect(await screen.findByText('Update successfully!')).toBeInTheDocument();
      expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ default_username: 'deploy' });

      // Databases: Check, and Start Application only where SQL approval is on (status 2).
      await user.click(screen.getByRole('tab', { name: 'Databases' }));
      const orders = (await screen.findByText('orders')).closest('tr') as HTMLElement;
      expect(app.location()).toBe('/operation/workgroup/5?type=rds');
      expect(within(orders).getByLabelText('MySQL')).toBeTruthy();
      expect(
        within(orders).getByRole('button', { name: 'Start an application for orders' }),
      ).toBeInTheDocument();
      expect(within(orders).getByRole('button', { name: 'Check orders' })).toBeInTheDocument();
      expect(within(orders).queryByRole('button', { name: 'Config of orders' })).toBeNull();
      const stats = screen.getByText('stats').closest('tr') as HTMLElement;
      expect(
        within(stats).queryByRole('button', { name: 'Start an application for stats' }),
      ).toBeNull();
      expect(screen.queryByRole('link', { name: /Export Ansible/ })).toBeNull();
    },
    SLOW,
  );

  it(
    'answers a workgroup the member does not reach like a missing one',
    async () => {
      mockApi({
        ...shellReplies(MEMBER),
        'GET /api/v1/project/9': {
          status: 404,
          body: { code: 'ProjectNotFound', error_message: 'x' },
        },
      });
      renderApp('/operation/workgroup/9');
      expect(
        await screen.findByText('The workgroup does not exist', {}, { timeout: 15_000 }),
      ).toBeInTheDocument();
    },
    SLOW,
  );

  it(
    'gives the workgroup’s own administrator a members tab, and an ordinary member none',
    async () => {
      const user = userEvent.setup({ delay: null });
      const ada = workgroupMember({ id: 7, name: 'Ada', account: 'ada@demo.local', role: 1 });
      const bob = workgroupMember({ id: 8, name: 'Bob', account: 'bob@demo.local' });
      let members = [ada, bob];
      let manages = true;
      const { calls } = mockApi({
        ...shellReplies(MEMBER),
        'GET /api/v1/project/5': () =>
          workgroup({ id: 5, name: 'Ops', my_role: manages ? 1 : 0, can_manage: manages }),
        'GET /api/v1/project/resources/5': paged([projectResource()]),
        'GET /api/v1/project/members/5': () => paged(members),
        'GET /api/v1/project/members/5/candidates': [
          { id: 9, name: 'Cleo', account: 'cleo@demo.local' },
        ],
        'POST /api/v1/project/members/5': (call: RecordedCall) => {
          if ((call.body as { account_ids: number[] }).account_ids.includes(9))
            members = [
              ...members,
              workgroupMember({ id: 9, name: 'Cleo', account: 'cleo@demo.local' }),
            ];
          return { ok: true };
        },
        'PATCH /api/project/5/member': (call: RecordedCall) => {
          const body = call.body as { account_id: number; role: 0 | 1 };
          members = members.map((m) => (m.id === body.account_id ? { ...m, role: body.role } : m));
          return members.find((m) => m.id === body.account_id);
        },
        'DELETE /api/v1/project/members/5': (call: RecordedCall) => {
          const ids = (call.body as { account_ids: number[] }).account_ids;
          members = members.filter((m) => !ids.includes(m.id));
          return { ok: true };
        },
      });
      const app = renderApp('/operation/workgroup/5?type=member');
      const bobRow = (await screen.findByText('bob@demo.local', {}, { timeout: 15_000 })).closest(
        'tr',
      ) as HTMLElement;
      // Ordinary team members have no member pages: the name is text, not a link.
      expect(within(bobRow).queryByRole('link')).toBeNull();
      expect(screen.getByRole('tab', { name: 'Members', selected: true })).toBeInTheDocument();

      await user.click(screen.getByRole('button', { name: /Distribute/ }));
      const panel = await findDialog('Add member');
      await user.click(within(panel).getByRole('combobox'));
      await user.click(await option('Cleo (cleo@demo.local)'));
      await user.click(within(panel).getByRole('button', { name: 'Add' }));
      const cleoRow = (await screen.findByText('cleo@demo.local')).closest('tr') as HTMLElement;
      expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ account_ids: [9], role: 0 });

      await user.click(within(bobRow).getByRole('combobox', { name: 'Type of Bob' }));
      await user.click(await option('Administrator'));
      await screen.findByText('Change successfully!');
      expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({ account_id: 8, role: 1 });

      await user.click(within(cleoRow).getByRole('button', { name: /Delete Cleo/ }));
      const confirm = await screen.findByRole('tooltip', { name: /Delete this member/ });
      await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
      await waitFor(() => expect(screen.queryByText('cleo@demo.local')).toBeNull());
      app.unmount();

      // Someone who does not manage it gets the servers tab, whatever the URL says.
      manages = false;
      renderApp('/operation/workgroup/5?type=member');
      expect(await screen.findByText('server-11', {}, { timeout: 15_000 })).toBeInTheDocument();
      expect(screen.queryByRole('tab', { name: 'Members' })).toBeNull();
    },
    SLOW,
  );
});

import { useEffect, type ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Code, ProjectResource } from '@portcullis/contract';
import { mockApi, type RecordedCall } from '../../test/api-mock';
import { account, paged } from '../../test/fixtures';
import { findDialog, queryDialog, renderInApp } from '../../test/render';
import { PanelProvider } from '../../shared/panel/PanelProvider';
import { usePanel } from '../../shared/panel/panel-context';
import { ManageCodePanel, MANAGE_CODE_PANEL } from './components/ManageCodePanel';
import { code, projectResource, workgroup } from './test-fixtures';

afterEach(() => vi.unstubAllGlobals());

const SLOW = 120_000;
const ME = { id: 7, name: 'Mia', avatar: '' };
const NOW = Math.floor(Date.now() / 1000);

function serve(codes: Code[], extra: Record<string, unknown> = {}) {
  let list = [...codes];
  return mockApi({
    'GET /api/current_account': account({ id: ME.id, name: ME.name, is_admin: 0 }),
    'GET /api/tunnel': () => paged(list),
    'PATCH /api/tunnel/1': (call: RecordedCall) => {
      list = list.filter((c) => c.id !== 1);
      return { ...codes[0], ...(call.body as object), status: 'disable' };
    },
    ...extra,
  });
}

// The panel on its own (the detail page's rows that open it are covered in WorkgroupDetail).
function Opened({ resource }: { resource: ProjectResource }): ReactNode {
  const { open } = usePanel();
  useEffect(() => open(MANAGE_CODE_PANEL), [open]);
  return <ManageCodePanel resource={resource} workgroup={workgroup({ id: 5, name: 'Ops' })} />;
}

function openCodes(resource: ProjectResource): Promise<HTMLElement> {
  renderInApp(
    <PanelProvider>
      <Opened resource={resource} />
    </PanelProvider>,
  );
  return findDialog(`Manage Code · ${resource.name}`);
}

describe('Manage Code', () => {
  it(
    'highlights an expired code, offers Change only for ordinary codes, deletes by disabling',
    async () => {
      const user = userEvent.setup({ delay: null });
      const mine = code({
        id: 1,
        account: ME,
        expire_time: NOW - 60,
        expired: true,
        allow_ip: '10.0.0.1:10.0.0.2',
      });
      const shared = code({
        id: 2,
        type: 'tmp_share',
        code: 'zyxw****ba',
        masked: true,
        account: { id: 8, name: 'Bo', avatar: '' },
      });
      const resource = projectResource({ id: 11, name: 'web' });
      const { calls } = serve([mine, shared]);
      const panel = await openCodes(resource);
      const own = (await within(panel).findByText('Mia')).closest('tr') as HTMLElement;
      expect(own).toHaveClass('pc-code-expired');
      expect(within(own).getByText('Expired')).toBeInTheDocument();
      expect(within(own).getByText('10.0.0.1, 10.0.0.2')).toBeInTheDocument();
      expect(within(own).getByRole('button', { name: 'Change the code of Mia' })).toBeEnabled();
      const tmp = within(panel).getByText('Bo').closest('tr') as HTMLElement;
      expect(tmp).not.toHaveClass('pc-code-expired');
      expect(within(tmp).getByText('Temporary')).toBeInTheDocument();
      expect(within(tmp).getByText('No limit')).toBeInTheDocument();
      expect(within(tmp).queryByRole('button', { name: /Change/ })).toBeNull();
      // One code of her own: Create waits until it is gone.
      expect(within(panel).getByRole('button', { name: /Create/ })).toBeDisabled();
      expect(within(panel).getByRole('button', { name: /Temporary Authorize/ })).toBeEnabled();

      await user.click(within(own).getByRole('button', { name: 'Delete the code of Mia' }));
      const confirm = await screen.findByRole('tooltip');
      // The confirmation says what else happens: the code's open sessions end too.
      expect(within(confirm).getByText(/Its open sessions end at once\./)).toBeInTheDocument();
      await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
      expect(await screen.findByText('Delete successfully!')).toBeInTheDocument();
      expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({ status: 'disable' });
      await waitFor(() => expect(within(panel).queryByText('Mia')).toBeNull());
      expect(within(panel).getByRole('button', { name: /Create/ })).toBeEnabled();
    },
    SLOW,
  );

  it(
    'creates a code within the cluster maximum, with allowed IPs and safe mode',
    async () => {
      const user = userEvent.setup({ delay: null });
      const resource = projectResource({
        id: 11,
        name: 'web',
        max_tunnel_expire_time: 7200,
        safe: { network_safe_mode: 1, safe_mode_approver: 0 },
      });
      const { calls } = serve([], {
        'POST /api/tunnel': (call: RecordedCall) => code({ ...(call.body as object), account: ME }),
      });
      const panel = await openCodes(resource);
      await user.click(within(panel).getByRole('button', { name: /Create/ }));
      const dialog = await findDialog('Create code');
      expect(within(dialog).getByText('At most 2 hours on this cluster.')).toBeInTheDocument();
      expect(within(dialog).getByRole('radio', { name: '30 minutes (default)' })).toBeChecked();

      // One day is past the cluster's two hours: the catalogue's ExpireTimeTooBig text.
      await user.click(within(dialog).getByRole('radio', { name: 'One day' }));
      await user.click(within(dialog).getByRole('textbox', { name: 'Allowed IPs' }));
      await user.paste('10.0.0.1,10.0.0.2');
      await user.click(within(dialog).getByRole('button', { name: 'Create' }));
      expect(
        await within(dialog).findByText('The expiry exceeds the maximum allowed (at most 1 year)'),
      ).toBeInTheDocument();
      expect(
        await within(dialog).findByText(
          'One IPv4 address, or several joined by a colon (10.0.0.1:10.0.0.2)',
        ),
      ).toBeInTheDocument();
      // A custom choice without a date: the red 'select date' prompt.
      await user.click(within(dialog).getByRole('radio', { name: 'Custom' }));
      await within(dialog).findAllByLabelText('Valid until');
      await user.click(within(dialog).getByRole('button', { name: 'Create' }));
      expect(await within(dialog).findByText('select date')).toBeInTheDocument();
      expect(calls.some((c) => c.method === 'POST')).toBe(false);

      await user.click(within(dialog).getByRole('radio', { name: '30 minutes (default)' }));
      const ip = within(dialog).getByRole('textbox', { name: 'Allowed IPs' });
      await user.clear(ip);
      await user.click(ip);
      await user.paste('10.0.0.1:10.0.0.2');
      await user.click(within(dialog).getByRole('switch', { name: 'Safe mode' }));
      await user.click(within(dialog).getByRole('button', { name: 'Create' }));
      expect(await screen.findByText('Create successfully!')).toBeInTheDocument();
      expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
        project_resource_id: 11,
        allow_ip: '10.0.0.1:10.0.0.2',
        expire: 0.5,
        safe_mode: 0,
      });
    },
    SLOW,
  );

  it(
    'authorizes temporarily with the spec’s messages and shows the credentials once',
    async () => {
      const user = userEvent.setup({ delay: null });
      const resource = projectResource({ id: 11, name: 'web', max_tunnel_expire_time: 3600 });
      const { calls } = serve([], {
        'POST /api/tunnel/tmp_share': (call: RecordedCall) => {
          const body = call.body as { psw: string; allow_ip: string; username: string };
          return {
            ...code({
              id: 9,
              type: 'tmp_share',
              code: 'tmpcodetmpcodetmpcod',
              account: ME,
              allow_ip: body.allow_ip,
              tmp_username: body.username,
              connect: {
                host: 'gw.example',
                port: 9998,
                command: 'ssh -p 9998 tmpcodetmpcodetmpcod@gw.example',
              },
            }),
            psw: body.psw,
          };
        },
      });
      const panel = await openCodes(resource);
      await user.click(within(panel).getByRole('button', { name: /Temporary Authorize/ }));
      const dialog = await findDialog('Temporary Authorize');
      expect(
        within(dialog).getByText('At most 60 minutes, as the administrator set.'),
      ).toBeTruthy();
      const password = within(dialog).getByLabelText('One-time password') as HTMLInputElement;
      expect(password.value).toHaveLength(16);

      // A preset above the administrator's hour.
      await user.click(within(dialog).getByRole('radio', { name: '120 minutes' }));
      await user.click(within(dialog).getByRole('button', { name: 'Authorize' }));
      expect(
        await within(dialog).findByText(
          'Creation failed, the effective time has exceeded the maximum effective time of the code set by the administrator',
        ),
      ).toBeInTheDocument();
      // Custom minutes below 1.
      await user.click(within(dialog).getByRole('radio', { name: 'Custom' }));
      await user.click(
        await within(dialog).findByRole('spinbutton', { name: 'Effective minutes' }),
      );
      await user.paste('0');
      await user.click(within(dialog).getByRole('button', { name: 'Authorize' }));
      expect(
        await within(dialog).findByText('the maximum effective time cannot be less than 1 minutes'),
      ).toBeInTheDocument();
      expect(calls.some((c) => c.path === '/api/tunnel/tmp_share')).toBe(false);

      await user.click(within(dialog).getByRole('radio', { name: '60 minutes' }));
      await user.click(within(dialog).getByRole('textbox', { name: 'Allowed IPs' }));
      await user.paste('192.168.1.9');
      await user.click(within(dialog).getByRole('button', { name: 'Authorize' }));
      const result = await findDialog('Temporary authorization');
      const sent = calls.find((c) => c.path === '/api/tunnel/tmp_share')?.body as Record<
        string,
        unknown
      >;
      expect(sent).toMatchObject({
        project_resource_id: 11,
        username: 'root',
        allow_ip: '192.168.1.9',
        expire_time: 60,
      });
      expect(sent.expire_time_customize).toBeUndefined();
      const psw = String(sent.psw);
      expect(within(result).getByText('tmpcodetmpcodetmpcod')).toBeInTheDocument();
      expect(within(result).getByText(psw)).toBeInTheDocument();
      expect(within(result).getByText('root')).toBeInTheDocument();
      expect(
        within(result).getByText('ssh -p 9998 tmpcodetmpcodetmpcod@gw.example'),
      ).toBeInTheDocument();

      await user.click(within(result).getByRole('button', { name: 'I have copied them' }));
      await waitFor(() => expect(queryDialog('Temporary authorization')).toBeUndefined());
      expect(screen.queryByText(psw)).toBeNull();
    },
    SLOW,
  );
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { SshKey } from '@portcullis/contract';
import { apiError, mockApi, type RecordedCall } from '../../test/api-mock';
import { account, summary } from '../../test/fixtures';
import { findDialog, renderApp } from '../../test/render';

afterEach(() => vi.unstubAllGlobals());

function key(id: number): SshKey {
  return {
    id,
    title: `key-${id}`,
    fingerprint: `SHA256:fp${id}`,
    key_type: 'ssh-ed25519',
    create_time: 1_700_000_000,
    last_time: id === 1 ? 1_700_000_100 : null,
  };
}

function serve(keys: SshKey[], extra: Record<string, unknown> = {}) {
  let list = [...keys];
  return mockApi({
    'GET /api/current_account': account(),
    'GET /api/v1/summary': summary(),
    'GET /api/v2/utils/notification_banner/csos': null,
    'GET /api/v1/tunnel_connection/count': { count: 0 },
    'GET /api/account_pubkey': (call: RecordedCall) => {
      const page = Number(call.query.get('page'));
      const size = Number(call.query.get('page_size'));
      return {
        objects: list.slice((page - 1) * size, page * size),
        num_results: list.length,
        total_pages: Math.ceil(list.length / size),
        page,
      };
    },
    'DELETE /api/account_pubkey/1': () => {
      list = list.filter((k) => k.id !== 1);
      return { ok: true };
    },
    ...extra,
  });
}

describe('SSH keys', () => {
  it('shows the empty state', async () => {
    serve([]);
    renderApp('/personal/sshkey');
    expect(await screen.findByText('No Data')).toBeInTheDocument();
  });

  it('lists keys with their times and no pager for 10 or fewer', async () => {
    serve(Array.from({ length: 10 }, (_, i) => key(i + 1)));
    renderApp('/personal/sshkey');
    const row = (await screen.findByText('key-1')).closest('tr') as HTMLElement;
    expect(within(row).getByText('ssh-ed25519')).toBeInTheDocument();
    // Last verified and added, both as YYYY-MM-DD HH:mm:ss.
    expect(within(row).getAllByText(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)).toHaveLength(2);
    const never = (await screen.findByText('key-2')).closest('tr') as HTMLElement;
    expect(within(never).getByText('Never')).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: /pagination/i })).not.toBeInTheDocument();
    expect(document.querySelector('.ant-pagination')).toBeNull();
  });

  it('pages when there are more than 10', async () => {
    const user = userEvent.setup({ delay: null });
    const { calls } = serve(Array.from({ length: 11 }, (_, i) => key(i + 1)));
    renderApp('/personal/sshkey');
    await screen.findByText('key-1');
    expect(document.querySelector('.ant-pagination')).not.toBeNull();
    await user.click(screen.getByTitle('2'));
    expect(await screen.findByText('key-11')).toBeInTheDocument();
    expect(calls.some((c) => c.path === '/api/account_pubkey' && c.query.get('page') === '2')).toBe(
      true,
    );
  });

  it('asks before deleting', async () => {
    const user = userEvent.setup({ delay: null });
    const { calls } = serve([key(1), key(2)]);
    renderApp('/personal/sshkey');
    await user.click(await screen.findByRole('button', { name: 'Delete the key key-1' }));
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    const confirm = await screen.findByRole('tooltip');
    expect(within(confirm).getByText('Delete this SSH key?')).toBeInTheDocument();
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Delete successfully!')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('key-1')).not.toBeInTheDocument());
    expect(calls.some((c) => c.method === 'DELETE' && c.path === '/api/account_pubkey/1')).toBe(
      true,
    );
  });

  it('adds a key in the panel and reports the server refusing it', async () => {
    const user = userEvent.setup({ delay: null });
    const { calls } = serve([], {
      'POST /api/account_pubkey': apiError(400, 'AccountPubKeyError'),
    });
    renderApp('/personal/sshkey');
    await user.click(await screen.findByRole('button', { name: /Add SSH key/ }));
    const panel = await findDialog('Add SSH key');
    await user.click(within(panel).getByRole('button', { name: 'Add' }));
    expect(await within(panel).findByText('Please enter a name for the key')).toBeInTheDocument();
    expect(within(panel).getByText('Please paste the public key')).toBeInTheDocument();
    await user.type(within(panel).getByRole('textbox', { name: 'Name' }), 'laptop');
    await user.type(
      within(panel).getByRole('textbox', { name: 'Public key' }),
      'ssh-ed25519 AAAA bad',
    );
    await user.click(within(panel).getByRole('button', { name: 'Add' }));
    expect(
      await screen.findByText('Upload failed: The SSH public key is invalid'),
    ).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      title: 'laptop',
      pubkey: 'ssh-ed25519 AAAA bad',
    });
  });
});

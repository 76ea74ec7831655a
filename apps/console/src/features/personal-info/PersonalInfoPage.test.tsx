import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mockApi } from '../../test/api-mock';
import { account, summary } from '../../test/fixtures';
import { findDialog, renderApp } from '../../test/render';

afterEach(() => vi.unstubAllGlobals());

function serve(extra: Record<string, unknown> = {}) {
  let name = 'Ada';
  return mockApi({
    'GET /api/current_account': () => account({ name }),
    'GET /api/v1/summary': summary(),
    'GET /api/v2/utils/notification_banner/csos': null,
    'GET /api/v1/tunnel_connection/count': { count: 0 },
    'PATCH /api/current_account': (call: { body: unknown }) => {
      const body = call.body as { name?: string };
      if (body.name) name = body.name;
      return { ok: true };
    },
    'POST /api/file': { file_uuid: '0b9e8b8e-0000-4000-8000-000000000001', path: '/api/file/x' },
    ...extra,
  });
}

function fileInput(): HTMLInputElement {
  const input = document.querySelector('input[type="file"]');
  if (!input) throw new Error('no file input');
  return input as HTMLInputElement;
}

describe('account info', () => {
  it('shows the account, team name and team code', async () => {
    serve();
    renderApp('/personal/info');
    expect(await screen.findByText('ada@demo.local')).toBeInTheDocument();
    expect(screen.getAllByText('Demo Ltd').length).toBeGreaterThan(0);
    expect(screen.getByText('demo')).toBeInTheDocument();
    expect(screen.getByText('Administrator')).toBeInTheDocument();
  });

  it('changes the name in the panel', async () => {
    const user = userEvent.setup({ delay: null });
    serve();
    renderApp('/personal/info');
    await user.click(await screen.findByRole('button', { name: /Edit/ }));
    const panel = await findDialog('Change name');
    const input = within(panel).getByRole('textbox', { name: 'Name' });
    await user.clear(input);
    await user.click(within(panel).getByRole('button', { name: 'Save' }));
    expect(await within(panel).findByText('Please enter your name')).toBeInTheDocument();
    await user.type(input, '  Grace ');
    await user.click(within(panel).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.getByTestId('account-name')).toHaveTextContent('Grace'));
  });

  it('uploads a png avatar through POST /file and refuses others', async () => {
    const { calls } = serve();
    renderApp('/personal/info');
    await screen.findByText('ada@demo.local');

    fireEvent.change(fileInput(), {
      target: { files: [new File(['<svg/>'], 'a.svg', { type: 'image/svg+xml' })] },
    });
    expect(
      await screen.findByText('Only PNG, GIF or JPEG images can be used.'),
    ).toBeInTheDocument();

    const big = new File([new Uint8Array(1_048_577)], 'big.png', { type: 'image/png' });
    fireEvent.change(fileInput(), { target: { files: [big] } });
    expect(await screen.findByText('The maximum supported file size is 1M.')).toBeInTheDocument();
    expect(calls.some((c) => c.path === '/api/file')).toBe(false);

    const png = new File([new Uint8Array([137, 80, 78, 71])], 'me.png', { type: 'image/png' });
    fireEvent.change(fileInput(), { target: { files: [png] } });
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({
        avatar: '0b9e8b8e-0000-4000-8000-000000000001',
      }),
    );
    expect(calls.find((c) => c.path === '/api/file')?.body).toEqual({
      content: 'iVBORw==',
      extension: 'png',
      file_name: 'me.png',
      file_size: 4,
    });
  });
});

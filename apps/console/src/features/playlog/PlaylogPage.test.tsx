/**
 * The playback page's ways out of a recording it cannot play: an archived one is restored from
 * the page and then played; a session that has ended sends the member to sign in, and back; a
 * missing recording offers no download; a database session's statement log is offered for
 * download, never fed to the player.
 * (Playing itself is covered end to end in Chromium.)
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { apiError, mockApi, type RecordedCall } from '../../test/api-mock';
import { renderApp } from '../../test/render';

vi.mock('asciinema-player', () => ({
  // The player needs a real layout engine; here it is enough to know what it was given.
  create: (source: { data: string }, host: HTMLElement) => {
    host.textContent = `player: ${source.data.length} bytes`;
    return { getCurrentTime: () => 0, dispose: () => undefined };
  },
}));

afterEach(() => {
  vi.unstubAllGlobals();
  sessionStorage.clear();
});

const CAST = '{"version":2,"width":80,"height":24}\n[0.1,"o","hi"]\n';

describe('the playback page', () => {
  it('restores an archived recording from the page, then plays it', async () => {
    let archived = true;
    const { calls } = mockApi({
      'GET /api/download_tunnel_log': () =>
        archived ? apiError(400, 'OSSFileArchived') : { status: 200, body: CAST },
      'GET /api/unfreeze_tunnel_log': (call: RecordedCall) => {
        if (call.query.get('check') === '1')
          return archived ? apiError(400, 'OSSFileArchived') : { ok: true };
        archived = false;
        return { ok: true };
      },
    });
    renderApp('/playlog.html?connection_id=9&way=terminal');
    const user = userEvent.setup({ delay: null });
    const alert = await screen.findByRole('alert');
    // Before, only a message: no way to restore from the page.
    await user.click(within(alert).getByRole('button', { name: /Restore/ }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: /Restore/ }));
    // The mock answers JSON: the recording arrives as its JSON text.
    expect(
      await screen.findByText(`player: ${JSON.stringify(CAST).length} bytes`),
    ).toBeInTheDocument();
    const downloads = calls.filter((c) => c.path === '/api/download_tunnel_log');
    expect(downloads).toHaveLength(2);
  });

  it('offers no download of a recording that does not exist', async () => {
    mockApi({ 'GET /api/download_tunnel_log': apiError(404, 'FileNotFound') });
    renderApp('/playlog.html?connection_id=9&way=terminal');
    expect(await screen.findByText('The file does not exist')).toBeInTheDocument();
    // Before, Download stayed on the page and only said the same again.
    expect(screen.queryByRole('button', { name: /Download/ })).toBeNull();
  });

  it('says a database session has a statement log to download, not a playback', async () => {
    const { calls } = mockApi({
      'GET /api/unfreeze_tunnel_log': { ok: true },
      'GET /api/download_tunnel_log': { status: 200, body: '{"sql":"SELECT 1"}\n' },
    });
    renderApp('/playlog.html?connection_id=36&way=postgresql');
    expect(await screen.findByText(/Database sessions have no playback/)).toBeInTheDocument();
    expect(
      await screen.findByRole('button', { name: /Download statement log/ }),
    ).toBeInTheDocument();
    // Before, the statement log went to the player, which showed only "💥".
    expect(calls.filter((c) => c.path === '/api/download_tunnel_log')).toHaveLength(0);
    expect(screen.queryByTestId('playlog-player')).toBeNull();
    expect(screen.queryByRole('combobox', { name: 'Speed' })).toBeNull();
  });

  it('offers no download of a database session without a statement log', async () => {
    mockApi({ 'GET /api/unfreeze_tunnel_log': apiError(404, 'FileNotFound') });
    renderApp('/playlog.html?connection_id=37&way=mysql');
    expect(await screen.findByText('The file does not exist')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Download/ })).toBeNull();
    expect(screen.queryByText(/Database sessions have no playback/)).toBeNull();
  });

  it('sends a signed-out member to sign in, remembering the page to come back to', async () => {
    mockApi({
      'GET /api/download_tunnel_log': apiError(401, 'NeedLogin'),
    });
    renderApp('/playlog.html?connection_id=9&way=terminal');
    await waitFor(() =>
      expect(sessionStorage.getItem('portcullis.returnTo')).toBe(
        '/playlog.html?connection_id=9&way=terminal',
      ),
    );
  });
});

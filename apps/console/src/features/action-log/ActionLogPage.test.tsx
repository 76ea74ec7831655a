import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import dayjs from 'dayjs';
import i18next from 'i18next';
import { LOG_END_PADDING_SECONDS, type ActionLogEntry } from '@portcullis/contract';
import { apiError, mockApi, type RecordedCall } from '../../test/api-mock';
import { account, shellReplies } from '../../test/fixtures';
import { findDialog, renderApp } from '../../test/render';
import { searchQuery, timeBounds } from './filters';

afterEach(async () => {
  vi.unstubAllGlobals();
  await i18next.changeLanguage('en_US');
});

const T = 1_700_000_000;

function entry(id: number, play: number, seconds: number): ActionLogEntry {
  return {
    way: 'terminal',
    code: 'ABCD****78',
    resource_id: 5,
    resource_name: `web-${id}`,
    resource_ip_address: '10.0.0.5',
    account_name: 'erin',
    avatar: '',
    account_id: 7,
    agent_version: '3.0.0',
    start_date: T + id,
    date: T + id + seconds,
    connection_id: id,
    guacamole: 0,
    rdp_width: 0,
    rdp_height: 0,
    client_ip_address: '172.16.0.3',
    unsafe_mode: 0,
    play,
  };
}

describe('action log filters', () => {
  it('pads a date range’s end by a day and counts presets back from now', () => {
    const start = dayjs('2026-03-01 15:00');
    const end = dayjs('2026-03-03 09:00');
    expect(timeBounds({ preset: 'range', range: [start, end] })).toEqual({
      time_from: dayjs('2026-03-01').unix(),
      time_end: dayjs('2026-03-03').unix() + LOG_END_PADDING_SECONDS,
    });
    const now = dayjs('2026-03-10 12:00');
    expect(timeBounds({ preset: 'week' }, now)).toEqual({ time_from: now.unix() - 7 * 86_400 });
    expect(timeBounds({ preset: 'unlimited' }, now)).toEqual({});
    expect(searchQuery({ keywords: ' web ', preset: 'unlimited', unsafe_mode: 0, ip: '' })).toEqual(
      { keywords: 'web', unsafe_mode: '0' },
    );
  });

  it('counts one month as 30 days, and takes a range with no end', () => {
    const now = dayjs('2026-03-31 12:00');
    // A calendar month back from March 31 was 31 days; spec 1 §9 says 30.
    expect(timeBounds({ preset: 'month' }, now)).toEqual({ time_from: now.unix() - 30 * 86_400 });
    expect(timeBounds({ preset: 'range', range: [dayjs('2026-03-01 15:00'), null] })).toEqual({
      time_from: dayjs('2026-03-01').unix(),
    });
  });
});

/** An IntersectionObserver that sees its target at once, as a list scrolled to its end does. */
class SeenAtOnce {
  constructor(private readonly seen: IntersectionObserverCallback) {}
  observe(): void {
    this.seen([{ isIntersecting: true } as IntersectionObserverEntry], this as never);
  }
  disconnect(): void {}
}

describe('the action log list while it scrolls', () => {
  it('shows each entry once when new sessions push the pages down', async () => {
    const rows = Array.from({ length: 30 }, (_, i) => entry(30 - i, 0, 60));
    mockApi({
      ...shellReplies(account({ is_admin: 1 })),
      // Two sessions started between the pages: page 2 begins with page 1's last two rows.
      'GET /api/search_tunnel': (call: RecordedCall) =>
        call.query.get('page_index') === '1'
          ? { total: 30, data: rows.slice(0, 25) }
          : { total: 32, data: rows.slice(23) },
    });
    renderApp('/operation/log');
    await screen.findByTestId('action-log-entry-30');
    const user = userEvent.setup({ delay: null });
    await user.click(screen.getByRole('button', { name: 'Load more' }));
    await screen.findByTestId('action-log-entry-1');
    expect(screen.getAllByTestId('action-log-entry-7')).toHaveLength(1);
    expect(screen.getAllByTestId(/^action-log-entry-/)).toHaveLength(30);
  });

  it('stops loading by itself when a page fails, and Load more tries again', async () => {
    vi.stubGlobal('IntersectionObserver', SeenAtOnce);
    const rows = Array.from({ length: 30 }, (_, i) => entry(30 - i, 0, 60));
    let failing = true;
    const api = mockApi({
      ...shellReplies(account({ is_admin: 1 })),
      'GET /api/search_tunnel': (call: RecordedCall) =>
        call.query.get('page_index') === '1'
          ? { total: 30, data: rows.slice(0, 25) }
          : failing
            ? apiError(500, 'UnknowError')
            : { total: 30, data: rows.slice(25) },
    });
    const secondPages = () =>
      api.calls.filter((c) => c.path === '/api/search_tunnel' && c.query.get('page_index') === '2');
    renderApp('/operation/log');
    await screen.findByTestId('action-log-entry-30');
    await waitFor(() => expect(secondPages()).toHaveLength(1));
    // No new try by itself after the failure (each new observer sees the end at once).
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(secondPages()).toHaveLength(1);
    failing = false;
    const user = userEvent.setup({ delay: null });
    await user.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await screen.findByTestId('action-log-entry-1')).toBeInTheDocument();
  });
});

describe('the action log page', () => {
  it('lists 25 at a time, shows totals, playback and download, and searches', async () => {
    const rows = Array.from({ length: 30 }, (_, i) => entry(30 - i, i === 0 ? 1 : 0, 3_725));
    rows[1] = { ...rows[1]!, date: rows[1]!.start_date - 5 }; // an end before the start
    // `ssh host uptime`: recorded, begun and ended in the same second.
    rows[2] = { ...rows[2]!, play: 1, date: rows[2]!.start_date };
    const api = mockApi({
      ...shellReplies(account({ is_admin: 0 })),
      'GET /api/search_tunnel': (call: RecordedCall) => {
        const page = Number(call.query.get('page_index'));
        const keywords = call.query.get('keywords');
        const match = keywords ? rows.filter((r) => r.resource_name === keywords) : rows;
        return { total: match.length, data: match.slice((page - 1) * 25, page * 25) };
      },
    });
    renderApp('/operation/log');
    const first = await screen.findByTestId('action-log-entry-30');
    expect(within(first).getByText('Total time: 01:02:05')).toBeInTheDocument();
    expect(within(first).getByRole('link', { name: /Playback/ })).toHaveAttribute(
      'href',
      '/playlog.html?connection_id=30&way=terminal',
    );
    expect(within(first).getByRole('button', { name: /Download/ })).toBeInTheDocument();
    const second = screen.getByTestId('action-log-entry-29');
    expect(within(second).getByText('Total time: 00:00:00')).toBeInTheDocument();
    expect(within(second).queryByRole('link', { name: /Playback/ })).not.toBeInTheDocument();
    const instant = screen.getByTestId('action-log-entry-28');
    expect(within(instant).queryByRole('link', { name: /Playback/ })).not.toBeInTheDocument();
    expect(within(instant).getByRole('button', { name: /Download/ })).toBeInTheDocument();
    expect(screen.getByText('30 entries')).toBeInTheDocument();
    expect(screen.queryByTestId('action-log-entry-5')).not.toBeInTheDocument();

    const user = userEvent.setup({ delay: null });
    await user.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await screen.findByTestId('action-log-entry-1')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();

    search(screen.getByRole('searchbox', { name: 'Keywords' }), 'web-7');
    await waitFor(() => expect(screen.getByText('1 entry')).toBeInTheDocument());
    expect(screen.getByText('Keywords: web-7')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Download report/ })).toHaveAttribute(
      'href',
      '/api/search_tunnel?keywords=web-7&export=true',
    );
    const calls = api.calls.filter((c) => c.path === '/api/search_tunnel');
    expect(calls[0]!.query.get('page_size')).toBe('25');
  });

  it('applies the advanced search panel’s preset and fields, and shows them as tags', async () => {
    const api = mockApi({
      ...shellReplies(account({ is_admin: 1 })),
      'GET /api/search_tunnel': { total: 0, data: [] },
    });
    renderApp('/operation/log?resourceName=5:web-1');
    expect(await screen.findByText('No sessions match')).toBeInTheDocument();
    expect(screen.getByText('Resource: web-1')).toBeInTheDocument();
    const user = userEvent.setup({ delay: null });
    await user.click(screen.getByRole('button', { name: /Advanced search/ }));
    await user.click(screen.getByText('Seven days'));
    fireEvent.change(screen.getByRole('textbox', { name: 'IP' }), { target: { value: '10.0.0' } });
    await user.click(screen.getByRole('button', { name: 'Search' }));
    // Both tags, and the search they make, may land a render apart on a busy machine.
    await waitFor(() => {
      expect(screen.getByText('IP: 10.0.0')).toBeInTheDocument();
      expect(screen.getByText('Time: Seven days')).toBeInTheDocument();
    });
    const last = await waitFor(() => {
      const call = api.calls.filter((c) => c.path === '/api/search_tunnel').at(-1)!;
      expect(call.query.get('time_from')).not.toBeNull();
      return call;
    });
    expect(last.query.get('resource_id')).toBe('5');
    expect(last.query.get('ip')).toBe('10.0.0');
    const from = Number(last.query.get('time_from'));
    expect(Math.abs(from - (dayjs().unix() - 7 * 86_400))).toBeLessThan(60);
  });

  it('keeps a closed tag closed when the advanced search is applied again', async () => {
    const api = mockApi({
      ...shellReplies(account({ is_admin: 1 })),
      'GET /api/search_tunnel': { total: 0, data: [] },
    });
    renderApp('/operation/log');
    await screen.findByText('No sessions match');
    const user = userEvent.setup({ delay: null });
    await user.click(screen.getByRole('button', { name: /Advanced search/ }));
    fireEvent.change(screen.getByRole('textbox', { name: 'IP' }), { target: { value: '10.0.0' } });
    await user.click(screen.getByRole('button', { name: 'Search' }));
    const tag = await screen.findByText('IP: 10.0.0');
    await user.click(
      within(tag.closest('.ant-tag') as HTMLElement).getByRole('button', { name: /close/i }),
    );
    await waitFor(() => expect(screen.queryByText('IP: 10.0.0')).toBeNull());
    expect(screen.getByRole('textbox', { name: 'IP' })).toHaveValue('');
    // A keyword searched while the panel is open stays with the panel's next Search.
    search(screen.getByRole('searchbox', { name: 'Keywords' }), 'web-1');
    await screen.findByText('Keywords: web-1');
    await user.click(screen.getByText('Seven days'));
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await screen.findByText('Time: Seven days');
    expect(screen.queryByText('IP: 10.0.0')).toBeNull();
    expect(screen.getByText('Keywords: web-1')).toBeInTheDocument();
    const last = api.calls.filter((c) => c.path === '/api/search_tunnel').at(-1)!;
    expect(last.query.get('ip')).toBeNull();
    expect(last.query.get('keywords')).toBe('web-1');
  });

  it('opens the thaw dialog for an archived recording and restores it', async () => {
    const api = mockApi({
      ...shellReplies(account({ is_admin: 1 })),
      'GET /api/search_tunnel': { total: 1, data: [entry(9, 1, 60)] },
      'GET /api/unfreeze_tunnel_log': (call: RecordedCall) =>
        call.query.get('check') === '1'
          ? apiError(400, 'OSSFileArchived')
          : apiError(400, 'OSSFileRestoring'),
    });
    renderApp('/operation/log');
    const row = await screen.findByTestId('action-log-entry-9');
    const user = userEvent.setup({ delay: null });
    await user.click(within(row).getByRole('button', { name: /Download/ }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(/moved to the archive tier/)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: /Restore/ }));
    expect(await within(dialog).findByText(/Restoring the recording/)).toBeInTheDocument();
    const unfreeze = api.calls.filter((c) => c.path === '/api/unfreeze_tunnel_log');
    expect(unfreeze.map((c) => c.query.get('check'))).toEqual(['1', null]);
    expect(unfreeze[0]!.query.get('connection_id')).toBe('9');
  });

  it('stops polling for good when the thaw dialog is closed with a poll on its way', async () => {
    let polls = 0;
    const api = mockApi({
      ...shellReplies(account({ is_admin: 1 })),
      'GET /api/search_tunnel': { total: 1, data: [entry(9, 1, 60)] },
      'GET /api/unfreeze_tunnel_log': (call: RecordedCall) => {
        if (call.query.get('check') !== '1') return apiError(400, 'OSSFileRestoring');
        if (polls++ === 0) return apiError(400, 'OSSFileArchived');
        // The member closes the dialog while this poll is on its way back.
        fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Cancel' }));
        return apiError(400, 'OSSFileRestoring');
      },
    });
    renderApp('/operation/log');
    const row = await screen.findByTestId('action-log-entry-9');
    const user = userEvent.setup({ delay: null });
    await user.click(within(row).getByRole('button', { name: /Download/ }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: /Restore/ }));
    await waitFor(() => expect(polls).toBe(2), { timeout: 6000 });
    // Before, the answer that came after the close started the polling again, unseen.
    await new Promise((resolve) => setTimeout(resolve, 3500));
    expect(polls).toBe(2);
    expect(api.calls.filter((c) => c.path === '/api/unfreeze_tunnel_log')).toHaveLength(3);
  }, 20_000);

  it('sums up the search in the report panel and downloads it as a report', async () => {
    const byWay: Record<string, number> = { terminal: 20, wetty: 10 };
    const api = mockApi({
      ...shellReplies(account({ is_admin: 1 })),
      'GET /api/search_tunnel': (call: RecordedCall) => {
        const way = call.query.get('way');
        const total = call.query.get('unsafe_mode') === '1' ? 2 : way ? (byWay[way] ?? 0) : 30;
        return { total, data: call.query.get('page_size') === '1' ? [] : [entry(1, 0, 60)] };
      },
    });
    renderApp('/operation/log?resourceName=5:web-1');
    await screen.findByTestId('action-log-entry-1');
    const user = userEvent.setup({ delay: null });
    await user.click(screen.getByRole('button', { name: /Report$/ }));
    const panel = await findDialog('Report');
    expect(within(panel).getByText('Resource: web-1')).toBeInTheDocument();
    const total = within(panel).getByText('Matching sessions').closest('tr')!;
    await waitFor(() => expect(within(total).getByText('30')).toBeInTheDocument());
    const unsafe = within(panel).getByText('In unsafe mode').closest('tr')!;
    expect(await within(unsafe).findByText('2')).toBeInTheDocument();
    const terminal = (await within(panel).findByText('terminal')).closest('tr')!;
    expect(within(terminal).getByText('20')).toBeInTheDocument();
    expect(within(panel).getByText('wetty')).toBeInTheDocument();
    // Ways without a session are left out.
    expect(within(panel).queryByText('rdp')).toBeNull();
    expect(within(panel).getByRole('link', { name: /Download report/ })).toHaveAttribute(
      'href',
      '/api/search_tunnel?resource_id=5&export=true',
    );
    const counts = api.calls.filter((c) => c.query.get('page_size') === '1');
    expect(counts.every((c) => c.query.get('resource_id') === '5')).toBe(true);
  });

  it('suggests resource and account names from the name lists', async () => {
    const api = mockApi({
      ...shellReplies(account({ is_admin: 1 })),
      'GET /api/search_tunnel': { total: 0, data: [] },
      'GET /api/resource/all_name': [
        { id: 5, name: 'web-1' },
        { id: 6, name: 'db-1' },
      ],
      'GET /api/v1/account/list': [{ id: 7, name: 'erin', account: 'erin@demo.local' }],
    });
    renderApp('/operation/log');
    await screen.findByText('No sessions match');
    const user = userEvent.setup({ delay: null });
    await user.click(screen.getByRole('button', { name: /Advanced search/ }));
    await user.click(screen.getByRole('combobox', { name: 'Resource name' }));
    await user.paste('we');
    await waitFor(() =>
      expect(document.querySelector('.ant-select-item-option[title="web-1"]')).not.toBeNull(),
    );
    expect(document.querySelector('.ant-select-item-option[title="db-1"]')).toBeNull();
    await waitFor(() =>
      expect(api.calls.some((c) => c.path === '/api/v1/account/list')).toBe(true),
    );
  });

  it('narrows to one resource picked by name in the advanced search', async () => {
    const api = mockApi({
      ...shellReplies(account({ is_admin: 1 })),
      'GET /api/search_tunnel': { total: 0, data: [] },
      'GET /api/resource/all_name': [
        { id: 5, name: 'web-1' },
        { id: 6, name: 'db-1' },
      ],
    });
    renderApp('/operation/log');
    await screen.findByText('No sessions match');
    const user = userEvent.setup({ delay: null });
    await user.click(screen.getByRole('button', { name: /Advanced search/ }));
    await user.click(screen.getByRole('combobox', { name: 'Resource' }));
    await user.click(await screen.findByTitle('db-1'));
    await user.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByText('Resource: db-1')).toBeInTheDocument();
    await waitFor(() => {
      const last = api.calls.filter((c) => c.path === '/api/search_tunnel').at(-1)!;
      expect(last.query.get('resource_id')).toBe('6');
    });
  });
});

/** A file-log entry: one file session `parent` moved (no recording of its own). */
function fileEntry(
  id: number,
  parent: number,
  file: Pick<ActionLogEntry, 'way' | 'op' | 'filename'>,
): ActionLogEntry {
  const at = T + id;
  // play stays 1 as a server bug would send it: a file entry still offers no recording.
  return { ...entry(id, 1, 0), ...file, start_date: at, date: at, parent_connection_id: parent };
}

const LONG_PATH = `/srv/releases/${'nested-folder/'.repeat(12)}build-2026-11-22.tar.gz`;

describe('file-log entries', () => {
  it('show the op, the file name, the way and the session, without playback or download', async () => {
    mockApi({
      ...shellReplies(account({ is_admin: 1 })),
      'GET /api/search_tunnel': {
        total: 3,
        data: [
          fileEntry(42, 40, { way: 'sftp', op: 'upload', filename: LONG_PATH }),
          fileEntry(41, 40, { way: 'scp', op: 'download', filename: 'notes.txt' }),
          entry(40, 1, 90),
        ],
      },
    });
    renderApp('/operation/log');
    const upload = await screen.findByTestId('action-log-entry-42');
    expect(within(upload).getByText('Upload')).toBeInTheDocument();
    expect(within(upload).getByText('sftp')).toBeInTheDocument();
    const name = within(upload).getByText(LONG_PATH);
    expect(name).toHaveAttribute('title', LONG_PATH);
    expect(name).toHaveClass('action-log-entry__filename');
    expect(within(upload).getByText('In session #40')).toBeInTheDocument();
    const at = dayjs.unix(T + 42).format('YYYY-MM-DD HH:mm:ss');
    expect(within(upload).getByText(`Time: ${at}`)).toBeInTheDocument();
    expect(within(upload).queryByText(/Total time/)).not.toBeInTheDocument();
    expect(within(upload).queryByRole('link', { name: /Playback/ })).not.toBeInTheDocument();
    expect(within(upload).queryByRole('button', { name: /Download/ })).not.toBeInTheDocument();

    const download = screen.getByTestId('action-log-entry-41');
    expect(within(download).getByText('Download')).toBeInTheDocument();
    expect(within(download).getByText('scp')).toBeInTheDocument();
    expect(within(download).getByTitle('notes.txt')).toHaveTextContent('notes.txt');
    expect(within(download).queryByRole('button', { name: /Download/ })).not.toBeInTheDocument();

    // The session itself keeps its recording and names its number for the file entries.
    const session = screen.getByTestId('action-log-entry-40');
    expect(within(session).getByText('Session #40')).toBeInTheDocument();
    expect(within(session).getByRole('link', { name: /Playback/ })).toBeInTheDocument();
    expect(within(session).getByRole('button', { name: /Download/ })).toBeInTheDocument();
  });

  it('reads 上传 and 下载 in Chinese', async () => {
    await i18next.changeLanguage('zh_CN');
    mockApi({
      ...shellReplies(account({ is_admin: 1 })),
      'GET /api/search_tunnel': {
        total: 2,
        data: [
          fileEntry(2, 1, { way: 'sftp', op: 'upload', filename: 'a.txt' }),
          fileEntry(1, 1, { way: 'scp', op: 'download', filename: 'b.txt' }),
        ],
      },
    });
    renderApp('/operation/log');
    const upload = await screen.findByTestId('action-log-entry-2');
    expect(within(upload).getByText('上传')).toBeInTheDocument();
    expect(within(upload).getByText('所属会话 #1')).toBeInTheDocument();
    expect(within(screen.getByTestId('action-log-entry-1')).getByText('下载')).toBeInTheDocument();
  });

  it('filters by way sftp and finds a file by its name through the keywords', async () => {
    const rows = [
      fileEntry(3, 1, { way: 'sftp', op: 'upload', filename: '/tmp/report-q3.csv' }),
      fileEntry(2, 1, { way: 'scp', op: 'download', filename: '/etc/hosts' }),
      entry(1, 0, 60),
    ];
    const api = mockApi({
      ...shellReplies(account({ is_admin: 1 })),
      'GET /api/search_tunnel': (call: RecordedCall) => {
        const way = call.query.get('way');
        const keywords = call.query.get('keywords');
        const match = rows.filter(
          (r) => (!way || r.way === way) && (!keywords || r.filename?.includes(keywords)),
        );
        return { total: match.length, data: match };
      },
    });
    renderApp('/operation/log');
    await screen.findByTestId('action-log-entry-3');
    expect(screen.getByRole('searchbox', { name: 'Keywords' })).toHaveAttribute(
      'placeholder',
      'Account, resource, IP, file name',
    );
    const user = userEvent.setup({ delay: null });
    await user.click(screen.getByRole('button', { name: /Advanced search/ }));
    await user.click(screen.getByRole('combobox', { name: 'Way' }));
    await user.click(await option('sftp'));
    expect(await option('scp')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(screen.getByText('Way: sftp')).toBeInTheDocument());
    await waitFor(() => expect(screen.queryByTestId('action-log-entry-2')).not.toBeInTheDocument());
    expect(screen.getByTestId('action-log-entry-3')).toBeInTheDocument();

    search(screen.getByRole('searchbox', { name: 'Keywords' }), 'report-q3');
    await waitFor(() => expect(screen.getByText('Keywords: report-q3')).toBeInTheDocument());
    const last = api.calls.filter((c) => c.path === '/api/search_tunnel').at(-1)!;
    expect(last.query.get('way')).toBe('sftp');
    expect(last.query.get('keywords')).toBe('report-q3');
    expect(screen.getByRole('link', { name: /Download report/ })).toHaveAttribute(
      'href',
      '/api/search_tunnel?keywords=report-q3&way=sftp&export=true',
    );
  });
});

/** Types `text` into a search box at once and presses Enter (user.type is slow in jsdom). */
function search(box: HTMLElement, text: string): void {
  fireEvent.change(box, { target: { value: text } });
  fireEvent.keyDown(box, { key: 'Enter', code: 'Enter', keyCode: 13 });
}

/** The open select option titled `title`. */
async function option(title: string): Promise<HTMLElement> {
  let found: HTMLElement | null = null;
  await waitFor(() => {
    found = document.querySelector<HTMLElement>(`.ant-select-item-option[title="${title}"]`);
    if (!found) throw new Error(`no option ${title}`);
  });
  return found as unknown as HTMLElement;
}

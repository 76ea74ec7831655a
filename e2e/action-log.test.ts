/**
 * The action log and playback in Chromium against the real server: a finished session with a
 * stored asciicast recording (written through the server's own recording store, as the gateway's
 * upload would), listed on /operation/log with its total time, then played back on playlog.html
 * where the terminal shows what the session printed. A recorded session through the real
 * gateway and sshd is covered by the server's recording tests; here the console is under test.
 *
 * The file log: a file put with the stock OpenSSH sftp client through the real gateway's SSH
 * proxy to the real sshd shows up on the page as an Upload entry with its file name and the
 * session it belongs to, and the keyword search finds it by name.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import type { Gateway } from '../apps/gateway/src/control/client';
import { recordingStore } from '../apps/server/src/features/recordings/tiered-store';
import { openSshClient, run } from '../apps/server/src/features/sessions/openssh.test-helpers';
import { nowSeconds } from '../apps/server/src/lib/time';
import { startSshd, type SshdPeer } from '../scripts/peers/sshd.mjs';
import { ADMIN_EMAIL, ADMIN_PASSWORD, screenshot, startE2E, type E2E } from './harness';
import { api, login, UI_TIMEOUT } from './console';
import { clusterWithKey, connectedGateway } from './fixtures';
import { freePort } from '../apps/gateway/src/test/net';

let e2e: E2E;
let context: BrowserContext;
let page: Page;
let connectionId: number;

/** An ended session of the administrator's in the action log; its id. */
async function session(way: string, start: number, end: number): Promise<number> {
  const { id } = await e2e.ctx.db
    .insertInto('tunnel_connection')
    .values({
      company_id: 1,
      account_id: 1,
      created_at: start,
      ended_at: end,
      way,
      client_ip: '127.0.0.1',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

beforeAll(async () => {
  e2e = await startE2E();
  const now = nowSeconds();
  connectionId = await session('terminal', now - 3_725, now);
  const cast = [
    JSON.stringify({ version: 2, width: 80, height: 24, env: { TERM: 'xterm-256color' } }),
    JSON.stringify([0.2, 'o', '$ echo played back\r\n']),
    JSON.stringify([0.4, 'o', 'played back from the action log\r\n$ ']),
    '',
  ].join('\n');
  // One small chunk: the server keeps it as a row of its database (and marks the row as
  // recorded), which the playback below reads.
  await recordingStore(e2e.ctx).write({ companyId: 1, connectionId }, 0, Buffer.from(cast), {
    recorded: false,
  });
  ({ context, page } = await e2e.newPage());
  await login(e2e, context, page, { username: ADMIN_EMAIL, password: ADMIN_PASSWORD });
});

afterEach(async (ctx) => {
  if (ctx.task.result?.state === 'fail' && page) await screenshot(page, 'action-log-failure');
});

afterAll(async () => {
  await e2e?.close();
});

describe('action log and playback', () => {
  it('lists the session with its total time and plays its recording back', async () => {
    await page.goto('/operation/log');
    const entry = page.getByTestId(`action-log-entry-${connectionId}`);
    await entry.waitFor({ timeout: UI_TIMEOUT });
    await expect(entry.textContent()).resolves.toContain('Total time: 01:02:05');
    await screenshot(page, 'action-log-list');

    // Download asks whether the recording is ready (it is: no archive tier here), then saves it.
    const [file] = await Promise.all([
      page.waitForEvent('download'),
      entry.getByRole('button', { name: /Download/ }).click(),
    ]);
    expect(file.suggestedFilename()).toBe(`${connectionId}.cast`);

    const play = entry.getByRole('link', { name: /Playback/ });
    const [tab] = await Promise.all([context.waitForEvent('page'), play.click()]);
    const errors: string[] = [];
    tab.on('pageerror', (e) => errors.push(e.message));
    await tab.waitForLoadState();
    expect(new URL(tab.url()).pathname).toBe('/playlog.html');
    const player = tab.getByTestId('playlog-player');
    await player.locator('.ap-player').waitFor({ timeout: UI_TIMEOUT });
    // The player waits for a click on its start button.
    await player.click();
    await tab.getByText('played back from the action log').waitFor({ timeout: UI_TIMEOUT });
    await screenshot(tab, 'action-log-playback');
    expect(errors).toEqual([]);
  });

  it('offers the download of a session that began and ended in the same second', async () => {
    // `ssh host uptime`: recorded, nothing to play back, but the file downloads (it was listed
    // with play 0, so neither link showed).
    const now = nowSeconds() - 60;
    const id = await session('terminal', now, now);
    const cast = '{"version":2,"width":80,"height":24}\n[0.01,"o","up 3 days\\r\\n"]\n';
    await recordingStore(e2e.ctx).write({ companyId: 1, connectionId: id }, 0, Buffer.from(cast), {
      recorded: false,
    });
    await page.goto('/operation/log');
    const entry = page.getByTestId(`action-log-entry-${id}`);
    await entry.waitFor({ timeout: UI_TIMEOUT });
    await expect(entry.textContent()).resolves.toContain('Total time: 00:00:00');
    expect(await entry.getByRole('link', { name: /Playback/ }).count()).toBe(0);
    const [file] = await Promise.all([
      page.waitForEvent('download'),
      entry.getByRole('button', { name: /Download/ }).click({ timeout: UI_TIMEOUT }),
    ]);
    expect(file.suggestedFilename()).toBe(`${id}.cast`);
  });

  it('says a database session has a statement log to download, and offers none that is missing', async () => {
    const now = nowSeconds() - 30;
    const insert = async (recorded: boolean) => {
      const id = await session('postgresql', now, now + 2);
      if (recorded) {
        const log = `${JSON.stringify({ at: now, sql: 'SELECT 1' })}\n`;
        await recordingStore(e2e.ctx).write(
          { companyId: 1, connectionId: id },
          0,
          Buffer.from(log),
          {
            recorded: false,
          },
        );
      }
      return id;
    };
    const logged = await insert(true);
    const unlogged = await insert(false);

    const tab = await context.newPage();
    await tab.goto(`/playlog.html?connection_id=${logged}&way=postgresql`);
    await tab.getByText(/Database sessions have no playback/).waitFor({ timeout: UI_TIMEOUT });
    // No player to press play on (it showed only "💥"), the log to download instead.
    expect(await tab.getByTestId('playlog-player').count()).toBe(0);
    const [file] = await Promise.all([
      tab.waitForEvent('download'),
      tab.getByRole('button', { name: /Download statement log/ }).click(),
    ]);
    expect(file.suggestedFilename()).toBe(`${logged}-statements.jsonl`);
    await tab.waitForTimeout(300);
    await screenshot(tab, 'playback-database-way');

    await tab.goto(`/playlog.html?connection_id=${unlogged}&way=postgresql`);
    await tab.getByText('The file does not exist').waitFor({ timeout: UI_TIMEOUT });
    expect(await tab.getByRole('button', { name: /Download/ }).count()).toBe(0);
    await screenshot(tab, 'playback-missing');
    await tab.close();
  });
});

describe('the file log', () => {
  let gateway: Gateway | undefined;
  let sshd: SshdPeer | undefined;
  let dir = '';
  let remote = '';

  afterAll(async () => {
    await gateway?.stop();
    await sshd?.stop();
    if (remote) fs.rmSync(path.dirname(remote), { recursive: true, force: true });
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('lists a file put over sftp through the gateway as an Upload with its name', async () => {
    // A cluster with its gateway's SSH proxy, the real sshd (with sftp) as a resource in a
    // workgroup the administrator belongs to, and a code reached by the administrator's key.
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pc-e2e-file-log-'));
    const { clusterId, key } = await clusterWithKey(context, 'Lab');
    sshd = await startSshd({ options: ['Subsystem sftp internal-sftp'] });
    const port = await freePort();
    gateway = await connectedGateway(e2e, key, {
      host: '127.0.0.1',
      ports: { ssh_port: port },
      sshProxy: { dataDir: path.join(dir, 'gateway'), listenHost: '127.0.0.1' },
    });
    const server = await api<{ id: number }>(context, 'POST', '/v1/resource', {
      network_id: clusterId,
      name: 'sshd-files',
      ip_address: '127.0.0.1',
      os: 'linux',
      port: sshd.port,
      login_users: [{ username: sshd.user, auth_type: 0, password: sshd.password }],
    });
    const workgroup = (await api<{ id: number }>(context, 'POST', '/v1/project', { name: 'Files' }))
      .id;
    await api(context, 'POST', `/v1/project/resources/${workgroup}`, { resource_ids: [server.id] });
    await api(context, 'POST', `/v1/project/members/${workgroup}`, { account_ids: [1], role: 0 });
    const rows = await api<{ objects: { id: number }[] }>(
      context,
      'GET',
      `/v1/project/resources/${workgroup}?type=ecs`,
    );
    const client = await openSshClient(dir);
    await api(context, 'POST', '/account_pubkey', { title: 'e2e', pubkey: client.publicKey });
    const code = await api<{ code: string }>(context, 'POST', '/tunnel', {
      project_resource_id: rows.objects[0]?.id,
    });

    // The remote folder is the sshd user's to write; the name is long enough to wrap.
    const folder = `/tmp/pc-e2e-file-log-${crypto.randomBytes(4).toString('hex')}`;
    remote = `${folder}/quarterly-report-${'with-a-long-name-'.repeat(8)}2026.csv`;
    const local = path.join(dir, 'report.csv');
    fs.writeFileSync(local, 'quarter,total\nQ3,42\n');
    const batch = path.join(dir, 'batch');
    fs.writeFileSync(batch, `-mkdir ${folder}\nput ${local} ${remote}\n`);
    const sftp = await run('sftp', [
      ...client.options('publickey'),
      '-P',
      String(port),
      '-b',
      batch,
      `${code.code}@127.0.0.1`,
    ]);
    expect(sftp.code, sftp.stderr).toBe(0);

    // The gateway reports the file as the client opens it; wait for the row, then read the page.
    const found = async () =>
      e2e.ctx.db
        .selectFrom('tunnel_connection')
        .select(['id', 'parent_id'])
        .where('filename', '=', remote)
        .executeTakeFirst();
    await expect.poll(found, { timeout: UI_TIMEOUT }).toBeTruthy();
    const row = (await found())!;
    await page.goto('/operation/log');
    const entry = page.getByTestId(`action-log-entry-${row.id}`);
    await entry.waitFor({ timeout: UI_TIMEOUT });
    const text = (await entry.textContent()) ?? '';
    expect(text).toContain('Upload');
    expect(text).toContain('sftp');
    expect(text).toContain(`In session #${row.parent_id}`);
    await expect(entry.getByTitle(remote).textContent()).resolves.toBe(remote);
    await expect(entry.getByRole('button', { name: /Download/ }).count()).resolves.toBe(0);
    await expect(entry.getByRole('link', { name: /Playback/ }).count()).resolves.toBe(0);
    await screenshot(page, 'action-log-file-log');

    const search = page.getByRole('searchbox', { name: 'Keywords' });
    await search.fill('quarterly-report');
    await search.press('Enter');
    await page.getByText('Keywords: quarterly-report').waitFor({ timeout: UI_TIMEOUT });
    await expect
      .poll(
        async () => page.getByRole('list', { name: 'Action logs' }).getByRole('listitem').count(),
        { timeout: UI_TIMEOUT },
      )
      .toBe(1);
    await entry.waitFor({ timeout: UI_TIMEOUT });

    // The advanced search's Resource narrows to the resource picked by name; closing the
    // keyword tag leaves the session and its file, and the seeded session (no resource) goes.
    await page
      .getByText('Keywords: quarterly-report')
      .locator('..')
      .getByRole('button', { name: /close/i })
      .click();
    await expect.poll(() => search.inputValue(), { timeout: UI_TIMEOUT }).toBe('');
    await page.getByRole('button', { name: /Advanced search/ }).click();
    await page.getByRole('combobox', { name: 'Resource', exact: true }).click();
    await page.getByTitle('sshd-files').click();
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByText('Resource: sshd-files').waitFor({ timeout: UI_TIMEOUT });
    await expect
      .poll(
        async () => page.getByRole('list', { name: 'Action logs' }).getByRole('listitem').count(),
        { timeout: UI_TIMEOUT },
      )
      .toBe(2);
    await screenshot(page, 'action-log-advanced-resource');
  });
});

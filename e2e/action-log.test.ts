/**
 * The action log and playback in Chromium against the real server: a finished session with a
 * stored asciicast recording (written through the server's own recording store, as the gateway's
 * upload would), listed on /operation/log with its total time, then played back on playlog.html
 * where the terminal shows what the session printed. A recorded session through the real
 * gateway and sshd is covered by the server's recording tests; here the console is under test.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { recordingStore } from '../apps/server/src/features/recordings/store';
import { nowSeconds } from '../apps/server/src/lib/time';
import { ADMIN_EMAIL, ADMIN_PASSWORD, screenshot, startE2E, type E2E } from './harness';
import { login, UI_TIMEOUT } from './console';

let e2e: E2E;
let context: BrowserContext;
let page: Page;
let connectionId: number;

beforeAll(async () => {
  e2e = await startE2E();
  const now = nowSeconds();
  const row = await e2e.ctx.db
    .insertInto('tunnel_connection')
    .values({
      company_id: 1,
      account_id: 1,
      created_at: now - 3_725,
      ended_at: now,
      way: 'ssh',
      client_ip: '127.0.0.1',
      recording: 1,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  connectionId = row.id;
  const cast = [
    JSON.stringify({ version: 2, width: 80, height: 24, env: { TERM: 'xterm-256color' } }),
    JSON.stringify([0.2, 'o', '$ echo played back\r\n']),
    JSON.stringify([0.4, 'o', 'played back from the action log\r\n$ ']),
    '',
  ].join('\n');
  await recordingStore(e2e.ctx.config.dataDir).write(
    { companyId: 1, connectionId },
    0,
    Buffer.from(cast),
  );
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
});

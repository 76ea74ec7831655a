/**
 * The web terminal in Chromium against the real server, a real gateway and the real sshd: a
 * member opens Connect on a Linux server, opens the web terminal, types `echo 你好` and sees
 * it come back rendered by xterm.js; the session is online with way wetty. Then the whole story
 * of a watched session: the administrator sees it among the online sessions and cuts it, the
 * member's terminal says it ended, and the member's playback of it shows what was typed.
 * Screenshots go to .test-artifacts/.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import type { Gateway } from '../apps/gateway/src/control/client';
import { startSshd, type SshdPeer } from '../scripts/peers/sshd.mjs';
import { ADMIN_EMAIL, ADMIN_PASSWORD, screenshot, startE2E, type E2E } from './harness';
import { api, login, UI_TIMEOUT, waitForNoticesGone } from './console';
import { addMember, clusterWithKey, connectedGateway, workgroupWith } from './fixtures';
import { freePort } from '../apps/gateway/src/test/net';

const MEMBER = { account: 'ada@demo.local', name: 'Ada', password: 'Member#Pass2026' };

let e2e: E2E;
let gateway: Gateway | undefined;
let sshd: SshdPeer | undefined;
let tmpDir: string;
let workgroupId = 0;
let labId = 0;
let member: { context: BrowserContext; page: Page };
const opened: BrowserContext[] = [];

async function fresh(): Promise<{ context: BrowserContext; page: Page }> {
  const made = await e2e.newPage();
  opened.push(made.context);
  return made;
}

beforeAll(async () => {
  e2e = await startE2E();
  tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pc-e2e-webterm-'));
  const admin = await fresh();
  await login(e2e, admin.context, admin.page, { username: ADMIN_EMAIL, password: ADMIN_PASSWORD });
  const { context } = admin;
  const { clusterId, key } = await clusterWithKey(context, 'Lab');
  labId = clusterId;
  sshd = await startSshd({});
  gateway = await connectedGateway(e2e, key, {
    host: '127.0.0.1',
    ports: { webssh_port: await freePort() },
    webTerminal: { dataDir: path.join(tmpDir, 'gateway'), listenHost: '127.0.0.1' },
  });

  const server = await api<{ id: number }>(context, 'POST', '/v1/resource', {
    network_id: clusterId,
    name: 'sshd-1',
    ip_address: '127.0.0.1',
    os: 'linux',
    port: sshd.port,
    login_users: [{ username: sshd.user, auth_type: 0, password: sshd.password }],
  });
  const memberId = await addMember(e2e, context, MEMBER);
  const granted = await workgroupWith(context, 'Ops', [server.id], [memberId]);
  workgroupId = granted.workgroupId;
  member = await fresh();
  await login(
    e2e,
    member.context,
    member.page,
    { username: MEMBER.account, password: MEMBER.password },
    '/operation/workgroup',
  );
  await api(member.context, 'POST', '/tunnel', {
    project_resource_id: granted.projectResourceIds[0],
  });
});

afterAll(async () => {
  await gateway?.stop();
  await sshd?.stop();
  for (const context of opened) await context.close().catch(() => undefined);
  await e2e?.close();
  if (tmpDir) fs.rmSync(tmpDir, { recursive: true, force: true });
});

describe('the web terminal', () => {
  it('opens from Connect, runs echo 你好 and renders it', async () => {
    const page = member.page;
    // The window QA saw the terminal run off the screen in.
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`/operation/workgroup/${workgroupId}?type=ecs`);
    const row = page.getByRole('row').filter({ hasText: 'sshd-1' });
    await row.getByRole('button', { name: 'Connect to sshd-1' }).click({ timeout: UI_TIMEOUT });
    await page.getByRole('button', { name: 'Open web terminal' }).click({ timeout: UI_TIMEOUT });
    const terminal = page.getByRole('region', { name: 'Web terminal' });
    await terminal.locator('.xterm-rows').waitFor({ timeout: UI_TIMEOUT });
    // The prompt shows once the shell is up; then keystrokes go to the target.
    await expect
      .poll(async () => (await terminal.locator('.xterm-rows').textContent()) ?? '', {
        timeout: UI_TIMEOUT,
      })
      .toMatch(/[$#]\s*$/m);
    await terminal.locator('.xterm-helper-textarea').focus();
    // The test sshd's login has no UTF-8 locale, so bash's readline would read the bytes of
    // 你 as Meta keys (M-= lists completions); a member's real server has a UTF-8 locale.
    await page.keyboard.type(
      "bind 'set convert-meta off'; bind 'set input-meta on'; bind 'set output-meta on'",
    );
    await page.keyboard.press('Enter');
    await page.keyboard.type('echo ');
    // Characters no key produces arrive as text input, the way an input method delivers them.
    await page.keyboard.insertText('你好');
    await page.keyboard.type('-$((6*7))');
    await page.keyboard.press('Enter');
    await expect
      .poll(async () => (await terminal.locator('.xterm-rows').textContent()) ?? '', {
        timeout: UI_TIMEOUT,
      })
      .toContain('你好-42');
    // The terminal shows whole inside the drawer: before, its bottom was at y≈975 of 900 (the
    // line being typed below the fold) and it ran 8 px into the drawer's right padding.
    const body = page.locator('.ant-drawer-body');
    const [box, inner] = await Promise.all([
      terminal.boundingBox(),
      body.evaluate((el) => {
        const r = el.getBoundingClientRect();
        const style = getComputedStyle(el);
        return {
          right: r.right - parseFloat(style.paddingRight),
          bottom: Math.min(r.bottom, window.innerHeight) - parseFloat(style.paddingBottom),
        };
      }),
    ]);
    expect(box).not.toBeNull();
    expect(box!.x + box!.width).toBeLessThanOrEqual(inner.right + 0.5);
    expect(box!.y).toBeGreaterThanOrEqual(0);
    expect(box!.y + box!.height).toBeLessThanOrEqual(inner.bottom + 0.5);
    const live = await e2e.ctx.db
      .selectFrom('tunnel_connection')
      .select('way')
      .where('ended_at', 'is', null)
      .execute();
    expect(live.map((r) => r.way)).toEqual(['wetty']);
    // The header counts it at once (before: at its next refresh, up to 30 s later).
    await page.getByRole('button', { name: 'Online sessions: 1' }).waitFor({ timeout: UI_TIMEOUT });
    await screenshot(page, 'web-terminal');
  });

  it('is cut by the administrator, and its playback shows the member what was typed', async () => {
    const admin = await fresh();
    await login(e2e, admin.context, admin.page, {
      username: ADMIN_EMAIL,
      password: ADMIN_PASSWORD,
    });
    const page = admin.page;
    // The sign-in notice sits over the header's count until it closes.
    await waitForNoticesGone(page);
    await page.getByRole('button', { name: 'Online sessions: 1' }).click({ timeout: UI_TIMEOUT });
    const sessions = page.getByRole('dialog').filter({
      has: page.locator('.ant-modal-title, .ant-drawer-title', { hasText: 'Online sessions' }),
    });
    const row = sessions.getByRole('row').filter({ hasText: MEMBER.name });
    await row.getByText('sshd-1').waitFor({ timeout: UI_TIMEOUT });
    await row.getByRole('checkbox').check();
    await sessions.getByRole('button', { name: /Disconnect 1 session/ }).click();
    const popover = page.getByRole('tooltip').filter({ hasText: 'Disconnect?' });
    await popover.getByRole('button', { name: 'Disconnect', exact: true }).click();
    await row.waitFor({ state: 'detached', timeout: UI_TIMEOUT });

    // The member's terminal says so, once, with the reason (before: "The session ended: The
    // session was ended by the server: Disconnected from the console (SessionCut)").
    await member.page
      .getByText('The session was ended by the server', { exact: true })
      .waitFor({ timeout: UI_TIMEOUT });
    await member.page
      .getByText('Disconnected from the console', { exact: true })
      .waitFor({ timeout: UI_TIMEOUT });
    await expect(member.page.getByText(/SessionCut/).count()).resolves.toBe(0);
    await waitForNoticesGone(member.page);
    await screenshot(member.page, 'web-terminal-cut');

    // The recording reaches the server once the session has ended; then Playback shows.
    const ended = await e2e.ctx.db
      .selectFrom('tunnel_connection')
      .select('id')
      .where('way', '=', 'wetty')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    await expect
      .poll(
        async () => {
          const reply = await api<{ data: { connection_id: number; play: number }[] }>(
            member.context,
            'GET',
            '/search_tunnel?page=1&page_size=25',
          );
          return reply.data.find((d) => d.connection_id === ended.id)?.play ?? 0;
        },
        { timeout: UI_TIMEOUT },
      )
      .not.toBe(0);
    await member.page.goto('/operation/log');
    const entry = member.page.getByTestId(`action-log-entry-${ended.id}`);
    const [tab] = await Promise.all([
      member.context.waitForEvent('page'),
      entry.getByRole('link', { name: /Playback/ }).click({ timeout: UI_TIMEOUT }),
    ]);
    await tab.waitForLoadState();
    const player = tab.getByTestId('playlog-player');
    await player.locator('.ap-player').waitFor({ timeout: UI_TIMEOUT });
    await player.click();
    await tab
      .getByText(/你好-42/)
      .first()
      .waitFor({ timeout: UI_TIMEOUT });
    await screenshot(tab, 'web-terminal-playback');
  });
  it('pinned the server’s host key at the first session; the administrator can forget it', async () => {
    const admin = await fresh();
    await login(e2e, admin.context, admin.page, {
      username: ADMIN_EMAIL,
      password: ADMIN_PASSWORD,
    });
    const page = admin.page;
    await page.goto(`/settings/cluster/${labId}?type=ecs`);
    await waitForNoticesGone(page);
    const server = page.getByRole('row').filter({ hasText: 'sshd-1' });
    await server.getByRole('button', { name: 'Setting of resource sshd-1' }).click({
      timeout: UI_TIMEOUT,
    });
    const setting = page.getByRole('dialog').filter({
      has: page.locator('.ant-drawer-title', { hasText: 'Instance setting' }),
    });
    const hostKey = setting.getByTestId('host-key');
    await hostKey.waitFor({ timeout: UI_TIMEOUT });
    expect(await hostKey.textContent()).toMatch(/^SHA256:[A-Za-z0-9+/]{43}$/);
    // The drawer slides in; the picture waits for it to stand still.
    await page.waitForTimeout(400);
    await hostKey.scrollIntoViewIfNeeded();
    await screenshot(page, 'instance-host-key');
    await setting.getByRole('button', { name: 'Forget' }).click();
    const confirm = page.getByRole('tooltip').filter({ hasText: 'Forget this host key?' });
    await confirm.getByRole('button', { name: 'Forget' }).click();
    await setting.getByText(/Not pinned yet/).waitFor({ timeout: UI_TIMEOUT });
    await waitForNoticesGone(page);
    await screenshot(page, 'instance-host-key-forgotten');
  });
  it('draws an output flood to its end, and Ctrl-C stops one at once', async () => {
    const page = member.page;
    await page.goto(`/operation/workgroup/${workgroupId}?type=ecs`);
    const row = page.getByRole('row').filter({ hasText: 'sshd-1' });
    await row.getByRole('button', { name: 'Connect to sshd-1' }).click({ timeout: UI_TIMEOUT });
    await page.getByRole('button', { name: 'Open web terminal' }).click({ timeout: UI_TIMEOUT });
    const terminal = page.getByRole('region', { name: 'Web terminal' });
    const rows = async () => (await terminal.locator('.xterm-rows').textContent()) ?? '';
    await expect.poll(rows, { timeout: UI_TIMEOUT }).toMatch(/[$#]\s*$/m);
    await terminal.locator('.xterm-helper-textarea').focus();
    // 2.7 MB of output (five windows; more kept Chromium busy enough to starve the e2e tests
    // running beside it): the gateway sends 512 KiB ahead of what xterm.js has drawn, so it
    // comes to its end only if the page acknowledges what it draws.
    await page.keyboard.type('head -c 2000000 /dev/zero | base64; echo flood-$((20+22))-done');
    await page.keyboard.press('Enter');
    await expect.poll(rows, { timeout: 60_000 }).toContain('flood-42-done');
    // An endless one, stopped: the terminal answers the next command.
    await page.keyboard.type('yes flood-line');
    await page.keyboard.press('Enter');
    await expect.poll(rows, { timeout: UI_TIMEOUT }).toContain('flood-line');
    await page.keyboard.press('Control+C');
    await page.keyboard.type('clear; echo after-$((40+2))');
    await page.keyboard.press('Enter');
    await expect.poll(rows, { timeout: UI_TIMEOUT }).toContain('after-42');
    await screenshot(page, 'web-terminal-after-flood');
    await page.keyboard.type('exit');
    await page.keyboard.press('Enter');
    await page
      .getByText(/The session ended/)
      .first()
      .waitFor({ timeout: UI_TIMEOUT });
  });

  it('tells the member, in the terminal, that the server showed another host key', async () => {
    await e2e.ctx.db
      .updateTable('resource')
      .set({ host_key: `SHA256:${'Z'.repeat(43)}` })
      .where('name', '=', 'sshd-1')
      .execute();
    const page = member.page;
    await page.goto(`/operation/workgroup/${workgroupId}?type=ecs`);
    const row = page.getByRole('row').filter({ hasText: 'sshd-1' });
    await row.getByRole('button', { name: 'Connect to sshd-1' }).click({ timeout: UI_TIMEOUT });
    await page.getByRole('button', { name: 'Open web terminal' }).click({ timeout: UI_TIMEOUT });
    await page
      .getByText(/host key is not the one Portcullis saw there before/)
      .first()
      .waitFor({ timeout: UI_TIMEOUT });
    await waitForNoticesGone(page);
    await screenshot(page, 'web-terminal-host-key-changed');
    const live = await e2e.ctx.db
      .selectFrom('tunnel_connection')
      .select('id')
      .where('ended_at', 'is', null)
      .execute();
    expect(live).toEqual([]);
  });
});

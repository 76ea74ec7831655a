/**
 * Online connections in Chromium against the real server, a real gateway and the real sshd: a
 * member holds two ssh sessions open with the stock OpenSSH client; the administrator sees them
 * in the header's online sessions dialog, selects both and disconnects them after a
 * confirmation that says how many end, and the clients exit within about a second; the
 * dashboard lists a held session with the week's figures and cuts it. Screenshots go to
 * .test-artifacts/.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import type { Gateway } from '../apps/gateway/src/control/client';
import {
  openSshClient,
  run,
  type OpenSshClient,
  type RunResult,
} from '../apps/server/src/features/sessions/openssh.test-helpers';
import { startSshd, type SshdPeer } from '../scripts/peers/sshd.mjs';
import { ADMIN_EMAIL, ADMIN_PASSWORD, screenshot, startE2E, type E2E } from './harness';
import { api, chooseLanguage, login, UI_TIMEOUT, waitForNoticesGone } from './console';
import { addMember, clusterWithKey, connectedGateway, workgroupWith } from './fixtures';
import { freePort } from '../apps/gateway/src/test/net';

const MEMBER = { account: 'ada@demo.local', name: 'Ada', password: 'Member#Pass2026' };

let e2e: E2E;
let admin: { context: BrowserContext; page: Page };
let member: { context: BrowserContext; page: Page };
let workgroupId = 0;
let gateway: Gateway | undefined;
let sshd: SshdPeer | undefined;
let client: OpenSshClient;
let tmpDir: string;
let sshPort = 0;
let code = '';
const opened: BrowserContext[] = [];

/**
 * An ssh session that runs until it is cut; resolves when the client exits. With a pty it is
 * recorded as a terminal would be (its output, as the monitor shows it).
 */
function hold(command = 'sleep 60', pty = false): Promise<RunResult & { at: number }> {
  return run(
    'ssh',
    [
      ...client.options('publickey'),
      ...(pty ? ['-tt'] : []),
      '-p',
      String(sshPort),
      `${code}@127.0.0.1`,
      command,
    ],
    { timeoutMs: 70_000 },
  ).then((r) => ({ ...r, at: Date.now() }));
}

/** Waits until the server counts `n` online sessions for this browser's account. */
async function countIs(context: BrowserContext, n: number): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const got = await api<{ count: number }>(context, 'GET', '/v1/tunnel_connection/count');
    if (got.count === n) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the online count did not reach ${n}`);
}

/** The id of the one session online that this browser's account sees. */
async function onlineId(context: BrowserContext): Promise<number> {
  const list = await api<{ objects: { id: number }[] }>(
    context,
    'GET',
    '/v1/tunnel_connection/list?page=1&page_size=10',
  );
  const id = list.objects[0]?.id;
  if (id === undefined) throw new Error('no session online');
  return id;
}

async function fresh(): Promise<{ context: BrowserContext; page: Page }> {
  const made = await e2e.newPage();
  opened.push(made.context);
  return made;
}

function dialog(page: Page, title: string): Locator {
  return page
    .getByRole('dialog')
    .filter({ has: page.locator('.ant-modal-title', { hasText: title }) });
}

/** Disconnects the member's session of a row after the confirmation; its client exits soon. */
async function disconnectRow(
  page: Page,
  row: Locator,
  held: Promise<RunResult & { at: number }>,
): Promise<void> {
  await row.getByRole('button', { name: `Disconnect ${MEMBER.name}` }).click();
  const popover = page.getByRole('tooltip').filter({ hasText: 'Disconnect?' });
  await popover.waitFor({ timeout: UI_TIMEOUT });
  const cutAt = Date.now();
  await popover.getByRole('button', { name: 'Disconnect', exact: true }).click();
  const res = await held;
  expect(res.at - cutAt).toBeLessThan(3000);
}

beforeAll(async () => {
  e2e = await startE2E();
  tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pc-e2e-online-'));
  admin = await fresh();
  await login(e2e, admin.context, admin.page, { username: ADMIN_EMAIL, password: ADMIN_PASSWORD });
  const { context } = admin;

  const { clusterId, key } = await clusterWithKey(context, 'Lab');
  sshd = await startSshd({});
  sshPort = await freePort();
  gateway = await connectedGateway(e2e, key, {
    host: '127.0.0.1',
    ports: { ssh_port: sshPort },
    sshProxy: { dataDir: path.join(tmpDir, 'gateway'), listenHost: '127.0.0.1' },
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

  // The member's key and code, made as the member (the API is the member's own here).
  member = await fresh();
  await login(
    e2e,
    member.context,
    member.page,
    { username: MEMBER.account, password: MEMBER.password },
    '/operation/workgroup',
  );
  client = await openSshClient(tmpDir);
  await api(member.context, 'POST', '/account_pubkey', {
    title: 'laptop',
    pubkey: client.publicKey,
  });
  code = (
    await api<{ code: string }>(member.context, 'POST', '/tunnel', {
      project_resource_id: granted.projectResourceIds[0],
    })
  ).code;
});

afterEach(async (ctx) => {
  if (ctx.task.result?.state !== 'fail') return;
  await screenshot(admin.page, 'failed-online-connections').catch(() => undefined);
});

afterAll(async () => {
  await gateway?.stop();
  await sshd?.stop();
  for (const context of opened) await context.close().catch(() => undefined);
  await e2e?.close();
  if (tmpDir) fs.rmSync(tmpDir, { recursive: true, force: true });
});

describe('online connections', () => {
  it('shows held ssh sessions in the header dialog and cuts them together', async () => {
    const held = [hold(), hold()];
    await countIs(admin.context, 2);
    const page = admin.page;
    await page.goto('/operation/dashboard');
    await page.getByRole('button', { name: 'Online sessions: 2' }).click({ timeout: UI_TIMEOUT });
    const sessions = dialog(page, 'Online sessions');
    const rows = sessions.getByRole('row').filter({ hasText: MEMBER.name });
    await expect.poll(() => rows.count(), { timeout: UI_TIMEOUT }).toBe(2);
    const row = rows.first();
    await row.getByText('Ops').waitFor({ timeout: UI_TIMEOUT });
    await row.getByText('sshd-1').waitFor({ timeout: UI_TIMEOUT });
    for (const r of await rows.all()) await r.getByRole('checkbox').check();
    await waitForNoticesGone(page);
    // Past the check and fade animations.
    await page.waitForTimeout(600);
    await screenshot(page, 'online-sessions-dialog');

    await sessions.getByRole('button', { name: /Disconnect 2 sessions/ }).click();
    const popover = page.getByRole('tooltip').filter({ hasText: 'Disconnect?' });
    await popover.waitFor({ timeout: UI_TIMEOUT });
    // The confirmation says how many end (it said "The session ends at once" for any number).
    await popover
      .getByText('The 2 selected sessions end at once', { exact: false })
      .waitFor({ timeout: UI_TIMEOUT });
    await page.waitForTimeout(300);
    await screenshot(page, 'online-sessions-confirm-bulk');
    const cutAt = Date.now();
    await popover.getByRole('button', { name: 'Disconnect', exact: true }).click();
    for (const res of await Promise.all(held)) {
      expect(res.at - cutAt).toBeLessThan(3000);
      expect(res.code).not.toBe(0);
    }
    await expect.poll(() => rows.count(), { timeout: UI_TIMEOUT }).toBe(0);
    await page.getByRole('button', { name: 'Online sessions: 0' }).waitFor({ timeout: UI_TIMEOUT });
    await waitForNoticesGone(page);
    await page.waitForTimeout(600);
    await screenshot(page, 'online-sessions-dialog-after-cut');
  });

  it('shows the session and the week’s figures on the dashboard, and cuts it from there', async () => {
    const held = hold();
    await countIs(admin.context, 1);
    const page = admin.page;
    await page.goto('/operation/dashboard');
    const card = (title: string) =>
      page
        .locator('.ant-card')
        .filter({ has: page.locator('.ant-card-head-title', { hasText: title }) });
    // The counters: this team has one resource, one workgroup besides the default one at least,
    // one cluster and two members.
    const counter = (title: string) =>
      page.locator('.ant-statistic').filter({ has: page.getByText(title, { exact: true }) });
    await counter('Resources').getByText('1', { exact: true }).waitFor({ timeout: UI_TIMEOUT });
    await counter('Clusters').getByText('1', { exact: true }).waitFor({ timeout: UI_TIMEOUT });
    await counter('Members').getByText('2', { exact: true }).waitFor({ timeout: UI_TIMEOUT });
    // The session is online, without security mode (the code's safe mode is off).
    const row = card('Online sessions').getByRole('row').filter({ hasText: MEMBER.name });
    await row.waitFor({ timeout: UI_TIMEOUT });
    await row.getByRole('img', { name: 'Not in security mode' }).waitFor({ timeout: UI_TIMEOUT });
    // This week's statistics count it with the sessions of the tests before (all today).
    await card('Top 10 members by connection time')
      .getByText(MEMBER.name, { exact: true })
      .waitFor({ timeout: UI_TIMEOUT });
    const topResource = card('Top 10 resources by connections').getByRole('listitem').first();
    await topResource.getByText('sshd-1').waitFor({ timeout: UI_TIMEOUT });
    const connections = Number(
      (await topResource.getByText(/\d+ connections?/).textContent())?.match(/\d+/)?.[0],
    );
    expect(connections).toBeGreaterThanOrEqual(3);
    await card('Resource types')
      .getByRole('listitem')
      .filter({ hasText: 'Linux' })
      .getByText('1', { exact: true })
      .waitFor({ timeout: UI_TIMEOUT });
    const today = new Date().toLocaleDateString('sv-SE');
    await page
      .locator('td, th')
      .filter({ hasText: new RegExp(`^${today}: ${connections} connections`) })
      .waitFor({ state: 'attached', timeout: UI_TIMEOUT });
    await waitForNoticesGone(page);
    await page.waitForTimeout(600);
    await screenshot(page, 'dashboard-en_US');

    await disconnectRow(page, row, held);
    await row.waitFor({ state: 'detached', timeout: UI_TIMEOUT });
    await card('Online sessions').getByText('No online sessions').waitFor({ timeout: UI_TIMEOUT });

    await chooseLanguage(page, 'zh_CN');
    await page.getByRole('heading', { name: '仪表盘' }).waitFor({ timeout: UI_TIMEOUT });
    await page.getByText('连接时长前 10 名成员').waitFor({ timeout: UI_TIMEOUT });
    await waitForNoticesGone(page);
    // From the top: scrolled down to the session's row, the sticky header would be drawn
    // halfway down the full-page picture.
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.waitForTimeout(600);
    await screenshot(page, 'dashboard-zh_CN');
    await chooseLanguage(page, 'en_US');
  });

  it('watches a live session from the dashboard as it runs, read-only', async () => {
    // The marker is computed on the target, so the screen shows it only if the command ran.
    const held = hold(
      'echo "MONITOR-$((6 * 7))"; sleep 2; echo "LATER-$((7 * 7))"; sleep 60',
      true,
    );
    await countIs(admin.context, 1);
    const page = admin.page;
    await page.goto('/operation/dashboard');
    const row = page
      .locator('.ant-card')
      .filter({ has: page.locator('.ant-card-head-title', { hasText: 'Online sessions' }) })
      .getByRole('row')
      .filter({ hasText: MEMBER.name });
    await row
      .getByRole('button', { name: `Monitor ${MEMBER.name}` })
      .click({ timeout: UI_TIMEOUT });
    const watching = dialog(page, `Monitor · ${MEMBER.name} on sshd-1`);
    const screen = watching.getByRole('region', { name: `Session of ${MEMBER.name}` });
    await screen.getByText('MONITOR-42').waitFor({ timeout: UI_TIMEOUT });
    // What the session prints later arrives while the dialog is open.
    await screen.getByText('LATER-49').waitFor({ timeout: UI_TIMEOUT });
    await watching.getByText('Live, read-only', { exact: false }).waitFor();
    // From the top, or the full-page picture draws the sticky header halfway down.
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.waitForTimeout(300);
    await screenshot(page, 'dashboard-monitor');
    // Cut from the console: the dialog says the session ended.
    await api(admin.context, 'DELETE', `/tunnel_connection/${await onlineId(admin.context)}`);
    await held;
    await watching.getByText('The session has ended.').waitFor({ timeout: UI_TIMEOUT });
    await page.keyboard.press('Escape');
  });

  it('shows the member their session in the workgroup’s online connections panel', async () => {
    const held = hold();
    await countIs(member.context, 1);
    const page = member.page;
    await page.goto(`/operation/workgroup/${workgroupId}?type=ecs`);
    await page
      .getByRole('button', { name: 'Online connections of sshd-1: 1' })
      .click({ timeout: UI_TIMEOUT });
    const panel = page.getByRole('dialog').filter({
      has: page.locator('.ant-drawer-title', { hasText: 'Online connections · sshd-1' }),
    });
    const row = panel.getByRole('row').filter({ hasText: MEMBER.name });
    await row.waitFor({ timeout: UI_TIMEOUT });
    await waitForNoticesGone(page);
    await page.waitForTimeout(600);
    await screenshot(page, 'online-connections-panel');
    await disconnectRow(page, row, held);
    await row.waitFor({ state: 'detached', timeout: UI_TIMEOUT });
    await page
      .getByRole('button', { name: 'Online connections of sshd-1: 0' })
      .waitFor({ timeout: UI_TIMEOUT });
  });
});

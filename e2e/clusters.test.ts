/**
 * Clusters in Chromium against the real stack, as one administrator's working session: create
 * a cluster, start a real gateway with its key and see it turn available, add a real sshd as a
 * Linux server (one authentication per login user) and see its connectivity test say yes,
 * upload the server's key to that user from the instance panel and switch it to SSH-key login,
 * scan 127.0.0.0/24 (only that range) for the sshd's port and import the address, import
 * servers from a spreadsheet, add the local MariaDB and PostgreSQL and test them, and the
 * setting tab (agent commands, OS support list, log filters). Screenshots of the list, the tabs and the panels in both
 * languages go to .test-artifacts/. The tests share the server and run in order.
 */
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import mysql from 'mysql2/promise';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import type { Gateway } from '../apps/gateway/src/control/client';
import { startSshd, type SshdPeer } from '../scripts/peers/sshd.mjs';
import { ADMIN_EMAIL, ADMIN_PASSWORD, screenshot, startE2E, type E2E } from './harness';
import { api, expectNotice, login, UI_TIMEOUT, waitForNoticesGone } from './console';
import { clusterKey, connectedGateway } from './fixtures';

/** A gateway task (a login, a scan of 256 addresses) can take a while on a slow machine. */
const TASK_TIMEOUT = 60_000;
const CLUSTER = 'Loopback';
/**
 * The sshd's account for this file: a key upload writes its ~/.ssh/authorized_keys, which no
 * other test file's account shares.
 */
const SSH_USER = 'portcullis-e2e';
/** A second login user of the same server, to show one authentication per user. */
const OTHER_USER = 'operator';
/** Tall enough to show the instance panel with both login users' rows. */
const PANEL_HEIGHT = 1200;

let e2e: E2E;
let admin: { context: BrowserContext; page: Page };
let gateway: Gateway | undefined;
let sshd: SshdPeer;
let clusterId: number;
let tmpDir: string;
let root: mysql.Connection | undefined;
const dbUser = `pc_e2e_${crypto.randomBytes(3).toString('hex')}`;
const dbPassword = `E2e#${crypto.randomBytes(6).toString('hex')}`;
const opened: BrowserContext[] = [];

async function fresh(locale?: string): Promise<{ context: BrowserContext; page: Page }> {
  const made = await e2e.newPage(locale ? { locale } : {});
  await made.context.grantPermissions(['clipboard-read', 'clipboard-write']);
  opened.push(made.context);
  return made;
}

function dialog(page: Page, title: string): Locator {
  return page
    .getByRole('dialog')
    .filter({ has: page.locator('.ant-drawer-title, .ant-modal-title', { hasText: title }) });
}

/** Picks an option of the open Select dropdown. */
async function option(page: Page, text: string): Promise<void> {
  await page
    .locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: text })
    .first()
    .click();
}

/** Clicks a connectivity-test button and answers the finished test's status (not the last one). */
async function runTest(page: Page, button: Locator): Promise<string> {
  const answered = page.waitForResponse(
    async (r) =>
      r.url().includes('/api/query_service_connection_test') &&
      ((await r.json()) as { status: string }).status !== 'pending',
    { timeout: TASK_TIMEOUT },
  );
  await button.click();
  return ((await (await answered).json()) as { status: string }).status;
}

function row(page: Page, text: string): Locator {
  return page.getByRole('row').filter({ hasText: text });
}

/**
 * A full-page picture once the notices have gone. The viewport grows to the page's height
 * first (or `minHeight`, for a side panel that scrolls inside itself): the shell's sticky
 * header and menu would otherwise be drawn part-way down.
 */
async function picture(page: Page, name: string, minHeight = 0): Promise<void> {
  await waitForNoticesGone(page);
  await page.waitForTimeout(400);
  const viewport = page.viewportSize() ?? { width: 1366, height: 820 };
  const height = Math.max(
    minHeight,
    await page.evaluate(() => document.documentElement.scrollHeight),
  );
  if (height > viewport.height) await page.setViewportSize({ width: viewport.width, height });
  await screenshot(page, name);
  await page.setViewportSize(viewport);
}

async function detail(page: Page, type: 'ecs' | 'rds' | 'settings'): Promise<void> {
  await page.goto(`/settings/cluster/${clusterId}?type=${type}`);
  await page.locator('.ant-tabs-tab-active').waitFor({ timeout: UI_TIMEOUT });
  await page.waitForLoadState('networkidle');
}

beforeAll(async () => {
  e2e = await startE2E();
  tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pc-e2e-clusters-'));
  sshd = await startSshd({ user: SSH_USER, homeAuthorizedKeys: true });
  // The MariaDB test peer on loopback, with an account made for this file.
  root = await mysql.createConnection({ host: '127.0.0.1', port: 3306, user: 'root' });
  await root.query(`CREATE USER '${dbUser}'@'%' IDENTIFIED BY '${dbPassword}'`);
  admin = await fresh();
  await login(e2e, admin.context, admin.page, { username: ADMIN_EMAIL, password: ADMIN_PASSWORD });
});

afterEach(async (ctx) => {
  if (ctx.task.result?.state !== 'fail') return;
  let n = 0;
  for (const context of opened) {
    for (const page of context.pages()) {
      await screenshot(
        page,
        `failed-clusters-${ctx.task.name.slice(0, 40).replace(/\W+/g, '-')}-${n++}`,
      ).catch(() => undefined);
    }
  }
});

afterAll(async () => {
  await gateway?.stop();
  await sshd?.stop();
  await root?.query(`DROP USER IF EXISTS '${dbUser}'@'%'`);
  await root?.end();
  for (const context of opened) await context.close().catch(() => undefined);
  await e2e?.close();
  if (tmpDir) fs.rmSync(tmpDir, { recursive: true, force: true });
});

describe('clusters', () => {
  it('creates a cluster that turns available when its gateway connects', async () => {
    const { page } = admin;
    await page.getByRole('menuitem', { name: /Cluster Manage/ }).click();
    await page.waitForURL('**/settings/cluster');
    await page.getByRole('button', { name: /Create Cluster/ }).click();
    const panel = dialog(page, 'Create Cluster');
    await panel.getByRole('button', { name: 'Add', exact: true }).click();
    await panel.getByText('Please input the cluster name').waitFor();
    await picture(page, 'clusters-create-en_US');
    await panel.getByRole('textbox', { name: 'Cluster name' }).fill(`  ${CLUSTER}  `);
    await panel.getByRole('button', { name: 'Add', exact: true }).click();
    await expectNotice(page, 'Add Successfully!');
    await row(page, CLUSTER).getByText('Unavailable').waitFor({ timeout: UI_TIMEOUT });

    const list = await api<{ objects: { id: number; name: string }[] }>(
      admin.context,
      'GET',
      '/v1/network/list',
    );
    clusterId = list.objects.find((c) => c.name === CLUSTER)?.id ?? 0;
    expect(clusterId).toBeGreaterThan(0);
    const key = await clusterKey(admin.context, clusterId);
    gateway = await connectedGateway(e2e, key, { host: 'gw.e2e' });

    await row(page, CLUSTER).getByRole('link', { name: 'Details' }).click();
    await page.waitForURL(`**/settings/cluster/${clusterId}?type=ecs`);
    // The detail refreshes every 10 s; the badge turns once the server has the hello.
    await page
      .locator('.pc-page-header')
      .getByText('Available', { exact: true })
      .waitFor({ timeout: 30_000 });
    await page.goto('/settings/cluster');
    await row(page, CLUSTER).getByText('Available', { exact: true }).waitFor({
      timeout: UI_TIMEOUT,
    });
    await picture(page, 'clusters-list-en_US');
  });

  it('scans 127.0.0.0/24 for the sshd and imports the address', async () => {
    const { page } = admin;
    await detail(page, 'ecs');
    await page.getByRole('button', { name: /Scan Import/ }).click();
    const panel = dialog(page, 'Scan Import');
    const cidr = panel.getByRole('textbox', { name: 'Scan range' });
    await cidr.fill('127.0.0.0/16');
    await panel.getByText('e.g. 192.168.1.0/24, and only supports 24-32').waitFor();
    await cidr.fill('127.0.0.0/24');
    await panel.getByRole('spinbutton', { name: 'Port' }).fill(String(sshd.port));
    await panel.getByRole('textbox', { name: 'User name' }).fill(sshd.user);
    await panel.getByRole('button', { name: 'Scan', exact: true }).click();
    await expectNotice(page, 'Scan success').catch(() => undefined);
    const found = panel.getByRole('row').filter({ hasText: '127.0.0.1' });
    await found.waitFor({ timeout: TASK_TIMEOUT });
    await found.getByText('New', { exact: true }).waitFor();
    await picture(page, 'clusters-scan-en_US');
    await found.getByRole('checkbox').check();
    await panel.getByRole('button', { name: /Import \(1\)/ }).click();
    await expectNotice(page, 'Import success');
    await row(page, '127.0.0.1').getByText(sshd.user).first().waitFor({ timeout: UI_TIMEOUT });
  });

  it('adds the sshd as a Linux server and its connectivity test says yes', async () => {
    const { page } = admin;
    await detail(page, 'ecs');
    await page.getByRole('button', { name: /^plus Add$/ }).click();
    const panel = dialog(page, 'Add Instance');
    await panel.getByRole('button', { name: 'Add', exact: true }).click();
    await panel.getByText('Please input the resource name').waitFor();
    await panel.getByRole('radio', { name: 'Windows' }).check();
    expect(await panel.getByRole('spinbutton', { name: 'Port' }).inputValue()).toBe('3389');
    await panel.getByRole('radio', { name: 'Linux' }).check();
    expect(await panel.getByRole('spinbutton', { name: 'Port' }).inputValue()).toBe('22');
    await picture(page, 'clusters-add-instance-en_US');
    await panel.getByRole('textbox', { name: 'Resource name' }).fill('sshd');
    await panel.getByRole('textbox', { name: 'Inner IP' }).fill('127.0.0.1');
    await panel.getByRole('textbox', { name: 'Login users' }).fill(`${sshd.user};${OTHER_USER}`);
    await panel.getByRole('spinbutton', { name: 'Port' }).fill(String(sshd.port));
    // One row per login user, each with its own authentication.
    await panel.getByLabel(`Host password of ${sshd.user}`).fill(sshd.password);
    await panel.getByRole('combobox', { name: `Authentication of ${OTHER_USER}` }).click();
    await option(page, 'Team account password');
    await panel.getByLabel(`Host password of ${OTHER_USER}`).waitFor({ state: 'detached' });
    await panel.getByRole('button', { name: 'Add', exact: true }).click();
    await expectNotice(page, 'Add Successfully!');

    const server = row(page, 'sshd');
    await server.getByRole('button', { name: `Test the connection of ${sshd.user}` }).click();
    await server.getByText('yes', { exact: true }).waitFor({ timeout: TASK_TIMEOUT });
    await picture(page, 'clusters-servers-en_US');

    await server.getByRole('button', { name: 'Setting of resource sshd' }).click();
    const setting = dialog(page, 'Instance setting');
    await setting.getByRole('textbox', { name: 'Inner IP' }).waitFor();
    await picture(page, 'clusters-instance-setting-en_US');
    await setting.getByRole('button', { name: 'Cancel' }).click();

    // A terminal session open on the server (its row, as the server writes one): the panel says
    // it keeps the security mode it started with and offers to disconnect it on save.
    const sshdRow = await e2e.ctx.db
      .selectFrom('resource')
      .select(['id', 'company_id'])
      .where('name', '=', 'sshd')
      .executeTakeFirstOrThrow();
    const openShell = await e2e.ctx.db
      .insertInto('tunnel_connection')
      .values({
        company_id: sshdRow.company_id,
        account_id: 1,
        resource_id: sshdRow.id,
        created_at: Math.floor(Date.now() / 1000),
        ended_at: null,
        way: 'terminal',
        client_ip: '127.0.0.1',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await page.getByRole('button', { name: /Change/ }).click();
    const safe = dialog(page, 'Safe mode');
    const security = safe.getByRole('switch', { name: 'Security mode', exact: true });
    await security.waitFor({ timeout: UI_TIMEOUT });
    await security.click();
    // Typed comma-separated; the repeated command is skipped.
    await safe.getByRole('textbox', { name: 'Intercept commands' }).fill('rm -rf, shutdown,rm -rf');
    await safe
      .getByRole('checkbox', {
        name: 'Disconnect it when saving, so the new settings apply at once',
      })
      .check({ timeout: UI_TIMEOUT });
    await picture(page, 'clusters-safe-mode-en_US');
    await safe.getByRole('button', { name: 'Save' }).click();
    await expectNotice(page, 'Update successfully!');
    await expect
      .poll(
        async () =>
          (
            await e2e.ctx.db
              .selectFrom('tunnel_connection')
              .select('ended_at')
              .where('id', '=', openShell.id)
              .executeTakeFirstOrThrow()
          ).ended_at,
        { timeout: UI_TIMEOUT },
      )
      .not.toBeNull();
    await page.getByText('On', { exact: true }).waitFor({ timeout: UI_TIMEOUT });
    await safe.waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: /Change/ }).click();
    expect(
      await safe.getByRole('textbox', { name: 'Intercept commands' }).inputValue({
        timeout: UI_TIMEOUT,
      }),
    ).toBe('rm -rf,shutdown');
    await safe.getByRole('button', { name: 'Cancel' }).click();
  });

  it('uploads the key from the instance panel; the user then signs in with it', async () => {
    const { page } = admin;
    await detail(page, 'ecs');
    const server = row(page, 'sshd');
    await server.getByRole('button', { name: 'Setting of resource sshd' }).click();
    const setting = dialog(page, 'Instance setting');
    const login = setting.getByRole('group', { name: `Login user ${sshd.user}` });
    const other = setting.getByRole('group', { name: `Login user ${OTHER_USER}` });
    // Each row has its own authentication and its own last test result.
    await login.getByText('yes', { exact: true }).waitFor({ timeout: UI_TIMEOUT });
    await other.getByText('Team account password', { exact: true }).waitFor();
    await picture(page, 'clusters-instance-logins-en_US', PANEL_HEIGHT);

    await login.getByRole('button', { name: `Upload the key of ${sshd.user}` }).click();
    const upload = dialog(page, 'Upload key');
    await upload.getByRole('button', { name: 'Upload', exact: true }).click();
    await upload.getByText('Please input the password').waitFor();
    await picture(page, 'clusters-upload-key-en_US');
    const password = upload.getByLabel(`Password of ${sshd.user}`);
    await password.fill('not-the-password');
    await upload.getByRole('button', { name: 'Upload', exact: true }).click();
    await upload
      .getByText('Failed to set up key login: the server refused the sign-in')
      .waitFor({ timeout: TASK_TIMEOUT });
    // The password left the form when the upload started.
    expect(await password.inputValue()).toBe('');
    await password.fill(sshd.password);
    await upload.getByRole('button', { name: 'Upload', exact: true }).click();
    await expectNotice(page, `The key of ${sshd.user} was uploaded`);
    await upload.waitFor({ state: 'hidden' });

    const id = (
      await api<{ objects: { id: number; name: string }[] }>(
        admin.context,
        'GET',
        `/v1/network/${clusterId}/resource?type=ecs&q_name=sshd`,
      )
    ).objects.find((r) => r.name === 'sshd')?.id;
    const home = execFileSync('getent', ['passwd', sshd.user], { encoding: 'utf8' }).split(':')[5];
    const keys = fs.readFileSync(path.join(home ?? '', '.ssh', 'authorized_keys'), 'utf8');
    expect(keys).toContain(`portcullis-resource-${id}`);

    await login.getByRole('button', { name: `Test the key login of ${sshd.user}` }).click();
    await login.getByText('Key login works').waitFor({ timeout: TASK_TIMEOUT });

    await login.getByRole('combobox', { name: `Authentication of ${sshd.user}` }).click();
    await option(page, 'SSH key');
    await login.getByLabel(`Host password of ${sshd.user}`).waitFor({ state: 'detached' });
    await setting.getByRole('button', { name: 'Save' }).click();
    await expectNotice(page, 'Update successfully!');
    await setting.waitFor({ state: 'hidden' });
    const saved = await api<{ extension: { data: { username: string; auth_type: number }[] } }>(
      admin.context,
      'GET',
      `/v1/resource/${id}`,
    );
    expect(saved.extension.data.map((d) => [d.username, d.auth_type])).toEqual([
      [sshd.user, 1],
      [OTHER_USER, 2],
    ]);

    // The gateway now signs in with the server's key, not the password.
    const status = await runTest(
      page,
      server.getByRole('button', { name: `Test the connection of ${sshd.user}` }),
    );
    expect(status).toBe('enable');
    await server.getByText('yes', { exact: true }).waitFor({ timeout: UI_TIMEOUT });
    await picture(page, 'clusters-servers-key-login-en_US');
  });

  it('imports servers from a spreadsheet', async () => {
    const { page } = admin;
    await detail(page, 'ecs');
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('servers');
    sheet.addRow(['Name', 'Inner IP', 'OS (linux or win32)', 'Port', 'Usernames', 'Password']);
    sheet.addRow(['web-1', '10.0.0.11', 'linux', 22, 'root;deploy', '']);
    sheet.addRow(['win-1', '10.0.0.12', 'win32', 3389, 'administrator', '']);
    const file = path.join(tmpDir, 'servers.xlsx');
    await book.xlsx.writeFile(file);
    const text = path.join(tmpDir, 'servers.txt');
    fs.writeFileSync(text, 'not a spreadsheet');

    await page.getByRole('button', { name: /Mass import/ }).click();
    const panel = dialog(page, 'Mass import');
    await panel.getByRole('link', { name: /Download template/ }).waitFor();
    await picture(page, 'clusters-mass-import-en_US');
    const input = panel.locator('input[type=file]');
    await input.setInputFiles(text);
    await panel.getByText('Please upload the correct form!').waitFor();
    await input.setInputFiles(file);
    await expectNotice(page, 'Import success');
    await row(page, 'web-1').getByText('root; deploy').waitFor({ timeout: UI_TIMEOUT });
    await row(page, 'win-1').getByText('Windows').waitFor();

    // The same rows again: nothing is imported and the addresses are named.
    await page.getByRole('button', { name: /Mass import/ }).click();
    await panel.locator('input[type=file]').setInputFiles(file);
    await panel.getByText(/Intranet IP: .*10\.0\.0\.11.* exist!/).waitFor({ timeout: UI_TIMEOUT });
    await panel.getByRole('button', { name: 'Close' }).click();
  });

  it('shows the database tab and the setting tab with the agent and log filters', async () => {
    const { page } = admin;
    await detail(page, 'rds');
    await page.getByRole('button', { name: /^plus Add$/ }).click();
    const panel = dialog(page, 'Add Database');
    await panel.getByRole('textbox', { name: 'Database names' }).fill('a;*');
    await panel.getByText('Database name format is incorrect').waitFor();
    await picture(page, 'clusters-add-database-en_US');
    await panel.getByRole('textbox', { name: 'Resource name' }).fill('mariadb');
    await panel.getByRole('textbox', { name: 'IP or link' }).fill('127.0.0.1');
    await panel.getByRole('textbox', { name: 'User name' }).fill(dbUser);
    await panel.getByLabel('Password').fill(dbPassword);
    await panel.getByRole('textbox', { name: 'Database names' }).fill('*');
    expect(await panel.getByRole('spinbutton', { name: 'Port' }).inputValue()).toBe('3306');
    await panel.getByRole('button', { name: 'Add', exact: true }).click();
    await expectNotice(page, 'Add Successfully!');
    const database = row(page, 'mariadb');
    await database.getByRole('button', { name: 'Test the connection' }).click();
    await database.getByText('yes', { exact: true }).waitFor({ timeout: TASK_TIMEOUT });
    await picture(page, 'clusters-database-en_US');

    // A session open on it (its row, as the server writes one): the form says it keeps the
    // rules it started with and offers to disconnect it on save.
    const mariadb = await e2e.ctx.db
      .selectFrom('resource')
      .select(['id', 'company_id'])
      .where('name', '=', 'mariadb')
      .executeTakeFirstOrThrow();
    const openSession = await e2e.ctx.db
      .insertInto('tunnel_connection')
      .values({
        company_id: mariadb.company_id,
        account_id: 1,
        resource_id: mariadb.id,
        created_at: Math.floor(Date.now() / 1000),
        ended_at: null,
        way: 'mysql',
        client_ip: '127.0.0.1',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await database.getByRole('button', { name: 'Setting of resource mariadb' }).click();
    const setting = dialog(page, 'Database setting');
    await setting.getByRole('tab', { name: 'Security' }).click();
    await setting
      .getByText('1 session is open on this database: it keeps the rules it started with.')
      .waitFor({ timeout: UI_TIMEOUT });
    await setting
      .getByRole('checkbox', { name: 'Disconnect it when saving, so the new rules apply at once' })
      .check();
    await setting.getByRole('switch', { name: 'SQL approval' }).click();
    // Approval on without an approver: Save waits.
    expect(await setting.getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);
    await setting.getByRole('combobox', { name: 'Approvers' }).click();
    await page
      .locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: ADMIN_EMAIL })
      .first()
      .click();
    await setting.getByRole('combobox', { name: 'Action' }).first().click();
    await page
      .locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: 'DROP' })
      .first()
      .click();
    await setting.getByRole('button', { name: 'Add', exact: true }).first().click();
    await setting.getByText(/DROP · all tables/).waitFor();
    await picture(page, 'clusters-database-security-en_US');
    await setting.getByRole('button', { name: 'Save' }).click();
    await expectNotice(page, 'Update successfully!');
    const ended = await e2e.ctx.db
      .selectFrom('tunnel_connection')
      .select('ended_at')
      .where('id', '=', openSession.id)
      .executeTakeFirstOrThrow();
    expect(ended.ended_at).not.toBeNull();

    await detail(page, 'settings');
    await page.getByText('gw.e2e').waitFor({ timeout: UI_TIMEOUT });
    await page.getByRole('button', { name: 'Copy the Install command' }).click();
    await expectNotice(page, 'Copy successfully!');
    await page.getByRole('textbox', { name: 'Condition' }).fill('password');
    await page.getByRole('button', { name: /Add Log Filter/ }).click();
    await expectNotice(page, 'Add Successfully!');
    await row(page, 'password').getByText('contains').waitFor({ timeout: UI_TIMEOUT });
    await picture(page, 'clusters-settings-en_US');
    await page.getByRole('button', { name: /Supported systems/ }).click();
    const support = dialog(page, 'OS support check list');
    await support.getByText('CentOS 7.0 64-bit').waitFor();
    await picture(page, 'clusters-os-support-en_US');
    await support.getByRole('button', { name: 'Close' }).click();

    await page.getByRole('button', { name: /Set Cluster/ }).click();
    const set = dialog(page, 'Set Cluster');
    await set.getByRole('radio', { name: 'Customize' }).check();
    await set.getByRole('spinbutton', { name: 'Validity' }).fill('20');
    await set.getByRole('button', { name: 'Save' }).click();
    await set
      .getByText(
        'In order to ensure the availability of the code, the maximum effective time cannot be less than 30 minutes',
      )
      .waitFor();
    await picture(page, 'clusters-set-cluster-en_US');
    await set.getByRole('spinbutton', { name: 'Validity' }).fill('45');
    await set.getByRole('button', { name: 'Save' }).click();
    await expectNotice(page, 'Update successfully!');
  });

  it('adds the local PostgreSQL and its connectivity test says yes', async () => {
    const { page } = admin;
    await detail(page, 'rds');
    await page.getByRole('button', { name: /^plus Add$/ }).click();
    const panel = dialog(page, 'Add Database');
    await panel.getByRole('combobox', { name: 'Type' }).click();
    await option(page, 'PostgreSQL');
    expect(await panel.getByRole('spinbutton', { name: 'Port' }).inputValue()).toBe('5432');
    await panel.getByRole('textbox', { name: 'Resource name' }).fill('pg-local');
    await panel.getByRole('textbox', { name: 'IP or link' }).fill('127.0.0.1');
    await panel.getByRole('textbox', { name: 'User name' }).fill('postgres');
    // The test peer trusts loopback: any password signs in, but the form needs one.
    await panel.getByLabel('Password').fill('trust');
    await panel.getByRole('textbox', { name: 'Database names' }).fill('postgres');
    await panel.getByRole('button', { name: 'Add', exact: true }).click();
    await expectNotice(page, 'Add Successfully!');
    const database = row(page, 'pg-local');
    await database.getByText('PostgreSQL').waitFor({ timeout: UI_TIMEOUT });
    const status = await runTest(
      page,
      database.getByRole('button', { name: 'Test the connection' }),
    );
    expect(status).toBe('enable');
    await database.getByText('yes', { exact: true }).waitFor({ timeout: UI_TIMEOUT });
    await picture(page, 'clusters-database-postgres-en_US');
  });

  it('requires TLS of the local PostgreSQL, which offers none: its test says no until set back', async () => {
    const { page } = admin;
    await detail(page, 'rds');
    const database = row(page, 'pg-local');
    const open = async () => {
      await database.getByRole('button', { name: 'Setting of resource pg-local' }).click();
      return dialog(page, 'Database setting');
    };
    let setting = await open();
    await setting.getByRole('combobox', { name: 'TLS to the database' }).click();
    await option(page, 'Required, certificate verified');
    await setting.getByText(/chain up to a root CA certificate below/).waitFor();
    await setting
      .getByRole('textbox', { name: 'CA certificates' })
      .fill('-----BEGIN CERTIFICATE-----\nnot base64\n-----END CERTIFICATE-----');
    await picture(page, 'clusters-database-tls-verify-en_US');
    // The console lets PEM-shaped text through; the server reads it and refuses.
    await setting.getByRole('button', { name: 'Save' }).click();
    await expectNotice(page, 'Invalid parameter: tls_ca');
    await setting.getByRole('combobox', { name: 'TLS to the database' }).click();
    await option(page, 'Required');
    await setting.getByRole('button', { name: 'Save' }).click();
    await expectNotice(page, 'Update successfully!');
    // The loopback PostgreSQL has ssl = off: the gateway refuses it before the password goes.
    expect(await runTest(page, database.getByRole('button', { name: 'Test the connection' }))).toBe(
      'disable',
    );
    await database.getByText('no', { exact: true }).waitFor({ timeout: UI_TIMEOUT });
    // And why, in the gateway's words for it.
    await database
      .getByText(
        'TLS failed: none offered where it is required, or the certificate was not accepted',
      )
      .waitFor();
    await picture(page, 'clusters-database-test-tls-failed-en_US');
    setting = await open();
    expect(await setting.getByRole('combobox', { name: 'TLS to the database' }).isVisible()).toBe(
      true,
    );
    await setting.getByText('Required', { exact: true }).waitFor();
    await setting.getByRole('combobox', { name: 'TLS to the database' }).click();
    await option(page, 'When the database offers it');
    await setting.getByRole('button', { name: 'Save' }).click();
    await expectNotice(page, 'Update successfully!');
    expect(await runTest(page, database.getByRole('button', { name: 'Test the connection' }))).toBe(
      'enable',
    );
    // The system log says who changed it, each way.
    await page.goto('/system/log?type=clusterLogs');
    const events = page.getByRole('row').filter({ hasText: 'pg-local' });
    await events
      .filter({ hasText: 'Set database TLS: required' })
      .first()
      .waitFor({ timeout: UI_TIMEOUT });
    await events.filter({ hasText: 'Set database TLS: when the database offers it' }).waitFor();
    await picture(page, 'system-log-database-tls-en_US');
  });
});

describe('in Chinese', () => {
  it('shows the list, the tabs and the panels', async () => {
    const { context, page } = await fresh('zh-CN');
    await login(e2e, context, page, { username: ADMIN_EMAIL, password: ADMIN_PASSWORD });
    await page.goto('/settings/cluster');
    await row(page, CLUSTER).getByText('可用', { exact: true }).waitFor({ timeout: UI_TIMEOUT });
    await picture(page, 'clusters-list-zh_CN');
    await page.getByRole('button', { name: /创建集群/ }).click();
    await dialog(page, '创建集群').waitFor();
    await picture(page, 'clusters-create-zh_CN');

    await detail(page, 'ecs');
    await row(page, 'sshd').waitFor({ timeout: UI_TIMEOUT });
    await picture(page, 'clusters-servers-zh_CN');
    await page.getByRole('button', { name: /^plus 添加$/ }).click();
    await dialog(page, '添加实例').waitFor();
    await picture(page, 'clusters-add-instance-zh_CN');
    await page.getByRole('button', { name: /扫描导入/ }).click();
    await dialog(page, '扫描导入').waitFor();
    await picture(page, 'clusters-scan-zh_CN');
    await dialog(page, '扫描导入')
      .getByRole('button', { name: /^(Close|关闭)$/ })
      .click();
    await row(page, 'sshd').getByRole('button', { name: '资源 sshd 的设置' }).click();
    const setting = dialog(page, '实例设置');
    const user = setting.getByRole('group', { name: `登录用户 ${sshd.user}` });
    await user.getByText('SSH密钥', { exact: true }).waitFor({ timeout: UI_TIMEOUT });
    await setting
      .getByRole('group', { name: `登录用户 ${OTHER_USER}` })
      .getByText('团队账号密码', { exact: true })
      .waitFor();
    await picture(page, 'clusters-instance-logins-zh_CN', PANEL_HEIGHT);
    await user.getByRole('button', { name: `上传 ${sshd.user} 的密钥` }).click();
    const upload = dialog(page, '上传密钥');
    await upload.getByRole('button', { name: '上传', exact: true }).click();
    await upload.getByText('请输入密码').waitFor();
    await picture(page, 'clusters-upload-key-zh_CN');
    await upload.getByRole('button', { name: '取消' }).click();
    await upload.waitFor({ state: 'hidden' });
    await setting.getByRole('button', { name: '取消' }).click();

    await detail(page, 'rds');
    await row(page, 'mariadb').waitFor({ timeout: UI_TIMEOUT });
    await picture(page, 'clusters-database-zh_CN');
    await row(page, 'mariadb').getByRole('button', { name: '资源 mariadb 的设置' }).click();
    await dialog(page, '数据库设置').getByText('到数据库的 TLS').waitFor();
    await dialog(page, '数据库设置').getByText('数据库提供时使用', { exact: true }).waitFor();
    await picture(page, 'clusters-database-setting-zh_CN', PANEL_HEIGHT);
    await dialog(page, '数据库设置').getByRole('tab', { name: '安全设置' }).click();
    await dialog(page, '数据库设置').getByRole('switch', { name: 'SQL审批' }).waitFor();
    await picture(page, 'clusters-database-security-zh_CN');
    await dialog(page, '数据库设置').getByRole('button', { name: '取消' }).click();
    await page.getByRole('button', { name: /批量导入/ }).click();
    await dialog(page, '批量导入').waitFor();
    await picture(page, 'clusters-mass-import-zh_CN');

    await detail(page, 'settings');
    await page.getByText('gw.e2e').waitFor({ timeout: UI_TIMEOUT });
    await picture(page, 'clusters-settings-zh_CN');
    await page.getByRole('button', { name: /集群设置/ }).click();
    await dialog(page, '集群设置').waitFor();
    await picture(page, 'clusters-set-cluster-zh_CN');
  });
});

// Last, because it cuts the test gateway off for good.
describe('after an uninstall', () => {
  it('detaches the cluster: its gateway is cut off and the commands carry a new key', async () => {
    const { page } = admin;
    await detail(page, 'settings');
    await page.getByText('gw.e2e').waitFor({ timeout: UI_TIMEOUT });
    const install = page.getByRole('textbox', { name: 'Install', exact: true });
    const before = await install.inputValue();
    expect(before).toMatch(/'pck_[A-Za-z0-9_-]+'/);
    await page.getByRole('button', { name: /Detach gateways/ }).click();
    await page
      .locator('.ant-popover:visible')
      .getByRole('button', { name: 'Detach gateways' })
      .click();
    await expectNotice(page, 'The cluster is detached; install a gateway with the new command');
    await expect.poll(() => install.inputValue(), { timeout: UI_TIMEOUT }).not.toBe(before);
    await picture(page, 'clusters-detached-en_US');
    await page.goto('/settings/cluster');
    await row(page, CLUSTER).getByText('Unavailable', { exact: true }).waitFor({
      timeout: UI_TIMEOUT,
    });
  });
});

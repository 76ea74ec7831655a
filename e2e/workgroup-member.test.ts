/**
 * The members' workgroups in Chromium against the real server and a real gateway, as one
 * ordinary member's working session: they see exactly the workgroup they belong to (not another
 * one, not the cluster's default one), star it, export its resources (a real xlsx) and, once they
 * have a code, its Ansible inventory (which `ansible-inventory` reads, when installed); set a
 * default login user; create, change and delete a connection code under the cluster's maximum;
 * and make a temporary authorization whose credentials are shown once; made the workgroup's
 * administrator, they distribute a member, change their type and delete their code. The cluster, resources,
 * workgroups and membership are seeded through the API by an administrator: they are not the
 * point here. Screenshots of the list, the detail and the Manage Code panel in both languages go
 * to .test-artifacts/. The tests share the server and run in order.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import ExcelJS from 'exceljs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import type { Gateway } from '../apps/gateway/src/control/client';
import { ADMIN_EMAIL, ADMIN_PASSWORD, screenshot, startE2E, type E2E } from './harness';
import { api, expectNotice, login, UI_TIMEOUT, waitForNoticesGone } from './console';
import { addMember, clusterWithKey, connectedGateway } from './fixtures';

const CLUSTER = 'Lab';
const MINE = 'Night shift';
const OTHER = 'Day shift';
const MEMBER = { account: 'ada@demo.local', name: 'Ada', password: 'Member#Pass2026' };
const BOB = { account: 'bob@demo.local', name: 'Bob', password: 'Member#Pass2027' };
/** The cluster's maximum code validity: one hour, so one day and 120 minutes are refused. */
const MAX_SECONDS = 3600;

let e2e: E2E;
let admin: { context: BrowserContext; page: Page };
let member: { context: BrowserContext; page: Page };
let gateway: Gateway | undefined;
let tmpDir: string;
const opened: BrowserContext[] = [];
let workgroupId = 0;
let webId = 0;
let memberId = 0;

async function fresh(locale?: string): Promise<{ context: BrowserContext; page: Page }> {
  const made = await e2e.newPage(locale ? { locale } : {});
  await made.context.grantPermissions(['clipboard-read', 'clipboard-write']);
  opened.push(made.context);
  return made;
}

/** The right-hand panel (or modal) titled `title`. */
function dialog(page: Page, title: string | RegExp): Locator {
  return page
    .getByRole('dialog')
    .filter({ has: page.locator('.ant-drawer-title, .ant-modal-title', { hasText: title }) });
}

function row(scope: Page | Locator, text: string): Locator {
  return scope.getByRole('row').filter({ hasText: text });
}

/** The workgroup card whose title links to `name`. */
function card(page: Page, name: string): Locator {
  return page
    .locator('.pc-workgroup-card')
    .filter({ has: page.getByRole('link', { name, exact: true }) });
}

async function selectOption(page: Page, text: string): Promise<void> {
  await page
    .locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: text })
    .first()
    .click({ timeout: UI_TIMEOUT });
}

async function confirmPopover(page: Page, title: string, name: string): Promise<void> {
  const popover = page.getByRole('tooltip').filter({ hasText: title });
  await popover.waitFor({ timeout: UI_TIMEOUT });
  await popover.getByRole('button', { name, exact: true }).click();
}

/** A full-page picture once the notices have gone (the viewport grows to the page first). */
async function picture(page: Page, name: string): Promise<void> {
  await waitForNoticesGone(page);
  await page.waitForTimeout(400);
  const viewport = page.viewportSize() ?? { width: 1366, height: 820 };
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  if (height > viewport.height) await page.setViewportSize({ width: viewport.width, height });
  await screenshot(page, name);
  await page.setViewportSize(viewport);
}

/** Clicks `link` and saves the file it downloads; returns its path and suggested name. */
async function download(page: Page, link: Locator): Promise<{ file: string; name: string }> {
  const [got] = await Promise.all([page.waitForEvent('download'), link.click()]);
  const file = path.join(tmpDir, got.suggestedFilename());
  await got.saveAs(file);
  return { file, name: got.suggestedFilename() };
}

async function detail(page: Page, type: 'ecs' | 'rds' = 'ecs'): Promise<void> {
  await page.goto(`/operation/workgroup/${workgroupId}?type=${type}`);
  await page.locator('.ant-tabs-tab-active').waitFor({ timeout: UI_TIMEOUT });
  await page.waitForLoadState('networkidle');
}

async function openCodes(page: Page): Promise<Locator> {
  await row(page, 'web-1').getByRole('button', { name: 'Manage codes of web-1' }).click();
  const panel = dialog(page, 'Manage Code · web-1');
  await panel.waitFor({ timeout: UI_TIMEOUT });
  return panel;
}

interface Paged<T> {
  objects: T[];
}

beforeAll(async () => {
  e2e = await startE2E();
  tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pc-e2e-member-'));
  admin = await fresh();
  await login(e2e, admin.context, admin.page, { username: ADMIN_EMAIL, password: ADMIN_PASSWORD });
  const { context } = admin;

  // A cluster with a real gateway (so agent_status is 1) and a one-hour code maximum.
  const { clusterId, key } = await clusterWithKey(context, CLUSTER);
  await api(context, 'PATCH', `/network/${clusterId}`, { max_tunnel_expire_time: MAX_SECONDS });
  gateway = await connectedGateway(e2e, key, { host: 'gw.e2e' });

  const resource = (body: Record<string, unknown>) =>
    api<{ id: number }>(context, 'POST', '/v1/resource', { network_id: clusterId, ...body });
  const server = (name: string, ip: string, users: string[], osName = 'linux', port = 22) =>
    resource({
      name,
      ip_address: ip,
      os: osName,
      port,
      flavor: '2C4G',
      login_users: users.map((username) => ({ username, auth_type: 0, password: 'S3cret!pw' })),
    });
  const web = await server('web-1', '10.30.0.11', ['root', 'deploy']);
  const win = await server('win-1', '10.30.0.21', ['administrator'], 'win32', 3389);
  const db = await resource({
    name: 'orders-db',
    ip_address: '10.30.0.31',
    os: 'mysql',
    port: 3306,
    username: 'app',
    password: 'S3cret!pw',
    databases: 'orders;billing',
  });
  const other = await server('ledger', '10.30.0.41', ['root']);

  // The member, with a password set through the link their welcome mail carries.
  memberId = await addMember(e2e, context, MEMBER);

  // Her workgroup, and one she is not in.
  workgroupId = (
    await api<{ id: number }>(context, 'POST', '/v1/project', {
      name: MINE,
      desc: 'Servers the night rota needs',
    })
  ).id;
  await api(context, 'POST', `/v1/project/resources/${workgroupId}`, {
    resource_ids: [web.id, win.id, db.id],
  });
  await api(context, 'POST', `/v1/project/members/${workgroupId}`, {
    account_ids: [memberId],
    role: 0,
  });
  const otherId = (await api<{ id: number }>(context, 'POST', '/v1/project', { name: OTHER })).id;
  await api(context, 'POST', `/v1/project/resources/${otherId}`, { resource_ids: [other.id] });
  const rows = await api<Paged<{ id: number; name: string }>>(
    context,
    'GET',
    `/v1/project/resources/${workgroupId}?type=ecs`,
  );
  webId = rows.objects.find((r) => r.name === 'web-1')?.id ?? 0;
  expect(webId).toBeGreaterThan(0);

  member = await fresh();
  await login(
    e2e,
    member.context,
    member.page,
    { username: MEMBER.account, password: MEMBER.password },
    '/operation/workgroup',
  );
});

afterEach(async (ctx) => {
  if (ctx.task.result?.state !== 'fail') return;
  let n = 0;
  for (const context of opened) {
    for (const page of context.pages()) {
      await screenshot(
        page,
        `failed-workgroup-member-${ctx.task.name.slice(0, 40).replace(/\W+/g, '-')}-${n++}`,
      ).catch(() => undefined);
    }
  }
});

afterAll(async () => {
  await gateway?.stop();
  for (const context of opened) await context.close().catch(() => undefined);
  await e2e?.close();
  if (tmpDir) fs.rmSync(tmpDir, { recursive: true, force: true });
});

describe("a member's workgroups", () => {
  it('sees exactly her workgroup, stars it and exports its resources as xlsx', async () => {
    const { page } = member;
    await page.getByRole('menuitem', { name: /WorkGroup/ }).waitFor();
    await card(page, MINE).waitFor({ timeout: UI_TIMEOUT });
    expect(await page.locator('.pc-workgroup-card').count()).toBe(1);
    expect(await page.getByRole('link', { name: OTHER }).count()).toBe(0);
    expect(await page.getByRole('link', { name: CLUSTER, exact: true }).count()).toBe(0);
    await card(page, MINE).getByText('3 resources').waitFor();
    // Nothing starred yet: Star Work Group is off.
    expect(await page.getByRole('radio', { name: 'Star Work Group' }).isDisabled()).toBe(true);

    const star = card(page, MINE).getByRole('button', { name: `Star workgroup ${MINE}` });
    // By keyboard: focus the star and press Space.
    await star.focus();
    await page.keyboard.press('Space');
    await expect
      .poll(() => star.getAttribute('aria-pressed'), { timeout: UI_TIMEOUT })
      .toBe('true');
    await expect
      .poll(() => page.getByRole('radio', { name: 'Star Work Group' }).isDisabled(), {
        timeout: UI_TIMEOUT,
      })
      .toBe(false);
    await page.getByText('Star Work Group', { exact: true }).click();
    await card(page, MINE).waitFor();
    await picture(page, 'workgroup-member-list-en_US');

    // A search by IP finds it through its server's address; another address finds nothing.
    await page.getByText('All Work Group', { exact: true }).click();
    await page.getByRole('combobox', { name: 'Search by' }).click();
    await selectOption(page, 'IP');
    const search = page.getByRole('searchbox', { name: 'Search workgroups' });
    await search.fill('10.30.0.41');
    await search.press('Enter');
    await page.getByText('No Data', { exact: true }).waitFor({ timeout: UI_TIMEOUT });
    await search.fill('10.30.0.11');
    await search.press('Enter');
    await card(page, MINE).waitFor({ timeout: UI_TIMEOUT });

    const { file } = await download(
      page,
      card(page, MINE).getByRole('link', { name: `Export the resources of ${MINE}` }),
    );
    const bytes = fs.readFileSync(file);
    expect(bytes.subarray(0, 2).toString('latin1')).toBe('PK');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(bytes as unknown as ArrayBuffer);
    const names = book.worksheets[0]?.getColumn(1).values ?? [];
    expect(names).toEqual(expect.arrayContaining(['web-1', 'win-1', 'orders-db']));
    expect(names).not.toContain('ledger');
  });

  it('shows servers and databases with their rules, and sets a default login user', async () => {
    const { page } = member;
    await card(page, MINE).getByRole('link', { name: MINE, exact: true }).click();
    await page.waitForURL(`**/operation/workgroup/${workgroupId}?type=ecs`);
    const web = row(page, 'web-1');
    await web.getByLabel('Cluster Lab is available').waitFor({ timeout: UI_TIMEOUT });
    await web.getByLabel('Linux').waitFor();
    expect(await web.getByRole('button', { name: 'Connect to web-1' }).isEnabled()).toBe(true);
    await row(page, 'win-1').getByLabel('Windows').waitFor();

    await web.getByRole('button', { name: 'Config of web-1' }).click();
    const config = dialog(page, 'Linux default login user');
    await config.getByRole('combobox').click();
    await selectOption(page, 'deploy');
    await config.getByRole('button', { name: 'Save' }).click();
    await expectNotice(page, 'Update successfully!');
    const saved = await api<{ default_username: string }>(
      member.context,
      'GET',
      `/project_resource/${webId}`,
    );
    expect(saved.default_username).toBe('deploy');
    // The default login user is marked in the row.
    await web.locator('.ant-tag-blue', { hasText: 'deploy' }).waitFor({ timeout: UI_TIMEOUT });
    await picture(page, 'workgroup-member-servers-en_US');

    await page.getByRole('tab', { name: 'Databases' }).click();
    await page.waitForURL(`**/operation/workgroup/${workgroupId}?type=rds`);
    const orders = row(page, 'orders-db');
    await orders.getByLabel('MySQL').waitFor({ timeout: UI_TIMEOUT });
    await orders.getByText('orders; billing').waitFor();
    // SQL approval is off (status 1): no Start Application.
    expect(await orders.getByRole('button', { name: /Start an application/ }).count()).toBe(0);
    await picture(page, 'workgroup-member-databases-en_US');
  });

  it('creates a code within the maximum, exports the Ansible inventory, changes and deletes the code', async () => {
    const { page } = member;
    await detail(page);
    let panel = await openCodes(page);
    await panel.getByText('No code yet').waitFor({ timeout: UI_TIMEOUT });
    await panel.getByRole('button', { name: /Create/ }).click();
    const create = dialog(page, 'Create code');
    await create.getByText('At most 1 hour on this cluster.').waitFor();
    // One day is past the cluster's hour.
    await create.getByRole('radio', { name: 'One day' }).check();
    await create.getByRole('button', { name: 'Create', exact: true }).click();
    await create.getByText('The expiry exceeds the maximum allowed').waitFor();
    // A custom time without a date.
    await create.getByRole('radio', { name: 'Custom' }).check();
    await create.getByRole('button', { name: 'Create', exact: true }).click();
    await create.getByText('select date', { exact: true }).waitFor();
    await create.getByRole('radio', { name: '30 minutes (default)' }).check();
    await create.getByRole('button', { name: /Add my IP \(127\.0\.0\.1\)/ }).click();
    expect(await create.getByRole('textbox', { name: 'Allowed IPs' }).inputValue()).toBe(
      '127.0.0.1',
    );
    await picture(page, 'workgroup-member-create-code-en_US');
    await create.getByRole('button', { name: 'Create', exact: true }).click();
    await expectNotice(page, 'Create successfully!');

    const mine = row(panel, MEMBER.name);
    await mine.getByText('127.0.0.1').waitFor({ timeout: UI_TIMEOUT });
    const code = (await mine.locator('code').first().innerText()).trim();
    expect(code).toMatch(/^[a-z2-7]{20}$/);
    // One code per member and resource: Create waits now.
    expect(await panel.getByRole('button', { name: /Create/ }).isDisabled()).toBe(true);
    await picture(page, 'workgroup-member-codes-en_US');
    await panel.getByRole('button', { name: 'Close' }).click();
    // The row shows the code masked.
    await row(page, 'web-1')
      .getByText(`${code.slice(0, 4)}****${code.slice(-2)}`)
      .waitFor({ timeout: UI_TIMEOUT });

    // Connect shows how to use it.
    await row(page, 'web-1').getByRole('button', { name: 'Connect to web-1' }).click();
    const connect = dialog(page, 'Connect to web-1');
    await connect.getByText(`ssh -p 9998 ${code}@gw.e2e`).waitFor({ timeout: UI_TIMEOUT });
    await connect.getByRole('button', { name: 'Close' }).click();

    // The Ansible inventory reaches web-1 through the gateway with this code.
    const inventory = await download(page, page.getByRole('link', { name: /Export Ansible/ }));
    const text = fs.readFileSync(inventory.file, 'utf8');
    expect(text).toContain('[Night_shift]');
    expect(text).toContain(`web-1 ansible_host=gw.e2e ansible_port=9998 ansible_user=${code}`);
    if (fs.existsSync('/usr/bin/ansible-inventory')) {
      const { stdout } = await promisify(execFile)(
        'ansible-inventory',
        ['-i', inventory.file, '--list'],
        { env: { ...process.env, ANSIBLE_LOCAL_TEMP: tmpDir, ANSIBLE_HOME: tmpDir } },
      );
      const parsed = JSON.parse(stdout) as { Night_shift?: { hosts?: string[] } };
      expect(parsed.Night_shift?.hosts).toEqual(['web-1']);
    }

    // Change: other allowed addresses, the expiry kept.
    panel = await openCodes(page);
    await row(panel, MEMBER.name)
      .getByRole('button', { name: `Change the code of ${MEMBER.name}` })
      .click();
    const modify = dialog(page, 'Modify code');
    await modify.getByRole('radio', { name: 'Keep' }).waitFor();
    const ips = modify.getByRole('textbox', { name: 'Allowed IPs' });
    await ips.fill('10.1.2.3,10.1.2.4');
    await modify.getByRole('button', { name: 'Change', exact: true }).click();
    await modify
      .getByText('One IPv4 address, or several joined by a colon (10.0.0.1:10.0.0.2)')
      .waitFor();
    await ips.fill('10.1.2.3:10.1.2.4');
    await modify.getByRole('button', { name: 'Change', exact: true }).click();
    await expectNotice(page, 'Change successfully!');
    await row(panel, MEMBER.name).getByText('10.1.2.3, 10.1.2.4').waitFor({ timeout: UI_TIMEOUT });

    // Delete: a confirmation, then the code is disabled and gone from the list.
    await row(panel, MEMBER.name)
      .getByRole('button', { name: `Delete the code of ${MEMBER.name}` })
      .click();
    await confirmPopover(page, 'Delete this code?', 'Delete');
    await expectNotice(page, 'Delete successfully!');
    await panel.getByText('No code yet').waitFor({ timeout: UI_TIMEOUT });
    const left = await api<Paged<unknown>>(
      member.context,
      'GET',
      `/tunnel?project_resource_id=${webId}`,
    );
    expect(left.objects).toHaveLength(0);
    expect(await panel.getByRole('button', { name: /Create/ }).isEnabled()).toBe(true);
    await panel.getByRole('button', { name: 'Close' }).click();
  });

  it('authorizes temporarily and sees the one-time credentials once', async () => {
    const { page } = member;
    await detail(page);
    const panel = await openCodes(page);
    await panel.getByRole('button', { name: /Temporary Authorize/ }).click();
    const tmp = dialog(page, 'Temporary Authorize');
    await tmp.getByText('At most 60 minutes, as the administrator set.').waitFor();
    await tmp.getByRole('radio', { name: '120 minutes' }).check();
    await tmp.getByRole('button', { name: 'Authorize' }).click();
    await tmp
      .getByText(
        'Creation failed, the effective time has exceeded the maximum effective time of the code set by the administrator',
      )
      .waitFor();
    await tmp.getByRole('radio', { name: 'Custom' }).check();
    await tmp.getByRole('spinbutton', { name: 'Effective minutes' }).fill('0');
    await tmp.getByRole('button', { name: 'Authorize' }).click();
    await tmp.getByText('the maximum effective time cannot be less than 1 minutes').waitFor();
    await tmp.getByRole('spinbutton', { name: 'Effective minutes' }).fill('45');
    await tmp.getByRole('textbox', { name: 'Allowed IPs' }).fill('192.168.7.7');
    const password = await tmp.getByLabel('One-time password').inputValue();
    expect(password).toHaveLength(16);
    await picture(page, 'workgroup-member-tmp-auth-en_US');
    // Enter in a field submits the dialog.
    await tmp.getByRole('textbox', { name: 'Allowed IPs' }).press('Enter');

    const result = dialog(page, 'Temporary authorization');
    await result.getByText(password, { exact: true }).waitFor({ timeout: UI_TIMEOUT });
    const user = (await result.locator('code').first().innerText()).trim();
    expect(user).toMatch(/^[a-z2-7]{20}$/);
    await result.getByText('deploy', { exact: true }).waitFor();
    await picture(page, 'workgroup-member-tmp-result-en_US');
    // Copy puts the password on the clipboard.
    await result.getByRole('button', { name: /copy/i }).nth(1).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(password);
    await result.getByRole('button', { name: 'I have copied them' }).click();
    await result.waitFor({ state: 'hidden' });

    // Listed as a temporary share, without Change, and the password is nowhere on the page.
    const share = row(panel, 'Temporary');
    await share.getByText('192.168.7.7').waitFor({ timeout: UI_TIMEOUT });
    expect(await share.getByRole('button', { name: /Change/ }).count()).toBe(0);
    expect(await page.getByText(password).count()).toBe(0);
    const listed = await api<Paged<Record<string, unknown>>>(
      member.context,
      'GET',
      `/tunnel?project_resource_id=${webId}`,
    );
    expect(JSON.stringify(listed)).not.toContain(password);
    await picture(page, 'workgroup-member-codes-tmp-en_US');
  });

  it('as the workgroup’s administrator, distributes a member, changes their type and deletes their code', async () => {
    const { page } = member;
    // The team administrator makes Ada the workgroup's administrator; Bob has an account.
    await api(admin.context, 'PATCH', `/project/${workgroupId}/member`, {
      account_id: memberId,
      role: 1,
    });
    const bobId = await addMember(e2e, admin.context, BOB);

    await page.goto(`/operation/workgroup/${workgroupId}?type=member`);
    await page
      .getByRole('tab', { name: 'Members', selected: true })
      .waitFor({ timeout: UI_TIMEOUT });
    const ada = row(page, MEMBER.account);
    await ada.waitFor({ timeout: UI_TIMEOUT });
    // Ada is no team administrator: names are not links to member pages she cannot open.
    expect(await ada.getByRole('link').count()).toBe(0);

    await page.getByRole('button', { name: /Distribute/ }).click();
    const add = dialog(page, 'Add member');
    await add.getByRole('combobox').first().click();
    await add.getByRole('combobox').first().pressSequentially('bob');
    await selectOption(page, `${BOB.name} (${BOB.account})`);
    await add.getByRole('button', { name: 'Add', exact: true }).click();
    await expectNotice(page, 'Add Successfully!');
    await add.waitFor({ state: 'hidden' });
    const bob = row(page, BOB.account);
    await bob.waitFor({ timeout: UI_TIMEOUT });

    await bob.getByRole('combobox', { name: `Type of ${BOB.name}` }).click();
    await selectOption(page, 'Administrator');
    await expectNotice(page, 'Change successfully!');
    const members = await api<Paged<{ id: number; role: number }>>(
      member.context,
      'GET',
      `/v1/project/members/${workgroupId}`,
    );
    expect(members.objects.find((m) => m.id === bobId)?.role).toBe(1);
    await picture(page, 'workgroup-member-members-en_US');

    // Bob makes a code on web-1; Ada, administering the workgroup, sees it and deletes it.
    const bobSession = await fresh();
    await login(
      e2e,
      bobSession.context,
      bobSession.page,
      { username: BOB.account, password: BOB.password },
      '/operation/workgroup',
    );
    await api(bobSession.context, 'POST', '/tunnel', { project_resource_id: webId });
    await detail(page);
    const panel = await openCodes(page);
    const bobCode = row(panel, BOB.name);
    await bobCode.waitFor({ timeout: UI_TIMEOUT });
    await bobCode.getByRole('button', { name: `Delete the code of ${BOB.name}` }).click();
    await confirmPopover(page, 'Delete this code?', 'Delete');
    await expectNotice(page, 'Delete successfully!');
    await bobCode.waitFor({ state: 'detached', timeout: UI_TIMEOUT });
    // Bob, now an administrator of the workgroup too, still sees Ada's temporary share.
    const bobCodes = await api<Paged<{ account: { id: number } }>>(
      bobSession.context,
      'GET',
      `/tunnel?project_resource_id=${webId}`,
    );
    expect(bobCodes.objects.filter((c) => c.account.id === bobId)).toHaveLength(0);
    await panel.getByRole('button', { name: 'Close' }).click();

    // And takes Bob out of the workgroup again.
    await page.getByRole('tab', { name: 'Members' }).click();
    await row(page, BOB.account)
      .getByRole('button', { name: `Delete ${BOB.name} from the workgroup` })
      .click();
    await confirmPopover(page, 'Delete this member from the workgroup?', 'Delete');
    await expectNotice(page, 'Delete successfully!');
    await row(page, BOB.account).waitFor({ state: 'detached', timeout: UI_TIMEOUT });
  });

  it('renders the pages in Chinese', async () => {
    const { context, page } = await fresh('zh-CN');
    await login(
      e2e,
      context,
      page,
      { username: MEMBER.account, password: MEMBER.password },
      '/operation/workgroup',
    );
    await card(page, MINE).getByText('3 个资源').waitFor({ timeout: UI_TIMEOUT });
    await page.getByText('星标工作组', { exact: true }).waitFor();
    await picture(page, 'workgroup-member-list-zh_CN');
    await detail(page);
    await row(page, 'web-1').getByLabel('集群 Lab 可用').waitFor({ timeout: UI_TIMEOUT });
    await picture(page, 'workgroup-member-servers-zh_CN');
    await row(page, 'web-1').getByRole('button', { name: '管理 web-1 的连接码' }).click();
    const panel = dialog(page, '管理连接码 · web-1');
    await row(panel, '临时').waitFor({ timeout: UI_TIMEOUT });
    await picture(page, 'workgroup-member-codes-zh_CN');
    await panel.getByRole('button', { name: /创建/ }).click();
    const create = dialog(page, '创建连接码');
    await create.getByText('该集群最长 1 小时。').waitFor();
    await picture(page, 'workgroup-member-create-code-zh_CN');
    await create.getByRole('button', { name: /取\s*消/ }).click();
    // Ada administers the workgroup (the test before): her members tab, in Chinese.
    await page.goto(`/operation/workgroup/${workgroupId}?type=member`);
    await row(page, MEMBER.account).waitFor({ timeout: UI_TIMEOUT });
    await page.getByRole('tab', { name: '成员', selected: true }).waitFor();
    await picture(page, 'workgroup-member-members-zh_CN');
  });
});

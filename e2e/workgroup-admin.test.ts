/**
 * Workgroup administration in Chromium against the real server, as one administrator's working
 * session: build a workgroup through the console with servers and a database from a cluster, a
 * member and a group; change a server's login users; see a cluster's default workgroup with its
 * globe, its disabled Delete and no Add or Delete inside; delete a workgroup after confirming;
 * and use a member's workgroups page (Distribute, Exit). The cluster, its resources, the member
 * and the group are seeded through the API: they are not the point here. Screenshots of the
 * list, the detail tabs and the member's page in both languages go to .test-artifacts/. The
 * tests share the server and run in order.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { ADMIN_EMAIL, ADMIN_PASSWORD, screenshot, startE2E, type E2E } from './harness';
import { api, expectNotice, login, UI_TIMEOUT, waitForNoticesGone } from './console';

const CLUSTER = 'Lab';
const WORKGROUP = 'Night shift';
const MEMBER = { account: 'newton@demo.local', name: 'Newton' };
const GROUP = 'On call';

let e2e: E2E;
let admin: { context: BrowserContext; page: Page };
const opened: BrowserContext[] = [];
let clusterId = 0;
let memberId = 0;
let workgroupId = 0;

async function fresh(locale?: string): Promise<{ context: BrowserContext; page: Page }> {
  const made = await e2e.newPage(locale ? { locale } : {});
  opened.push(made.context);
  return made;
}

/** The right-hand panel (or modal) titled `title`. */
function dialog(page: Page, title: string): Locator {
  return page
    .getByRole('dialog')
    .filter({ has: page.locator('.ant-drawer-title, .ant-modal-title', { hasText: title }) });
}

function row(scope: Page | Locator, text: string): Locator {
  return scope.getByRole('row').filter({ hasText: text });
}

/** Answers the open Popconfirm titled `title` with its button `name`. */
async function confirmPopover(page: Page, title: string, name: string): Promise<void> {
  const popover = page.getByRole('tooltip').filter({ hasText: title });
  await popover.waitFor({ timeout: UI_TIMEOUT });
  await popover.getByRole('button', { name, exact: true }).click();
}

/** Picks an option of the open Select dropdown (the visible item, not the a11y list). */
async function selectOption(page: Page, text: string | RegExp): Promise<void> {
  await page
    .locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: text })
    .first()
    .click({ timeout: UI_TIMEOUT });
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

async function detail(page: Page, id: number, type: string): Promise<void> {
  await page.goto(`/settings/workgroup/${id}?type=${type}`);
  await page.locator('.ant-tabs-tab-active').waitFor({ timeout: UI_TIMEOUT });
  await page.waitForLoadState('networkidle');
}

interface Paged<T> {
  objects: T[];
  num_results: number;
}
interface WorkgroupRow {
  id: number;
  name: string;
  is_default: boolean;
  resource_count: number;
  account_count: number;
}

beforeAll(async () => {
  e2e = await startE2E();
  admin = await fresh();
  await login(e2e, admin.context, admin.page, { username: ADMIN_EMAIL, password: ADMIN_PASSWORD });
  const { context } = admin;
  // A cluster with two Linux servers, a Windows server and a MySQL database; no gateway is
  // needed to manage workgroups.
  clusterId = (await api<{ id: number }>(context, 'POST', '/v1/network', { name: CLUSTER })).id;
  const server = (name: string, ip: string, users: string[], os = 'linux', port = 22) =>
    api(context, 'POST', '/v1/resource', {
      network_id: clusterId,
      name,
      ip_address: ip,
      os,
      port,
      flavor: '2C4G',
      login_users: users.map((username) => ({ username, auth_type: 0, password: 'S3cret!pw' })),
    });
  await server('web-1', '10.20.0.11', ['root', 'deploy', 'backup']);
  await server('web-2', '10.20.0.12', ['root']);
  await server('win-1', '10.20.0.21', ['administrator'], 'win32', 3389);
  await api(context, 'POST', '/v1/resource', {
    network_id: clusterId,
    name: 'orders-db',
    ip_address: '10.20.0.31',
    os: 'mysql',
    port: 3306,
    username: 'app',
    password: 'S3cret!pw',
    databases: 'orders;billing',
  });
  memberId = (
    await api<{ id: number }>(context, 'POST', '/v1/account', {
      account: MEMBER.account,
      name: MEMBER.name,
      is_admin: 0,
    })
  ).id;
  const group = await api<{ id: number }>(context, 'POST', '/v1/group', {
    name: GROUP,
    note: 'Pager rota',
  });
  await api(context, 'POST', `/v1/group/members/${group.id}`, { members: [memberId] });
});

afterEach(async (ctx) => {
  if (ctx.task.result?.state !== 'fail') return;
  let n = 0;
  for (const context of opened) {
    for (const page of context.pages()) {
      await screenshot(
        page,
        `failed-workgroup-admin-${ctx.task.name.slice(0, 40).replace(/\W+/g, '-')}-${n++}`,
      ).catch(() => undefined);
    }
  }
});

afterAll(async () => {
  for (const context of opened) await context.close().catch(() => undefined);
  await e2e?.close();
});

describe('workgroup administration', () => {
  it("lists the cluster's default workgroup with its globe and no Delete, and creates one", async () => {
    const { page } = admin;
    await page.getByRole('menuitem', { name: /WorkGroup Manage/ }).click();
    await page.waitForURL('**/settings/workgroup');
    const lab = row(page, CLUSTER);
    await lab.getByRole('img', { name: 'Default workgroup' }).waitFor({ timeout: UI_TIMEOUT });
    expect(
      await lab.getByRole('button', { name: `Delete workgroup ${CLUSTER}` }).isDisabled(),
    ).toBe(true);
    // It holds the cluster's four resources.
    await lab.getByRole('cell', { name: '4', exact: true }).waitFor();

    await page.getByRole('button', { name: /Add workgroup/ }).click();
    const panel = dialog(page, 'Add workgroup');
    await panel.getByRole('button', { name: 'Add', exact: true }).click();
    await panel.getByText('Please input the workgroup name').waitFor();
    await panel.getByRole('textbox', { name: 'Workgroup name' }).fill('N');
    await panel.getByText('The workgroup name is 2 to 255 characters').waitFor();
    await picture(page, 'workgroup-admin-create-en_US');
    await panel.getByRole('textbox', { name: 'Workgroup name' }).fill(`  ${WORKGROUP}  `);
    await panel.getByRole('textbox', { name: 'Description' }).fill('Servers the night rota needs');
    await panel.getByRole('button', { name: 'Add', exact: true }).click();
    await expectNotice(page, 'Add Successfully!');
    await row(page, WORKGROUP).getByText('Servers the night rota needs').waitFor();
    // As a person would, wait for the panel to close before opening it again: reopened while
    // still sliding out, it keeps the old form (antd destroys it only once fully closed).
    await panel.waitFor({ state: 'hidden', timeout: UI_TIMEOUT });

    // The same name again is refused in words.
    await page.getByRole('button', { name: /Add workgroup/ }).click();
    const again = dialog(page, 'Add workgroup');
    await again.getByRole('textbox', { name: 'Workgroup name' }).fill(WORKGROUP.toUpperCase());
    await again.getByRole('button', { name: 'Add', exact: true }).click();
    await expectNotice(page, 'The workgroup name already exists');
    await again.getByRole('button', { name: 'Cancel' }).click();

    const list = await api<Paged<WorkgroupRow>>(admin.context, 'GET', '/v1/project/list');
    workgroupId = list.objects.find((w) => w.name === WORKGROUP)?.id ?? 0;
    expect(workgroupId).toBeGreaterThan(0);
  });

  it('adds servers and a database from the cluster and changes a server’s login users', async () => {
    const { page } = admin;
    await row(page, WORKGROUP)
      .getByRole('link', { name: `Details of workgroup ${WORKGROUP}` })
      .click();
    await page.waitForURL(`**/settings/workgroup/${workgroupId}?type=ecs`);
    await page.getByRole('heading', { name: WORKGROUP }).waitFor();
    await page.getByText('No Data', { exact: true }).first().waitFor();

    await page.getByRole('button', { name: /Add Host/ }).click();
    const add = dialog(page, 'Add Host');
    // Servers only: the database is offered on the other tab.
    await row(add, 'web-1').waitFor({ timeout: UI_TIMEOUT });
    expect(await row(add, 'orders-db').count()).toBe(0);
    await add.getByRole('button', { name: 'Add (0)' }).click();
    await add.getByText('Choose at least one resource').waitFor();
    await row(add, 'web-1').getByRole('checkbox').check();
    await row(add, 'web-2').getByRole('checkbox').check();
    await picture(page, 'workgroup-admin-add-host-en_US');
    await add.getByRole('button', { name: 'Add (2)' }).click();
    await expectNotice(page, 'Add Successfully!');
    const web1 = row(page, 'web-1');
    await web1.getByText('10.20.0.11:22').waitFor({ timeout: UI_TIMEOUT });
    await row(page, 'web-2').waitFor();

    // A server added to a workgroup grants all of its login users; take backup away.
    await web1.getByText('backup', { exact: true }).waitFor();
    await web1.getByRole('button', { name: 'Change the login users of web-1' }).click();
    const change = dialog(page, 'Change host login user');
    await change.getByRole('combobox').click();
    await selectOption(page, 'backup');
    await page.keyboard.press('Escape');
    await change.getByRole('button', { name: 'Save' }).click();
    await expectNotice(page, 'Change successfully!');
    await web1
      .getByText('backup', { exact: true })
      .waitFor({ state: 'detached', timeout: UI_TIMEOUT });
    await web1.getByText('deploy', { exact: true }).waitFor();
    const servers = await api<
      Paged<{ name: string; resource: { extension: { login_username: string[] } } }>
    >(admin.context, 'GET', `/v1/project/resources/${workgroupId}?type=ecs`);
    expect(
      servers.objects.find((r) => r.name === 'web-1')?.resource.extension.login_username.sort(),
    ).toEqual(['deploy', 'root']);
    await picture(page, 'workgroup-admin-servers-en_US');

    await page.getByRole('tab', { name: 'Databases' }).click();
    await page.waitForURL(`**/settings/workgroup/${workgroupId}?type=database`);
    await page.getByRole('button', { name: /Add Database/ }).click();
    const addDb = dialog(page, 'Add Database');
    await row(addDb, 'orders-db').getByRole('checkbox').check();
    await addDb.getByRole('button', { name: 'Add (1)' }).click();
    await expectNotice(page, 'Add Successfully!');
    const db = row(page, 'orders-db');
    await db.getByText('orders; billing').waitFor({ timeout: UI_TIMEOUT });
    await db.getByText('MySQL').waitFor();
    await picture(page, 'workgroup-admin-databases-en_US');

    // Delete one server after confirming.
    await page.getByRole('tab', { name: 'Servers' }).click();
    await row(page, 'web-2')
      .getByRole('button', { name: 'Delete web-2 from the workgroup' })
      .click();
    await confirmPopover(page, 'Delete this resource from the workgroup?', 'Delete');
    await expectNotice(page, 'Delete successfully!');
    await row(page, 'web-2').waitFor({ state: 'detached', timeout: UI_TIMEOUT });
  });

  it('distributes a member as administrator and a group by name, and shows the group’s members', async () => {
    const { page } = admin;
    await detail(page, workgroupId, 'member');
    await page.getByRole('button', { name: /Distribute/ }).click();
    const add = dialog(page, 'Add member');
    await add.getByRole('button', { name: 'Add', exact: true }).click();
    await add.getByText('Member is found').waitFor();
    await add.getByRole('combobox').click();
    await page.keyboard.type('newt');
    await selectOption(page, MEMBER.account);
    await page.keyboard.press('Escape');
    await add.getByRole('radio', { name: 'Administrator' }).check();
    await add.getByRole('button', { name: 'Add', exact: true }).click();
    await expectNotice(page, 'Add Successfully!');
    const newton = row(page, MEMBER.account);
    await newton.getByText('Administrator').waitFor({ timeout: UI_TIMEOUT });
    await picture(page, 'workgroup-admin-members-en_US');

    // Back to an ordinary member, in place.
    await newton.getByRole('combobox', { name: `Type of ${MEMBER.name}` }).click();
    await selectOption(page, 'Ordinary member');
    await expectNotice(page, 'Change successfully!');
    const members = await api<Paged<{ id: number; role: number }>>(
      admin.context,
      'GET',
      `/v1/project/members/${workgroupId}`,
    );
    expect(members.objects).toEqual([expect.objectContaining({ id: memberId, role: 0 })]);

    await page.getByRole('tab', { name: 'Groups' }).click();
    await page.waitForURL(`**/settings/workgroup/${workgroupId}?type=group`);
    await page.getByRole('button', { name: /Distribute/ }).click();
    const addGroup = dialog(page, 'Add group');
    await addGroup.getByRole('combobox').click();
    await page.keyboard.type('On c');
    await selectOption(page, GROUP);
    await page.keyboard.press('Escape');
    await addGroup.getByRole('button', { name: 'Add', exact: true }).click();
    await expectNotice(page, 'Add Successfully!');
    const group = row(page, GROUP);
    await group.getByText('Pager rota').waitFor({ timeout: UI_TIMEOUT });
    await group.getByRole('button', { name: `View the members of ${GROUP}` }).click();
    const view = dialog(page, `View group members: ${GROUP}`);
    await row(view, MEMBER.account).waitFor({ timeout: UI_TIMEOUT });
    await picture(page, 'workgroup-admin-groups-en_US');
    await view.getByRole('button', { name: 'Close' }).click();

    // The list counts them.
    await page.goto('/settings/workgroup');
    const listed = await api<Paged<WorkgroupRow>>(admin.context, 'GET', '/v1/project/list');
    expect(listed.objects.find((w) => w.id === workgroupId)).toMatchObject({
      resource_count: 2,
      account_count: 1,
    });
    await row(page, WORKGROUP).getByRole('cell', { name: '2', exact: true }).waitFor();
    await picture(page, 'workgroup-admin-list-en_US');
  });

  it("keeps the default workgroup's resources fixed; creates by keyboard and deletes after confirming", async () => {
    const { page, context } = admin;
    const list = await api<Paged<WorkgroupRow>>(context, 'GET', '/v1/project/list');
    const lab = list.objects.find((w) => w.is_default);
    expect(lab?.name).toBe(CLUSTER);
    await detail(page, lab?.id ?? 0, 'ecs');
    await page.locator('.pc-page-header').getByRole('img', { name: 'Default workgroup' }).waitFor();
    await row(page, 'win-1').getByText('Windows').waitFor({ timeout: UI_TIMEOUT });
    expect(await page.getByRole('button', { name: /Add Host/ }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /Delete/ }).count()).toBe(0);
    await picture(page, 'workgroup-admin-default-en_US');

    // Keyboard only: focus Add workgroup, open the panel, type the name and submit with Enter.
    await page.goto('/settings/workgroup');
    await row(page, CLUSTER).waitFor({ timeout: UI_TIMEOUT });
    await page.getByRole('button', { name: /Add workgroup/ }).focus();
    await page.keyboard.press('Enter');
    const name = dialog(page, 'Add workgroup').getByRole('textbox', { name: 'Workgroup name' });
    await expect.poll(() => name.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.type('Scratch');
    await page.keyboard.press('Enter');
    await expectNotice(page, 'Add Successfully!');
    await row(page, 'Scratch')
      .getByRole('button', { name: 'Delete workgroup Scratch' })
      .click({ timeout: UI_TIMEOUT });
    await confirmPopover(page, 'Delete this workgroup?', 'Delete');
    await expectNotice(page, 'Delete successfully!');
    await row(page, 'Scratch').waitFor({ state: 'detached', timeout: UI_TIMEOUT });
  });

  it("uses a member's workgroups page from the team: Distribute and Exit", async () => {
    const { page } = admin;
    await page.goto('/settings/team?type=members');
    await row(page, MEMBER.account)
      .getByRole('link', { name: `Distribute ${MEMBER.name} to workgroups` })
      .click({ timeout: UI_TIMEOUT });
    await page.waitForURL(`**/settings/account/${memberId}?type=workgroup&accountName=*`);
    await page.getByRole('heading', { name: `Workgroups of ${MEMBER.name}` }).waitFor();
    // A direct member (and through the group) of the new workgroup.
    const night = row(page, WORKGROUP);
    await night.getByText('Ordinary member').waitFor({ timeout: UI_TIMEOUT });
    await night.getByText(GROUP).waitFor();

    await page.getByRole('button', { name: /Distribute/ }).click();
    const join = dialog(page, 'Join WorkGroup');
    await join.getByRole('combobox').click();
    await selectOption(page, CLUSTER);
    await page.keyboard.press('Escape');
    await join.getByRole('radio', { name: 'Administrator' }).check();
    await join.getByRole('button', { name: 'Join', exact: true }).click();
    await expectNotice(page, 'Add Successfully!');
    await row(page, CLUSTER).getByText('Administrator').waitFor({ timeout: UI_TIMEOUT });
    await picture(page, 'workgroup-admin-account-en_US');

    await row(page, CLUSTER)
      .getByRole('button', { name: `Exit workgroup ${CLUSTER}` })
      .click();
    await confirmPopover(page, 'Exit this workgroup?', 'Exit');
    await expectNotice(page, 'Exit successfully!');
    await row(page, CLUSTER).waitFor({ state: 'detached', timeout: UI_TIMEOUT });

    // Exit the new workgroup too: the group still holds it for them.
    await row(page, WORKGROUP).getByRole('checkbox').check();
    await page.getByRole('button', { name: /^logout Exit$/ }).click();
    await confirmPopover(page, 'Exit the chosen workgroups?', 'Exit');
    await expectNotice(page, 'Exit successfully!');
    await row(page, WORKGROUP).getByText('Through groups').waitFor({ timeout: UI_TIMEOUT });
    expect(
      await row(page, WORKGROUP)
        .getByRole('button', { name: `Exit workgroup ${WORKGROUP}` })
        .isDisabled(),
    ).toBe(true);
  });

  it('renders the pages in Chinese', async () => {
    const { context, page } = await fresh('zh-CN');
    await login(e2e, context, page, { username: ADMIN_EMAIL, password: ADMIN_PASSWORD });
    await page.getByRole('menuitem', { name: /工作组管理/ }).click();
    await page.waitForURL('**/settings/workgroup');
    await row(page, WORKGROUP).waitFor({ timeout: UI_TIMEOUT });
    await row(page, CLUSTER).getByRole('img', { name: '默认工作组' }).waitFor();
    await picture(page, 'workgroup-admin-list-zh_CN');
    for (const [type, tab] of [
      ['ecs', '服务器'],
      ['database', '数据库'],
      ['member', '成员'],
      ['group', '分组'],
    ] as const) {
      await detail(page, workgroupId, type);
      await page.getByRole('tab', { name: tab, selected: true }).waitFor();
      await picture(page, `workgroup-admin-${type}-zh_CN`);
    }
    await page.goto(`/settings/account/${memberId}?type=workgroup&accountName=${MEMBER.name}`);
    await page.getByRole('heading', { name: `${MEMBER.name} 的工作组` }).waitFor();
    await row(page, WORKGROUP).getByText('通过分组').waitFor({ timeout: UI_TIMEOUT });
    await picture(page, 'workgroup-admin-account-zh_CN');
  });
});

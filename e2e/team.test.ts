/**
 * Team administration in Chromium against the real server, as one administrator's working
 * session: add a member (who gets the mail, sets a password and signs in), disable and enable
 * them, groups and their members, team settings (password strength and the gate, whitelists),
 * single sign-on through a real SAML identity provider (a second process signing assertions),
 * and the system-log page showing and exporting all of it. The tests share the server and run
 * in order, each building on the last. Screenshots of every tab go to .test-artifacts/.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import {
  IDP_PASSWORD,
  startTestIdp,
  type TestIdp,
} from '../apps/server/src/features/sso/test-idp/client';
import { ADMIN_EMAIL, lastMailLink, outbox, screenshot, startE2E, TEAM, type E2E } from './harness';
import { api, expectNotice, login, submitLogin, UI_TIMEOUT, waitForNoticesGone } from './console';

// Strength level 1 but not 2 (no special character): the gate test raises the team to 2.
const ADMIN_PASSWORD = 'AdminPass2026';
const ADMIN_PASSWORD_2 = 'Admin#Pass2027';
const MEMBER = 'newton@demo.local';
const MEMBER_PASSWORD = 'Member#Pass1';
const SSO_USER = 'carol@corp.example';

let e2e: E2E;
let idp: TestIdp | undefined;
let admin: { context: BrowserContext; page: Page };
const opened: BrowserContext[] = [];

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

/** Answers the open Popconfirm with its button `name`. */
async function confirmPopover(page: Page, title: string, name: string): Promise<void> {
  const popover = page.getByRole('tooltip').filter({ hasText: title });
  await popover.waitFor({ timeout: UI_TIMEOUT });
  await popover.getByRole('button', { name, exact: true }).click();
}

/** Picks an option of the open Select dropdown (the visible item, not the a11y list). */
async function selectOption(page: Page, text: string | RegExp): Promise<void> {
  const option = page.locator('.ant-select-dropdown:visible .ant-select-item-option', {
    hasText: text,
  });
  await option.first().click({ timeout: UI_TIMEOUT });
}

/**
 * Submits the tab's form with its Save button (while a save runs it reads 'loading Save', and
 * the click waits for the one before to end).
 */
async function saveForm(page: Page): Promise<void> {
  await page.locator('form').getByRole('button', { name: 'Save', exact: true }).click();
}

function row(page: Page, text: string): Locator {
  return page.getByRole('row').filter({ hasText: text });
}

async function teamTab(page: Page, type: string): Promise<void> {
  await page.goto(`/settings/team?type=${type}`);
  await page.locator('.ant-tabs-tab-active').waitFor({ timeout: UI_TIMEOUT });
}

/**
 * A full-page picture once the notices have gone and the page has settled. The viewport grows
 * to the page's height first: the shell's sticky header and menu would otherwise be drawn
 * part-way down a long page.
 */
async function picture(page: Page, name: string): Promise<void> {
  await waitForNoticesGone(page);
  await page.waitForTimeout(400);
  const viewport = page.viewportSize() ?? { width: 1366, height: 820 };
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  if (height > viewport.height) {
    await page.setViewportSize({ width: viewport.width, height });
    // The menu is as tall as the viewport: let it grow before the picture.
    await page.waitForTimeout(300);
  }
  await screenshot(page, name);
  await page.setViewportSize(viewport);
}

beforeAll(async () => {
  e2e = await startE2E({ PORTCULLIS_ADMIN_PASSWORD: ADMIN_PASSWORD });
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
        `failed-${ctx.task.name.slice(0, 40).replace(/\W+/g, '-')}-${n++}`,
      ).catch(() => undefined);
    }
  }
});

afterAll(async () => {
  await idp?.stop();
  for (const context of opened) await context.close().catch(() => undefined);
  await e2e?.close();
});

describe('team administration', () => {
  it('adds a member, who gets the mail, sets a password and signs in', async () => {
    const { page } = admin;
    await page.getByRole('menuitem', { name: /Team Manage/ }).click();
    await page.waitForURL('**/settings/team');
    await page.getByRole('tab', { name: 'Members', selected: true }).waitFor();
    await row(page, ADMIN_EMAIL).getByText('Owner').waitFor({ timeout: UI_TIMEOUT });

    await page.getByRole('button', { name: /Add member/ }).click();
    const panel = dialog(page, 'Add member');
    await panel.getByRole('textbox', { name: 'E-mail' }).fill('newton@');
    await panel.getByRole('textbox', { name: 'Full name' }).fill('N');
    await panel.getByRole('button', { name: 'Add', exact: true }).click();
    await panel.getByText('Please input the right email').waitFor();
    await panel.getByText('The full name is 2 to 16 characters').waitFor();
    const mailsBefore = outbox(e2e, 'mail').length;
    await panel.getByRole('textbox', { name: 'E-mail' }).fill(MEMBER);
    await panel.getByRole('textbox', { name: 'Full name' }).fill('Newton');
    await panel.getByRole('button', { name: 'Add', exact: true }).click();
    await expectNotice(page, 'Add Successfully!');
    const newton = row(page, MEMBER);
    await newton.getByText('Enabled').waitFor({ timeout: UI_TIMEOUT });
    await newton.getByText('Never').waitFor();

    // The same account again: the server's refusal in the catalogue's words.
    await page.getByRole('button', { name: /Add member/ }).click();
    await panel.getByRole('textbox', { name: 'E-mail' }).fill(MEMBER);
    await panel.getByRole('textbox', { name: 'Full name' }).fill('Newton Two');
    await panel.getByRole('button', { name: 'Add', exact: true }).click();
    await expectNotice(page, 'The account already exists');
    await panel.getByRole('button', { name: 'Cancel' }).click();

    expect(outbox(e2e, 'mail').length).toBe(mailsBefore + 1);
    const link = new URL(lastMailLink(e2e));
    expect(link.searchParams.get('account')).toBe(MEMBER);
    const member = await fresh();
    await member.page.goto(link.pathname + link.search);
    await member.page.getByLabel('New password', { exact: true }).fill(MEMBER_PASSWORD);
    await member.page.getByLabel('Repeat the new password').fill(MEMBER_PASSWORD);
    await member.page.getByRole('button', { name: 'Set password' }).click();
    await member.page.waitForURL('**/login', { timeout: UI_TIMEOUT });
    await login(
      e2e,
      member.context,
      member.page,
      { username: MEMBER, password: MEMBER_PASSWORD },
      '/operation/workgroup',
    );
    // An ordinary member has no Team Manage, and the route sends them home.
    expect(await member.page.getByRole('menuitem', { name: /Team Manage/ }).count()).toBe(0);
    await member.page.goto('/settings/team');
    await member.page.waitForURL('**/operation/workgroup', { timeout: UI_TIMEOUT });
    await member.context.close();

    await page.reload();
    await row(page, MEMBER)
      .getByText(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)
      .waitFor();
    await picture(page, 'team-members-en_US');
  });

  it('disables the member (their sign-in is refused), then enables them again', async () => {
    const { page } = admin;
    await row(page, MEMBER).getByRole('button', { name: 'Setting of Newton' }).click();
    const panel = dialog(page, 'Member setting');
    await panel.getByText('Base Info').waitFor();
    await panel.getByRole('switch', { name: 'Account enabled' }).click();
    const confirm = dialog(page, 'Disable this member?');
    await confirm.getByRole('button', { name: 'Confirm' }).click();
    await expectNotice(page, 'Change successfully!');
    await row(page, MEMBER).getByText('Disabled').waitFor({ timeout: UI_TIMEOUT });
    await picture(page, 'team-member-setting-en_US');

    const member = await fresh();
    await submitLogin(e2e, member.context, member.page, {
      username: MEMBER,
      password: MEMBER_PASSWORD,
    });
    await expectNotice(member.page, 'User disabled');
    expect(new URL(member.page.url()).pathname).toBe('/login');

    await panel.getByRole('switch', { name: 'Account enabled' }).click();
    await dialog(page, 'Enable this member?').getByRole('button', { name: 'Confirm' }).click();
    await expectNotice(page, 'Change successfully!');
    await row(page, MEMBER).getByText('Enabled').waitFor({ timeout: UI_TIMEOUT });
    await panel.getByRole('button', { name: 'Cancel' }).click();
    await member.context.close();
  });

  it('creates a group and adds members on its detail page', async () => {
    const { page } = admin;
    await page.getByRole('tab', { name: 'Groups' }).click();
    await page.waitForURL('**/settings/team?type=group');
    await page.getByText('No Data', { exact: true }).waitFor({ timeout: UI_TIMEOUT });
    await page.getByRole('button', { name: /Add group/ }).click();
    const panel = dialog(page, 'Add group');
    await panel.getByRole('textbox', { name: 'Group name' }).fill('O');
    await panel.getByRole('button', { name: 'Add', exact: true }).click();
    await panel.getByText('The group name is 2 to 20 characters').waitFor();
    await panel.getByRole('textbox', { name: 'Group name' }).fill('Operations');
    await panel.getByRole('textbox', { name: 'Note' }).fill('On-call engineers');
    await panel.getByRole('button', { name: 'Add', exact: true }).click();
    await expectNotice(page, 'Add Successfully!');
    await row(page, 'Operations').getByText('On-call engineers').waitFor({ timeout: UI_TIMEOUT });
    await picture(page, 'team-groups-en_US');

    await page.getByRole('link', { name: 'Operations' }).click();
    await page.waitForURL(/\/settings\/group\/\d+\?name=Operations$/);
    await page.getByRole('heading', { name: 'Operations' }).waitFor();
    await page.getByText('No Data', { exact: true }).waitFor({ timeout: UI_TIMEOUT });
    await page.getByRole('button', { name: /Add Member/ }).click();
    const add = dialog(page, 'Add members to the group');
    await add.getByRole('button', { name: 'Add', exact: true }).click();
    await add.getByText('Member is found').waitFor();
    await add.getByRole('combobox').click();
    await page.keyboard.type('newton');
    await selectOption(page, /Newton/);
    await page.keyboard.type('admin');
    await selectOption(page, /admin@demo\.local/);
    await page.keyboard.press('Escape');
    await add.getByRole('button', { name: 'Add', exact: true }).click();
    await expectNotice(page, 'Add Successfully!');
    await row(page, MEMBER).waitFor({ timeout: UI_TIMEOUT });
    await row(page, ADMIN_EMAIL).waitFor();
    await page.getByText('2 members').waitFor();

    // Search by name or account, then remove after confirming.
    await page.getByRole('searchbox', { name: "Search the group's members" }).fill('newt');
    await page.keyboard.press('Enter');
    await expect.poll(() => row(page, ADMIN_EMAIL).count(), { timeout: UI_TIMEOUT }).toBe(0);
    await page.getByRole('searchbox', { name: "Search the group's members" }).fill('');
    await page.keyboard.press('Enter');
    await row(page, ADMIN_EMAIL).waitFor({ timeout: UI_TIMEOUT });
    await row(page, ADMIN_EMAIL)
      .getByRole('button', { name: /Remove/ })
      .click();
    await confirmPopover(page, 'Remove from the group?', 'Remove');
    await expectNotice(page, 'Remove successfully!');
    await page.getByText('1 member', { exact: true }).waitFor({ timeout: UI_TIMEOUT });
    await picture(page, 'group-detail-en_US');

    await page.getByRole('link', { name: /Back to groups/ }).click();
    await page.waitForURL('**/settings/team?type=group');
    await row(page, 'Operations').getByRole('cell', { name: '1', exact: true }).waitFor();
  });

  it('shows the plan and version, and refuses an admin whitelist without oneself', async () => {
    const { page } = admin;
    await teamTab(page, 'settings');
    const plan = page.locator('.ant-card').filter({ hasText: 'Plan information' });
    await plan.getByText('Accounts').waitFor({ timeout: UI_TIMEOUT });
    // Two members now: the administrator and Newton.
    await plan.getByText(/^2 of /).waitFor();
    // The first-run team has no address yet: the form asks for one before anything is saved.
    await page.getByRole('textbox', { name: 'Contact address' }).fill('1 Harbour Road');
    await page.getByRole('textbox', { name: 'Contact phone' }).fill('12345');
    await saveForm(page);
    await page.getByText('Please enter a valid mobile number').waitFor();
    await page.getByRole('textbox', { name: 'Contact phone' }).fill('13800138000');
    await page.getByRole('textbox', { name: 'Admin whitelist' }).fill('10.0.0.0/24');
    await page
      .getByText(/Comma-separated IPv4 addresses/)
      .first()
      .waitFor();
    await page.getByRole('textbox', { name: 'Admin whitelist' }).fill('10.9.9.9');
    await saveForm(page);
    const warn = dialog(page, 'Restrict administrators to these addresses?');
    await warn.getByRole('button', { name: 'Save' }).click();
    await expectNotice(page, 'The admin whitelist must include your current address 127.0.0.1');
    await warn.waitFor({ state: 'detached' });
    await page.getByRole('textbox', { name: 'Admin whitelist' }).fill('');
    await saveForm(page);
    await expectNotice(page, 'Update successfully!');
    await picture(page, 'team-settings-en_US');

    await page.getByRole('tab', { name: 'Version' }).click();
    await page.waitForURL('**/settings/team?type=version');
    await page.getByTestId('product-version').waitFor();
    expect(await page.getByTestId('product-version').textContent()).toMatch(/^\d+\.\d+\.\d+/);
    await picture(page, 'team-version-en_US');
    await page.goBack();
    await page.waitForURL('**/settings/team?type=settings');
  });

  it('raises the password strength to 2: the administrator must change a level-1 password', async () => {
    const { context, page } = admin;
    await teamTab(page, 'settings');
    await page.getByRole('radio', { name: /At least 8 characters/ }).check();
    await saveForm(page);
    await expectNotice(page, 'Update successfully!');
    const gate = dialog(page, 'Please change your password');
    await gate.waitFor({ timeout: UI_TIMEOUT });
    await picture(page, 'password-gate-en_US');
    await gate.getByRole('button', { name: 'Change password' }).click();
    await page.waitForURL('**/personal/security?changePwd=1');
    const change = dialog(page, 'Change password');
    await change.getByLabel('New password', { exact: true }).fill('Admin1pass');
    await change.getByRole('button', { name: 'Save' }).click();
    await change
      .locator('.ant-form-item-explain-error')
      .filter({ hasText: /at least 8 characters long and must contain uppercase/ })
      .waitFor();
    await change.getByLabel('New password', { exact: true }).fill(ADMIN_PASSWORD_2);
    await change.getByLabel('Repeat the new password').fill(ADMIN_PASSWORD_2);
    await change.getByRole('button', { name: 'Save' }).click();
    await expectNotice(page, 'Change successfully!');
    await page.goto('/settings/team?type=settings');
    await page.getByRole('textbox', { name: 'Team name' }).waitFor({ timeout: UI_TIMEOUT });
    expect(await gate.count()).toBe(0);
    expect(context).toBeDefined();
  });

  it('an IP whitelist without 127.0.0.1 refuses a member but not the administrator', async () => {
    const { page } = admin;
    await teamTab(page, 'settings');
    await page.getByRole('textbox', { name: 'IP whitelist', exact: true }).fill('10.9.9.9');
    await saveForm(page);
    await expectNotice(page, 'Update successfully!');

    const member = await fresh();
    await submitLogin(e2e, member.context, member.page, {
      username: MEMBER,
      password: MEMBER_PASSWORD,
    });
    await expectNotice(member.page, 'Your IP address is not in the whitelist');
    await member.context.close();

    // The administrator answers to the admin whitelist (empty: every address).
    const again = await fresh();
    await login(e2e, again.context, again.page, {
      username: ADMIN_EMAIL,
      password: ADMIN_PASSWORD_2,
    });
    await again.context.close();

    await page.getByRole('textbox', { name: 'IP whitelist', exact: true }).fill('');
    await saveForm(page);
    await expectNotice(page, 'Update successfully!');
  });

  it('signs in through SAML single sign-on with a real identity provider', async () => {
    const { context, page } = admin;
    const config = await api<{ sp_entity_id: string; assertion_url: string }>(
      context,
      'GET',
      '/sso/config',
    );
    idp = await startTestIdp({ entityId: config.sp_entity_id, acsUrl: config.assertion_url });
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pc-idp-'));
    const metadata = path.join(dir, 'idp-metadata.xml');
    fs.writeFileSync(metadata, await idp.metadataXml());
    const notXml = path.join(dir, 'idp-metadata.txt');
    fs.writeFileSync(notXml, 'not xml');

    await teamTab(page, 'sso');
    await page.getByText(config.assertion_url).waitFor({ timeout: UI_TIMEOUT });
    await page.getByRole('switch', { name: 'Single sign-on' }).click();
    await saveForm(page);
    await page.getByText("Please enter the identity provider's name").waitFor();
    await page.getByText('Add at least one e-mail domain while single sign-on is open').waitFor();
    await page.getByText("Please upload the identity provider's metadata file").waitFor();
    await page.getByRole('textbox', { name: 'Identity provider' }).fill('Test IdP');
    await page.getByRole('combobox', { name: 'Access white list' }).fill('corp.example');
    await page.keyboard.press('Enter');
    const input = page.locator('input[type="file"]');
    await input.setInputFiles(notXml);
    await expectNotice(page, 'Only an .xml file can be used.');
    await input.setInputFiles(metadata);
    await page.getByText(idp.entityId, { exact: true }).waitFor({ timeout: UI_TIMEOUT });
    await page.getByText(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/).waitFor();
    await saveForm(page);
    await expectNotice(page, 'Update successfully!');
    await page.getByText('The new metadata is used once you save.').waitFor({ state: 'detached' });
    await picture(page, 'team-sso-en_US');
    fs.rmSync(dir, { recursive: true, force: true });

    // A new browser: team and account filled, the SSO button leads to the provider.
    const sso = await fresh();
    await sso.page.goto('/login');
    await sso.page.getByRole('textbox', { name: 'Team ID' }).fill(TEAM);
    await sso.page.getByRole('textbox', { name: 'Account' }).fill(SSO_USER);
    const button = sso.page.getByRole('link', { name: 'Sign in with single sign-on' });
    await button.waitFor({ timeout: UI_TIMEOUT });
    await button.click();
    await sso.page.waitForURL((url) => url.origin === idp?.base, { timeout: UI_TIMEOUT });
    await sso.page.getByLabel('E-mail').fill(SSO_USER);
    await sso.page.getByLabel('Display name').fill('Carol');
    await sso.page.getByLabel('Password').fill(IDP_PASSWORD);
    await sso.page.getByRole('button', { name: 'Sign in' }).click();
    // The provider posts back to our ACS, which hands the console a single-use credential.
    await sso.page.waitForURL('**/operation/workgroup', { timeout: UI_TIMEOUT });
    expect(sso.page.url()).not.toContain('sso_token');
    await expectNotice(sso.page, 'Login Successfully!');
    await sso.page.getByRole('link', { name: /Carol/ }).waitFor();

    // The credential worked once: the same address again is refused.
    await sso.page.goBack();
    expect(sso.page.url()).not.toContain('sso_token');
    await sso.context.close();

    await teamTab(page, 'members');
    await row(page, SSO_USER).getByText('Member').waitFor({ timeout: UI_TIMEOUT });
  });

  it('says Check SSO Failed for a credential that is not valid', async () => {
    const { page } = await fresh();
    await page.goto(`/login?sso_token=${'A'.repeat(43)}`);
    await expectNotice(page, 'Check SSO Failed');
    expect(page.url()).not.toContain('sso_token');
  });
});

describe('system logs', () => {
  it('shows every act, filters, and exports what it shows', async () => {
    const { page } = admin;
    await page.getByRole('menuitem', { name: /System Log/ }).click();
    await page.waitForURL('**/system/log');
    await page.getByRole('tab', { name: 'Login logs', selected: true }).waitFor();
    const failed = row(page, MEMBER).filter({ hasText: 'User disabled' });
    await failed.getByText('Failure').waitFor({ timeout: UI_TIMEOUT });
    await row(page, MEMBER)
      .filter({ hasText: 'Your IP address is not in the whitelist' })
      .first()
      .waitFor();
    await row(page, SSO_USER).getByText('Success').first().waitFor();
    await picture(page, 'system-log-login-en_US');

    await page.getByRole('tab', { name: 'Team logs' }).click();
    await page.waitForURL('**/system/log?type=teamLogs');
    const cell = (event: string) => page.getByRole('cell', { name: event, exact: true }).first();
    // Newest first, ten to a page: the last acts on page 1, the first ones on page 2.
    for (const event of [
      'Update single sign-on',
      'Update team settings',
      'Remove group member',
      'Add group member',
      'Create group',
      'Enable member',
    ]) {
      await cell(event).waitFor({ timeout: UI_TIMEOUT });
    }
    await page.locator('.ant-pagination').getByTitle('2', { exact: true }).click();
    await cell('Disable member').waitFor({ timeout: UI_TIMEOUT });
    await cell('Add member').waitFor();
    await row(page, MEMBER).filter({ hasText: 'Add member' }).waitFor();
    await page.locator('.ant-pagination').getByTitle('1', { exact: true }).click();
    await cell('Update single sign-on').waitFor({ timeout: UI_TIMEOUT });
    await picture(page, 'system-log-team-en_US');

    // Filter by event: only the group events with the member.
    await page.getByRole('combobox', { name: 'Event type' }).click();
    await page.keyboard.type('Add group member');
    await selectOption(page, 'Add group member');
    await page.getByRole('button', { name: /Search$/ }).click();
    await expect
      .poll(() => page.getByRole('cell', { name: 'Create group', exact: true }).count(), {
        timeout: UI_TIMEOUT,
      })
      .toBe(0);
    await row(page, MEMBER).getByText('Operations').waitFor();

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: /Export/ }).click(),
    ]);
    const href = await page.getByRole('link', { name: /Export/ }).getAttribute('href');
    expect(href).toContain('log_type=team');
    expect(href).toContain('event=addGroupMember');
    const csv = fs.readFileSync((await download.path()) as string, 'utf8');
    const lines = csv
      .replace(/^\uFEFF/, '')
      .trim()
      .split(/\r\n/);
    expect(lines[0]).toBe('time (UTC),account,event,user,group');
    // Both additions to the group, and nothing else: the export carries the page's filter.
    expect(lines).toHaveLength(3);
    expect(
      lines
        .slice(1)
        .map((l) => l.split(',').slice(1))
        .sort(),
    ).toEqual([
      [ADMIN_EMAIL, 'addGroupMember', ADMIN_EMAIL, 'Operations'],
      [ADMIN_EMAIL, 'addGroupMember', MEMBER, 'Operations'],
    ]);
    expect(lines[1]).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2},/);

    // Switching tab clears the filters and starts again at page 1.
    await page.getByRole('tab', { name: 'Login logs' }).click();
    await page.getByRole('tab', { name: 'Team logs' }).click();
    await page.getByRole('cell', { name: 'Create group', exact: true }).waitFor({
      timeout: UI_TIMEOUT,
    });
    await page.getByRole('tab', { name: 'Alarm logs' }).click();
    await page.getByText('No Data', { exact: true }).waitFor({ timeout: UI_TIMEOUT });
  });
});

describe('in Chinese', () => {
  it('shows the team tabs, a group and the system logs', async () => {
    const { context, page } = await fresh('zh-CN');
    await login(e2e, context, page, { username: ADMIN_EMAIL, password: ADMIN_PASSWORD_2 });
    for (const [type, name] of [
      ['members', 'team-members'],
      ['group', 'team-groups'],
      ['settings', 'team-settings'],
      ['version', 'team-version'],
      ['sso', 'team-sso'],
    ] as const) {
      await teamTab(page, type);
      await page.locator('.ant-table, .ant-form, .ant-descriptions').first().waitFor({
        timeout: UI_TIMEOUT,
      });
      await page.waitForLoadState('networkidle');
      await picture(page, `${name}-zh_CN`);
    }
    await teamTab(page, 'group');
    await page.getByRole('link', { name: 'Operations' }).click();
    await page.getByRole('heading', { name: 'Operations' }).waitFor({ timeout: UI_TIMEOUT });
    await page.getByText('共1名成员').waitFor({ timeout: UI_TIMEOUT });
    await picture(page, 'group-detail-zh_CN');

    await page.getByRole('menuitem', { name: /系统日志/ }).click();
    await page.getByRole('tab', { name: '登录日志', selected: true }).waitFor();
    await page.getByText('用户已禁用').first().waitFor({ timeout: UI_TIMEOUT });
    await picture(page, 'system-log-login-zh_CN');
    await page.getByRole('tab', { name: '团队日志' }).click();
    await page
      .getByRole('cell', { name: '创建分组', exact: true })
      .waitFor({ timeout: UI_TIMEOUT });
    await picture(page, 'system-log-team-zh_CN');
  });
});

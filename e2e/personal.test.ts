/**
 * The personal pages in Chromium against the real server: account info (name, avatar upload
 * through POST /file), account security (password change, mobile binding with the SMS from the
 * outbox, a wrong code), and SSH keys (add a real OpenSSH key, refuse a bad and a duplicate key,
 * delete after confirming).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  lastSmsCode,
  screenshot,
  startE2E,
  type E2E,
} from './harness';
import {
  api,
  chooseLanguage,
  expectNotice,
  login,
  makePng,
  openSshPublicKey,
  UI_TIMEOUT,
  waitForNoticesGone,
} from './console';

let e2e: E2E;
let context: BrowserContext;
let page: Page;
const MEMBER = 'me@demo.local';
let memberPassword = 'Member#Pass1';

beforeAll(async () => {
  e2e = await startE2E();
  // An administrator adds the member whose pages these are and gives a first password.
  const admin = await e2e.newPage();
  await login(e2e, admin.context, admin.page, { username: ADMIN_EMAIL, password: ADMIN_PASSWORD });
  const member = await api<{ id: number }>(admin.context, 'POST', '/v1/account', {
    account: MEMBER,
    name: 'Member',
    is_admin: 0,
  });
  await api(admin.context, 'PATCH', `/v1/account/${member.id}`, { pwd: 'Temp#Pass0' });
  await admin.context.close();

  ({ context, page } = await e2e.newPage());
  await page.goto('/login');
  const { submitLogin } = await import('./console');
  await submitLogin(e2e, context, page, { username: MEMBER, password: 'Temp#Pass0' });
  await page.waitForURL('**/compelChangePassword', { timeout: UI_TIMEOUT });
  await page.getByLabel('New password', { exact: true }).fill(memberPassword);
  await page.getByLabel('Repeat the new password').fill(memberPassword);
  await page.getByRole('button', { name: 'Change password' }).click();
  await page.waitForURL('**/login', { timeout: UI_TIMEOUT });
  await login(
    e2e,
    context,
    page,
    { username: MEMBER, password: memberPassword },
    '/operation/workgroup',
  );
});

afterEach(async (ctx) => {
  if (ctx.task.result?.state === 'fail' && page) {
    await screenshot(page, `failed-${ctx.task.name.slice(0, 40).replace(/\W+/g, '-')}`).catch(
      () => undefined,
    );
  }
});

afterAll(async () => {
  await context?.close().catch(() => undefined);
  await e2e?.close();
});

function panel(title: string) {
  return page.getByRole('dialog').filter({ has: page.getByText(title, { exact: true }) });
}

describe('personal pages', () => {
  it('account info: shows the account and team, renames, uploads an avatar', async () => {
    await page.getByRole('menuitem', { name: /Account info/ }).click();
    await page.waitForURL('**/personal/info');
    await page.getByText(MEMBER, { exact: true }).waitFor();
    await page.getByText('Team ID', { exact: true }).waitFor();

    await page.getByRole('button', { name: /Edit/ }).click();
    const rename = panel('Change name');
    const name = rename.getByRole('textbox', { name: 'Name' });
    await name.fill('   ');
    await rename.getByRole('button', { name: 'Save' }).click();
    await rename.getByText('Please enter your name').waitFor();
    await name.fill('x'.repeat(21));
    await rename.getByText('The name can be at most 20 characters').waitFor();
    await name.fill('Grace Hopper');
    await rename.getByRole('button', { name: 'Save' }).click();
    await expectNotice(page, 'Update successfully!');
    await expect.poll(() => page.getByTestId('account-name').textContent()).toBe('Grace Hopper');
    // The header shows the new name too.
    await page.getByRole('link', { name: /Grace Hopper/ }).waitFor();

    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pc-avatar-'));
    const svg = path.join(dir, 'avatar.svg');
    fs.writeFileSync(svg, '<svg xmlns="http://www.w3.org/2000/svg"/>');
    const input = page.locator('input[type="file"]');
    await input.setInputFiles(svg);
    await expectNotice(page, 'Only PNG, GIF or JPEG images can be used.');
    const big = path.join(dir, 'big.png');
    fs.writeFileSync(big, Buffer.concat([makePng(), Buffer.alloc(1_048_576)]));
    await input.setInputFiles(big);
    await expectNotice(page, 'The maximum supported file size is 1M.');

    const png = path.join(dir, 'me.png');
    fs.writeFileSync(png, makePng());
    await input.setInputFiles(png);
    await expectNotice(page, 'Update successfully!');
    const avatar = page.locator('.pc-info__avatar img');
    await avatar.waitFor({ timeout: UI_TIMEOUT });
    expect(await avatar.getAttribute('src')).toMatch(/^\/api\/file\/[0-9a-f-]{36}$/);
    await expect.poll(() => avatar.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(16);
    await screenshot(page, 'personal-info-en_US');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('account security: binds a mobile with the SMS code and changes the password', async () => {
    await page.getByRole('menuitem', { name: /Account security/ }).click();
    await page.waitForURL('**/personal/security');
    await page.getByText(/from 127\.0\.0\.1$/).waitFor();

    await page.getByRole('button', { name: 'Bind' }).click();
    const mobile = panel('Bind a mobile number');
    await mobile.getByRole('textbox', { name: 'Mobile number' }).fill('12345');
    await mobile.getByRole('button', { name: 'Send code' }).click();
    await mobile.getByText('Please enter a valid mobile number').waitFor();
    await mobile.getByRole('textbox', { name: 'Mobile number' }).fill('13912345678');
    await mobile.getByRole('button', { name: 'Send code' }).click();
    await expectNotice(page, 'The code has been sent.');
    await mobile.getByRole('button', { name: /Resend in \d+ s/ }).waitFor();
    const code = lastSmsCode(e2e);
    const wrong = code === '000000' ? '111111' : '000000';
    await mobile.getByRole('textbox', { name: 'Verification code' }).fill(wrong);
    await mobile.getByRole('button', { name: 'Confirm' }).click();
    await expectNotice(page, 'Verification code error');
    await mobile.getByRole('textbox', { name: 'Verification code' }).fill(code);
    await mobile.getByRole('button', { name: 'Confirm' }).click();
    await expectNotice(page, 'Update successfully!');
    await page.getByText('Bound: 13912345678').waitFor({ timeout: UI_TIMEOUT });

    // Opening another panel swaps: the mobile panel closes, the password panel opens.
    await page.getByRole('button', { name: 'Change', exact: true }).first().click();
    const password = panel('Change password');
    await password.waitFor({ timeout: UI_TIMEOUT });
    await password.getByLabel('New password', { exact: true }).fill('Member#Pass2');
    await password.getByLabel('Repeat the new password').fill('Member#Pass3');
    await password.getByRole('button', { name: 'Save' }).click();
    await password.getByText('Two passwords are not consistent!').waitFor();
    await password.getByLabel('Repeat the new password').fill('Member#Pass2');
    await password.getByRole('button', { name: 'Save' }).click();
    await expectNotice(page, 'Change successfully!');
    memberPassword = 'Member#Pass2';
    await screenshot(page, 'personal-security-en_US');
  });

  it('SSH keys: adds a real key, refuses a bad and a duplicate one, deletes after confirming', async () => {
    await page.getByRole('menuitem', { name: /SSH keys/ }).click();
    await page.waitForURL('**/personal/sshkey');
    await page.getByText('No Data', { exact: true }).waitFor({ timeout: UI_TIMEOUT });

    const key = openSshPublicKey();
    await page.getByRole('button', { name: /Add SSH key/ }).click();
    const add = panel('Add SSH key');
    await add.getByRole('button', { name: 'Add' }).click();
    await add.getByText('Please enter a name for the key').waitFor();
    await add.getByText('Please paste the public key').waitFor();
    await add.getByRole('textbox', { name: 'Name' }).fill('laptop');
    await add.getByRole('textbox', { name: 'Public key' }).fill('ssh-ed25519 not-a-key');
    await add.getByRole('button', { name: 'Add' }).click();
    await expectNotice(page, 'Upload failed: The SSH public key is invalid');
    await add.getByRole('textbox', { name: 'Public key' }).fill(key);
    await add.getByRole('button', { name: 'Add' }).click();
    await expectNotice(page, 'Add Successfully!');
    const row = page.getByRole('row').filter({ hasText: 'laptop' });
    await row.waitFor({ timeout: UI_TIMEOUT });
    await row.getByText('ssh-ed25519', { exact: true }).waitFor();
    await row.getByText(/^SHA256:/).waitFor();
    await row.getByText('Never').waitFor();

    await page.getByRole('button', { name: /Add SSH key/ }).click();
    const again = panel('Add SSH key');
    await again.getByRole('textbox', { name: 'Name' }).fill('same key');
    await again.getByRole('textbox', { name: 'Public key' }).fill(key);
    await again.getByRole('button', { name: 'Add' }).click();
    await expectNotice(page, 'Upload failed: The SSH public key already exists');
    await again.getByRole('button', { name: 'Cancel' }).click();
    await screenshot(page, 'personal-sshkey-en_US');

    await row.getByRole('button', { name: 'Delete the key laptop' }).click();
    const confirm = page.getByRole('tooltip').filter({ hasText: 'Delete this SSH key?' });
    await confirm.waitFor();
    await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
    await expectNotice(page, 'Delete successfully!');
    await page.getByText('No Data', { exact: true }).waitFor({ timeout: UI_TIMEOUT });
  });

  it('shows the personal pages in Chinese', async () => {
    // The last test's "Delete successfully!" notice still sits over the header.
    await waitForNoticesGone(page);
    await chooseLanguage(page, 'zh_CN');
    await page.getByRole('menuitem', { name: /账号安全/ }).click();
    await page.waitForURL('**/personal/security');
    await page.getByRole('heading', { name: '账号安全' }).waitFor();
    await page.getByText('已绑定：13912345678').waitFor();
    await page.waitForTimeout(500);
    await screenshot(page, 'personal-security-zh_CN');
    await chooseLanguage(page, 'en_US');
    await page.getByRole('heading', { name: 'Account security' }).waitFor();
  });

  it('the new password signs in after logging out', async () => {
    await page.getByRole('button', { name: /Log out/ }).click();
    await page.waitForURL('**/login');
    await login(
      e2e,
      context,
      page,
      { username: MEMBER, password: memberPassword },
      '/operation/workgroup',
    );
  });
});

/**
 * Console helpers for the end-to-end tests: signing in through the login page, calling the API
 * with the browser's own session (for set-up a person would do elsewhere, such as an
 * administrator adding a member), and test material (a PNG, an OpenSSH public key).
 */
import crypto from 'node:crypto';
import zlib from 'node:zlib';
import { expect } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { captchaAnswer, TEAM, type E2E } from './harness';

/** Default wait for something the console shows after a server round trip. */
export const UI_TIMEOUT = 15_000;

export interface Credentials {
  domain?: string;
  username: string;
  password: string;
}

/** Fills the login form (answering the captcha when it is shown) and submits it. */
export async function submitLogin(
  e2e: E2E,
  context: BrowserContext,
  page: Page,
  creds: Credentials,
): Promise<void> {
  if (!page.url().endsWith('/login')) await page.goto('/login');
  const domain = page.getByRole('textbox', { name: /^(Team ID|团队ID)$/ });
  await domain.fill(creds.domain ?? TEAM);
  await page.getByRole('textbox', { name: /^(Account|账号)$/ }).fill(creds.username);
  await page.getByLabel(/^(Password|密码)$/).fill(creds.password);
  // The captcha check runs once team and account have settled.
  await page.waitForTimeout(900);
  const captcha = page.getByRole('textbox', { name: /^(Captcha|验证码)$/ });
  if (await captcha.isVisible()) {
    await page.waitForResponse((r) => r.url().includes('/api/auth/captcha')).catch(() => undefined);
    await captcha.fill(await captchaAnswer(e2e, context));
  }
  await page.getByRole('button', { name: /^(Sign in|登录)$/ }).click();
}

/** Signs in and waits for the shell's landing page. */
export async function login(
  e2e: E2E,
  context: BrowserContext,
  page: Page,
  creds: Credentials,
  landing = '/operation/dashboard',
): Promise<void> {
  await page.goto('/login');
  await submitLogin(e2e, context, page, creds);
  await page.waitForURL((url) => url.pathname === landing, { timeout: UI_TIMEOUT });
}

/** Calls the API as the browser's session (with its CSRF cookie), for test set-up. */
export async function api<T = unknown>(
  context: BrowserContext,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  path: string,
  data?: unknown,
): Promise<T> {
  const csrf = (await context.cookies()).find((c) => c.name === 'pc_csrf')?.value ?? '';
  const response = await context.request.fetch(`/api${path}`, {
    method,
    headers: { 'x-csrf-token': csrf },
    data: data === undefined ? undefined : data,
  });
  const body = (await response.json()) as T;
  expect(response.ok(), `${method} ${path}: ${JSON.stringify(body)}`).toBe(true);
  return body;
}

/** A small real PNG (a 16x16 gradient), built here so the test needs no image file. */
export function makePng(size = 16): Buffer {
  const chunk = (type: string, data: Buffer): Buffer => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body));
    return Buffer.concat([len, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.writeUInt8(8, 8); // bit depth
  header.writeUInt8(2, 9); // colour type: RGB
  const rows: Buffer[] = [];
  for (let y = 0; y < size; y++) {
    const row = Buffer.alloc(1 + size * 3);
    for (let x = 0; x < size; x++) {
      row[1 + x * 3] = (x * 255) / size;
      row[2 + x * 3] = (y * 255) / size;
      row[3 + x * 3] = 200;
    }
    rows.push(row);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A fresh ed25519 public key in OpenSSH's one-line format. */
export function openSshPublicKey(comment = 'e2e@portcullis'): string {
  const { publicKey } = crypto.generateKeyPairSync('ed25519');
  const raw = publicKey.export({ format: 'der', type: 'spki' }).subarray(-32);
  const field = (b: Buffer): Buffer => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(b.length);
    return Buffer.concat([len, b]);
  };
  const blob = Buffer.concat([field(Buffer.from('ssh-ed25519')), field(raw)]);
  return `ssh-ed25519 ${blob.toString('base64')} ${comment}`;
}

/** The text of the newest antd message notice. */
export async function expectNotice(page: Page, text: string | RegExp): Promise<void> {
  await page
    .locator('.ant-message-notice')
    .filter({ hasText: text })
    .first()
    .waitFor({ state: 'visible', timeout: UI_TIMEOUT });
}

/**
 * Waits until no notice covers the page (they last 3 s), for a clean screenshot. The pointer
 * leaves the page first: antd keeps a notice open while the pointer rests on it, and a button
 * just clicked near the top of the viewport can sit right under the notice it raised.
 */
export async function waitForNoticesGone(page: Page): Promise<void> {
  const height = page.viewportSize()?.height ?? 820;
  await page.mouse.move(1, height - 1);
  await expect
    .poll(() => page.locator('.ant-message-notice').count(), { timeout: UI_TIMEOUT })
    .toBe(0);
}

/**
 * Switches the console's language with the header's (or the sign-in page's) switch. The
 * dropdown can close under the pointer while it opens (a notice leaving, the header
 * re-rendering), so a click that finds no option is tried again, up to three times, instead of
 * waiting out the whole timeout on a list that is gone.
 */
export async function chooseLanguage(page: Page, language: 'en_US' | 'zh_CN'): Promise<void> {
  const [from, option] = language === 'zh_CN' ? ['Language', '中文'] : ['语言', 'English'];
  const target = language === 'zh_CN' ? '语言' : 'Language';
  for (let attempt = 1; ; attempt++) {
    try {
      await page.getByRole('combobox', { name: from }).click({ timeout: UI_TIMEOUT });
      await page.getByRole('option', { name: option }).click({ timeout: 5000 });
      await page.getByRole('combobox', { name: target }).waitFor({ timeout: 5000 });
      return;
    } catch (error) {
      if (attempt === 3) throw error;
      await page.keyboard.press('Escape');
    }
  }
}

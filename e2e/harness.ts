/**
 * End-to-end harness: the real server (built console included) on a free loopback port with a
 * fresh SQLite data folder, and Debian's Chromium driven by playwright-core. Helpers read what
 * a person would read elsewhere: the captcha (from the server's own store, as the image shows
 * it), mails and SMS from the outbox, and TOTP codes from the secret an authenticator holds.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { loadConfig } from '../apps/server/src/config';
import { buildApp } from '../apps/server/src/app';
import type { AppContext } from '../apps/server/src/context';
import { ensureFirstTeam } from '../apps/server/src/features/company/first-run';
import { sha256Hex } from '../apps/server/src/lib/crypto';
import { totpAt, totpStep } from '../apps/server/src/lib/totp';
import { nowSeconds } from '../apps/server/src/lib/time';

export const TEAM = 'demo';
export const ADMIN_EMAIL = 'admin@demo.local';
export const ADMIN_PASSWORD = 'Admin#Pass2026';
export const ARTIFACTS = path.resolve(import.meta.dirname, '..', '.test-artifacts');
const CONSOLE_DIST = path.resolve(import.meta.dirname, '..', 'apps', 'console', 'dist');

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
];

export interface E2E {
  baseUrl: string;
  ctx: AppContext;
  dataDir: string;
  browser: Browser;
  newPage: (options?: { locale?: string }) => Promise<{ context: BrowserContext; page: Page }>;
  close: () => Promise<void>;
}

export async function startE2E(env: Record<string, string> = {}): Promise<E2E> {
  if (!fs.existsSync(path.join(CONSOLE_DIST, 'index.html'))) {
    throw new Error('the console is not built: run `npm run build` (npm test does it for you)');
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pc-e2e-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    CONSOLE_DIST,
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: 'warn',
    PORTCULLIS_TEAM: TEAM,
    PORTCULLIS_ADMIN_EMAIL: ADMIN_EMAIL,
    PORTCULLIS_ADMIN_PASSWORD: ADMIN_PASSWORD,
    ...env,
  });
  const { app, ctx } = await buildApp(config);
  await ensureFirstTeam(ctx);
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  // Links in mails must point at this server.
  ctx.config.publicUrl = address;
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  });
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  return {
    baseUrl: address,
    ctx,
    dataDir,
    browser,
    newPage: async (options = {}) => {
      const context = await browser.newContext({
        baseURL: address,
        locale: options.locale ?? 'en-US',
        viewport: { width: 1366, height: 820 },
      });
      const page = await context.newPage();
      return { context, page };
    },
    close: async () => {
      await browser.close();
      await app.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The answer of the captcha image this browser context was last shown. */
export async function captchaAnswer(e2e: E2E, context: BrowserContext): Promise<string> {
  const cookie = (await context.cookies()).find((c) => c.name === 'pc_captcha');
  if (!cookie) throw new Error('the page has not loaded a captcha');
  const row = await e2e.ctx.db
    .selectFrom('captcha')
    .select('answer')
    .where('id', '=', sha256Hex(cookie.value))
    .executeTakeFirst();
  if (!row) throw new Error('captcha already used or expired');
  return row.answer;
}

export function outbox(e2e: E2E, kind: 'mail' | 'sms'): string[] {
  const dir = path.join(e2e.dataDir, 'outbox', kind);
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .sort()
    .map((f) => fs.readFileSync(path.join(dir, f), 'utf8'));
}

/** The password link of the newest mail, decoded from quoted-printable. */
export function lastMailLink(e2e: E2E): string {
  const mails = outbox(e2e, 'mail');
  const last = mails[mails.length - 1];
  if (!last) throw new Error('no mail in the outbox');
  const text = last.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
  const match = /https?:\/\/\S+\/resetpassword\?\S+/.exec(text);
  if (!match) throw new Error('no link in the mail');
  return match[0];
}

/** The 6-digit code of the newest SMS. */
export function lastSmsCode(e2e: E2E): string {
  const all = outbox(e2e, 'sms');
  const last = all[all.length - 1];
  const code = last
    ? /\b(\d{6})\b/.exec((JSON.parse(last) as { text: string }).text)?.[1]
    : undefined;
  if (!code) throw new Error('no SMS code in the outbox');
  return code;
}

/**
 * What an authenticator app shows around now. Binding takes `previous` then `current` (two
 * consecutive codes); a login right after binding needs a newer step than the last accepted
 * one, so it takes `next` (the server allows one step of clock drift).
 */
export function totpCodes(secret: string): { previous: string; current: string; next: string } {
  const step = totpStep(nowSeconds());
  return {
    previous: totpAt(secret, step - 1),
    current: totpAt(secret, step),
    next: totpAt(secret, step + 1),
  };
}

export async function screenshot(page: Page, name: string): Promise<string> {
  const file = path.join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';
import {
  ADMIN_EMAIL,
  addMember,
  createTestApp,
  lastMailLink,
  outbox,
  solveCaptcha,
  TEAM,
  type TestApp,
} from '../../test/harness';

describe('forgot and reset password', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ PUBLIC_URL: 'https://bastion.example.test' });
    await addMember(t, 'forgot@demo.local', 0);
  });
  afterAll(() => t.close());

  it('needs the right captcha', async () => {
    const c = t.client();
    const res = await c.post('/api/auth/reset_passwd_mail', {
      domain: TEAM,
      account: 'forgot@demo.local',
      captcha: 'zzzz',
    });
    expect(res.json().code).toBe('CaptchaIncorrect');
    const bad = await c.post('/api/auth/reset_passwd_mail', {
      domain: TEAM,
      account: 'not-an-email',
      captcha: 'zzzz',
    });
    expect(bad.json()).toMatchObject({ code: 'InvalidParameter', field: 'account' });
    expect(outbox(t, 'mail')).toHaveLength(0);
  });

  it('answers the same for an unknown account, and sends nothing', async () => {
    const c = t.client();
    const res = await c.post('/api/auth/reset_passwd_mail', {
      domain: TEAM,
      account: 'ghost@demo.local',
      captcha: await solveCaptcha(t, c),
    });
    expect(res.statusCode).toBe(200);
    expect(outbox(t, 'mail')).toHaveLength(0);
  });

  it('mails a link that sets the password once', async () => {
    const c = t.client();
    const res = await c.post('/api/auth/reset_passwd_mail', {
      domain: TEAM,
      account: 'forgot@demo.local',
      captcha: await solveCaptcha(t, c),
    });
    expect(res.statusCode).toBe(200);
    const mails = outbox(t, 'mail');
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatch(/^To: forgot@demo\.local/m);
    const link = lastMailLink(t);
    expect(link.origin).toBe('https://bastion.example.test');
    expect(link.pathname).toBe('/resetpassword');
    expect(link.searchParams.get('account')).toBe('forgot@demo.local');
    expect(link.searchParams.get('password_strength')).toBe('1');
    const code = link.searchParams.get('code')!;

    const weak = await c.post('/api/auth/reset_passwd', {
      code,
      account: 'forgot@demo.local',
      pwd: 'abc',
    });
    expect(weak.json().code).toBe('InvalidPassword');
    const wrongAccount = await c.post('/api/auth/reset_passwd', {
      code,
      account: ADMIN_EMAIL,
      pwd: 'New#Pass123',
    });
    expect(wrongAccount.json().code).toBe('ResetLinkExpire');
    const ok = await c.post('/api/auth/reset_passwd', {
      code,
      account: 'forgot@demo.local',
      pwd: 'New#Pass123',
    });
    expect(ok.statusCode).toBe(200);
    const again = await c.post('/api/auth/reset_passwd', {
      code,
      account: 'forgot@demo.local',
      pwd: 'Other#Pass123',
    });
    expect(again.statusCode).toBe(410);
    expect(again.json().code).toBe('ResetLinkExpire');

    expect((await t.client().login(TEAM, 'forgot@demo.local', 'Member#Pass1')).json().code).toBe(
      'PasswordError',
    );
    // The failed try above now asks this account for a captcha.
    const d = t.client();
    expect(
      (await d.login(TEAM, 'forgot@demo.local', 'New#Pass123', await solveCaptcha(t, d)))
        .statusCode,
    ).toBe(200);
    expect(t.logs()).not.toContain(code);
  });

  it('refuses an expired link', async () => {
    await t.ctx.db.updateTable('reset_token').set({ created_at: 0 }).execute();
    const c = t.client();
    await c.post('/api/auth/reset_passwd_mail', {
      domain: TEAM,
      account: 'forgot@demo.local',
      captcha: await solveCaptcha(t, c),
    });
    const code = lastMailLink(t).searchParams.get('code')!;
    await t.ctx.db.updateTable('reset_token').set({ expires_at: 1 }).execute();
    const res = await c.post('/api/auth/reset_passwd', {
      code,
      account: 'forgot@demo.local',
      pwd: 'New#Pass456',
    });
    expect(res.json().code).toBe('ResetLinkExpire');
  });
});

describe('mail through SMTP when SMTP_URL is set', () => {
  let t: TestApp;
  let smtp: SMTPServer;
  const received: { to: string; body: string }[] = [];

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, session, callback) {
        let body = '';
        stream.on('data', (d: Buffer) => (body += d.toString()));
        stream.on('end', () => {
          received.push({ to: session.envelope.rcptTo.map((r) => r.address).join(','), body });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const port = (smtp.server.address() as AddressInfo).port;
    t = await createTestApp({ SMTP_URL: `smtp://127.0.0.1:${port}?ignoreTLS=true` });
  });
  afterAll(async () => {
    await t.close();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  });

  it('delivers the reset link to the SMTP server and writes no outbox file', async () => {
    const c = t.client();
    const res = await c.post('/api/auth/reset_passwd_mail', {
      domain: TEAM,
      account: ADMIN_EMAIL,
      captcha: await solveCaptcha(t, c),
    });
    expect(res.statusCode).toBe(200);
    expect(received).toHaveLength(1);
    expect(received[0]?.to).toBe(ADMIN_EMAIL);
    expect(received[0]?.body.replace(/=\r?\n/g, '')).toMatch(/\/resetpassword\?code=3D/);
    expect(outbox(t, 'mail')).toHaveLength(0);
  });
});

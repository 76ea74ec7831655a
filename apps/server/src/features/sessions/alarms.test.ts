/**
 * The server's side of security mode and the file log, without a gateway: the policy a
 * session gets, the alarm row and mails with notices on and off (which alarms are mailed, and
 * that a row names only the accounts its mail reached), the file-log entry, and that a gateway
 * cannot report on a session it does not carry. The end-to-end runs are in
 * security-mode.test.ts.
 */
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AlarmAction, ResolvedCode } from '@portcullis/contract';
import { buildApp } from '../../app';
import type { MailMessage } from '../../lib/mailer';
import { createTestApp, outbox, type TestApp } from '../../test/harness';
import { codeWorld, nowSeconds, type CodeWorld } from '../codes/test-fixtures';
import { member } from '../workgroups/test-fixtures';
import { recordAlarm, sessionPolicy } from './alarms';
import { createSessionControl, type GatewayLink } from './control';
import { until } from './fake-gateway.test-helpers';
import { recordFileTransfer } from './file-log';

describe('security mode and the file log on the server', () => {
  let t: TestApp;
  let w: CodeWorld;
  let connectionId: number;
  let nora: number;
  const link: GatewayLink = {
    networkId: 0,
    send: () => undefined,
    log: { info: () => undefined, warn: () => undefined, error: () => undefined },
  };

  const alarmRows = () =>
    t.ctx.db
      .selectFrom('event_log')
      .selectAll()
      .where('log_type', '=', 'alarm')
      .orderBy('id')
      .execute();
  const securityMails = () => outbox(t, 'mail').filter((m) => m.includes('security alarm'));
  /** The row's notified accounts once its mails have settled (they go on in the background). */
  const notifiedOnceSettled = async (expected: string[]): Promise<string> => {
    await until(
      async () => (await alarmRows()).at(-1)?.notice_accounts === JSON.stringify(expected),
    );
    return (await alarmRows()).at(-1)?.notice_accounts ?? '';
  };

  /** Turns the cluster's alarm notices on, to these accounts. */
  const noticesTo = async (accounts: number[]): Promise<void> => {
    const res = await w.admin.patch(`/api/v1/network/${w.lab}/safe_mode`, {
      safe_mode: true,
      safe_mode_approver: false,
      safe_mode_notice: true,
      approver_accounts: [],
      notice_accounts: accounts,
    });
    expect(res.statusCode, res.body).toBe(200);
  };

  const alarm = (session: number, action: AlarmAction, command: string, rule = command) => ({
    connectionId: session,
    action,
    command,
    rule,
  });

  let tunnel: { id: number; company_id: number; resource_id: number };
  /** A session of erin's on web-1 through her code, as the gateway would have opened it. */
  const openConnection = async (): Promise<number> => {
    const row = await t.ctx.db
      .insertInto('tunnel_connection')
      .values({
        company_id: tunnel.company_id,
        account_id: w.erin.id,
        created_at: nowSeconds(),
        ended_at: null,
        tunnel_id: tunnel.id,
        resource_id: tunnel.resource_id,
        way: 'terminal',
        client_ip: '192.0.2.7',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  };

  beforeAll(async () => {
    t = await createTestApp();
    w = await codeWorld(t);
    nora = (await member(t, 'nora@demo.local')).id;
    const code = await w.erin.client.post('/api/tunnel', { project_resource_id: w.web });
    expect(code.statusCode, code.body).toBe(200);
    tunnel = await t.ctx.db
      .selectFrom('tunnel')
      .innerJoin('project_resource', 'project_resource.id', 'tunnel.project_resource_id')
      .select(['tunnel.id', 'tunnel.company_id', 'project_resource.resource_id'])
      .where('tunnel.id', '=', (code.json() as { id: number }).id)
      .executeTakeFirstOrThrow();
    connectionId = await openConnection();
    const commands = await w.admin.post('/api/need_intercept_command/batch', {
      network_id: w.lab,
      intercept: ['rm', 'reboot'],
      notice: ['whoami'],
    });
    expect(commands.statusCode, commands.body).toBe(200);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('gives a session in security mode its cluster’s lists, and no policy otherwise', async () => {
    const resolved = (safe: 0 | 1) =>
      ({ safe_mode: safe, resource: { network_id: w.lab } }) as unknown as ResolvedCode;
    expect(await sessionPolicy(t.ctx, resolved(0))).toBeUndefined();
    expect(await sessionPolicy(t.ctx, resolved(1))).toEqual({
      intercept: ['rm', 'reboot'],
      notice: ['whoami'],
    });
  });

  it('writes an alarm row without notices while the cluster’s alarm notices are off', async () => {
    const failed: unknown[] = [];
    const report = { connectionId, action: 'intercept' as const, command: 'rm -rf /', rule: 'rm' };
    expect(await recordAlarm(t.ctx, report, (e) => failed.push(e))).toBe(true);
    const [row] = await alarmRows();
    expect(row).toMatchObject({
      event: 'intercept',
      account: 'erin@demo.local',
      con_ip: '192.0.2.7',
      resource_name: 'web-1',
      project_name: 'Codes',
      net_name: 'Lab',
      way: 'terminal',
      command: 'rm -rf /',
      notice_accounts: '[]',
    });
    expect(outbox(t, 'mail').filter((m) => m.includes('security alarm'))).toEqual([]);
    expect(failed).toEqual([]);
    // The alarm log page reads it.
    const page = await w.admin.get('/api/event/get_notice_log?page_index=1');
    expect(page.json().objects[0]).toMatchObject({ account_name: 'erin@demo.local' });
  });

  it('names and mails the notice accounts while notices are on', async () => {
    await noticesTo([nora]);
    const report = { connectionId, action: 'notice' as const, command: 'whoami', rule: 'whoami' };
    expect(await recordAlarm(t.ctx, report, () => undefined)).toBe(true);
    expect((await alarmRows()).at(-1)).toMatchObject({ event: 'notice' });
    expect(await notifiedOnceSettled(['nora'])).toBe('["nora"]');
    await until(() => securityMails().length === 1);
    const mails = securityMails();
    expect(mails[0]).toContain('To: nora@demo.local');
    // A burst of the same alarm from the same session is a row each, and no more mail within
    // the minute; those rows name nobody, since nobody was mailed about them.
    const before = (await alarmRows()).length;
    for (let i = 0; i < 5; i++) await recordAlarm(t.ctx, report, () => undefined);
    await new Promise((r) => setTimeout(r, 200));
    const burst = (await alarmRows()).slice(before);
    expect(burst.map((r) => r.notice_accounts)).toEqual(Array(5).fill('[]'));
    expect(securityMails()).toHaveLength(1);
  });

  it('mails an intercept that follows a notice of the same session within the minute', async () => {
    const session = await openConnection();
    await recordAlarm(t.ctx, alarm(session, 'notice', 'whoami'), () => undefined);
    await notifiedOnceSettled(['nora']);
    const mailsBefore = securityMails().length;
    // Ten seconds later in real life: the rate limit of the notice must not swallow this one.
    const intercept = alarm(session, 'intercept', 'rm -rf /', 'rm');
    await recordAlarm(t.ctx, intercept, () => undefined);
    expect(await notifiedOnceSettled(['nora'])).toBe('["nora"]');
    expect((await alarmRows()).at(-1)).toMatchObject({ event: 'intercept', command: 'rm -rf /' });
    const mails = securityMails();
    expect(mails).toHaveLength(mailsBefore + 1);
    expect(mails.at(-1)).toContain('rm -rf /');
    // Another intercept rule is another alarm, and mailed too; a repeat of `rm` is not.
    await recordAlarm(t.ctx, { ...intercept, command: 'reboot', rule: 'reboot' }, () => undefined);
    await notifiedOnceSettled(['nora']);
    await recordAlarm(t.ctx, { ...intercept, command: 'rm -f x' }, () => undefined);
    await new Promise((r) => setTimeout(r, 200));
    expect((await alarmRows()).at(-1)).toMatchObject({ command: 'rm -f x', notice_accounts: '[]' });
    expect(securityMails()).toHaveLength(mailsBefore + 2);
  });

  it('names in the row only the accounts whose mail went, and reports the failed ones', async () => {
    const otto = (await member(t, 'otto@demo.local')).id;
    await noticesTo([nora, otto]);
    const sent: string[] = [];
    // nora's mail server refuses; otto's takes the mail.
    const mailer = {
      send: async (message: MailMessage): Promise<void> => {
        await new Promise((r) => setTimeout(r, 20));
        if (message.to === 'nora@demo.local') throw new Error('550 mailbox unavailable');
        sent.push(message.to);
      },
    };
    const failed: unknown[] = [];
    const report = alarm(await openConnection(), 'intercept', 'reboot');
    expect(await recordAlarm({ ...t.ctx, mailer }, report, (e) => failed.push(e))).toBe(true);
    // Until the mails have gone, the row claims nobody.
    expect((await alarmRows()).at(-1)).toMatchObject({ command: 'reboot', notice_accounts: '[]' });
    expect(await notifiedOnceSettled(['otto'])).toBe('["otto"]');
    expect(sent).toEqual(['otto@demo.local']);
    expect(failed).toHaveLength(1);

    // Every mail failing leaves the row naming nobody.
    const down = { send: () => Promise.reject(new Error('connection refused')) };
    const again = { ...report, connectionId: await openConnection() };
    await recordAlarm({ ...t.ctx, mailer: down }, again, (e) => failed.push(e));
    await until(() => failed.length === 3);
    await new Promise((r) => setTimeout(r, 100));
    expect((await alarmRows()).at(-1)).toMatchObject({ command: 'reboot', notice_accounts: '[]' });
  });

  it('answers false for an unknown session', async () => {
    const report = { connectionId: 999_999, action: 'notice' as const, command: 'x', rule: 'x' };
    expect(await recordAlarm(t.ctx, report, () => undefined)).toBe(false);
    const file = { connectionId: 999_999, way: 'sftp' as const, op: 'upload' as const };
    expect(await recordFileTransfer(t.ctx, { ...file, filename: 'a' })).toBe(false);
  });

  it('writes a file-log entry as a closed action log row of its own', async () => {
    const report = { connectionId, way: 'sftp' as const, op: 'download' as const };
    expect(await recordFileTransfer(t.ctx, { ...report, filename: '/etc/报告.txt' })).toBe(true);
    const res = await w.erin.client.get('/api/search_tunnel?way=sftp');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual([
      expect.objectContaining({
        way: 'sftp',
        op: 'download',
        filename: '/etc/报告.txt',
        parent_connection_id: connectionId,
        client_ip_address: '192.0.2.7',
        resource_name: 'web-1',
        play: 0,
      }),
    ]);
    expect(res.json().data[0].date).toBeGreaterThan(0);
    // Found by its file name too; session rows carry no op.
    const byName = await w.erin.client.get('/api/search_tunnel?keywords=%E6%8A%A5%E5%91%8A');
    expect(byName.json().total).toBe(1);
    const sessions = await w.erin.client.get('/api/search_tunnel?way=terminal');
    expect(sessions.json().data[0]).not.toHaveProperty('op');
  });

  it('ignores a gateway’s report on a session it does not carry', async () => {
    const control = createSessionControl(() => t.ctx);
    const before = (await alarmRows()).length;
    await control.onMessage(link, {
      v: 2,
      type: 'command_alarm',
      connection_id: connectionId,
      action: 'intercept',
      command: 'rm -rf /',
      rule: 'rm',
    });
    await control.onMessage(link, {
      v: 2,
      type: 'file_transfer',
      connection_id: connectionId,
      way: 'scp',
      op: 'upload',
      filename: 'forged',
    });
    expect(await alarmRows()).toHaveLength(before);
    const forged = await t.ctx.db
      .selectFrom('tunnel_connection')
      .select('id')
      .where('filename', '=', 'forged')
      .execute();
    expect(forged).toEqual([]);
  });

  // Last: the second server's start ends the session rows no gateway connection carries.
  it('sends the mails under way and updates their row before a server closes', async () => {
    await noticesTo([nora]);
    // Another server on the same data, closed while its mail server is slow to answer; this
    // one reads the row afterwards.
    const other = await buildApp(t.ctx.config, { logStream: new PassThrough() });
    const slow = {
      send: () => new Promise<void>((resolve) => setTimeout(resolve, 300)),
    };
    const failed: unknown[] = [];
    const report = alarm(await openConnection(), 'notice', 'whoami', 'whoami at close');
    expect(await recordAlarm({ ...other.ctx, mailer: slow }, report, (e) => failed.push(e))).toBe(
      true,
    );
    await other.app.close();
    // Before, the close did not wait: the row still named nobody, and the update went to a
    // closed database.
    expect((await alarmRows()).at(-1)).toMatchObject({
      command: 'whoami',
      notice_accounts: '["nora"]',
    });
    expect(failed).toEqual([]);
  });
});

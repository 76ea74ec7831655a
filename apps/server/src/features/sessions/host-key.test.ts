/**
 * Target host key pinning through the real server, gateway and sshd with the stock ssh client:
 * the first session pins the key sshd shows (the fingerprint `ssh-keyscan | ssh-keygen -lf`
 * prints for it), a target showing another is refused before any credential reaches it, and an
 * administrator's forget (or a change of address) lets the next session pin again.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResolvedCode } from '@portcullis/contract';
import { sessionCredential } from './credential';
import { run } from './openssh.test-helpers';
import { startSshStack, type SshStack } from './ssh-test-kit';

/** What OpenSSH itself makes of the key sshd on `port` shows. */
async function keyscanFingerprint(port: number): Promise<string> {
  const scan = await run('ssh-keyscan', ['-t', 'ed25519', '-p', String(port), '127.0.0.1']);
  const line = scan.stdout.toString().trim();
  const keygen = await run('ssh-keygen', ['-lf', '-'], { input: line });
  const fingerprint = /SHA256:[A-Za-z0-9+/]{43}/.exec(keygen.stdout.toString())?.[0];
  if (!fingerprint) throw new Error(`no fingerprint from ${keygen.stdout.toString()}`);
  return fingerprint;
}

const OTHER_KEY = `SHA256:${'A'.repeat(43)}`;

describe('SSH target host keys', () => {
  let stack: SshStack;
  let actual: string;

  const ssh = (command: string) =>
    run('ssh', [
      ...stack.client.options('publickey'),
      '-p',
      String(stack.port),
      `${stack.code}@127.0.0.1`,
      command,
    ]);
  const pinned = async (): Promise<string | null> => {
    const res = await stack.admin.get(`/api/v1/resource/${stack.resourceId}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().host_key as string | null;
  };
  const until = async (probe: () => Promise<boolean>): Promise<void> => {
    for (let i = 0; i < 100 && !(await probe()); i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  /** sshd's log lines about logins: accepted or failed credentials. */
  const loginAttempts = (): string[] =>
    fs
      .readFileSync(stack.sshd.logFile, 'utf8')
      .split('\n')
      .filter((l) => /Accepted|Failed|Invalid user/.test(l));

  beforeAll(async () => {
    stack = await startSshStack({ workgroup: 'Pinning' });
    actual = await keyscanFingerprint(stack.sshd.port);
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('pins the key the server shows at the first session', async () => {
    expect(await pinned()).toBeNull();
    const res = await ssh('echo first');
    expect([res.code, res.stdout.toString()]).toEqual([0, 'first\n']);
    await until(async () => (await pinned()) !== null);
    expect(await pinned()).toBe(actual);
    // The next session checks against it, and passes.
    const again = await ssh('echo second');
    expect([again.code, again.stdout.toString()]).toEqual([0, 'second\n']);
  });

  it('refuses a server showing another key before sending it any credential', async () => {
    await stack.t.ctx.db
      .updateTable('resource')
      .set({ host_key: OTHER_KEY })
      .where('id', '=', stack.resourceId)
      .execute();
    const attemptsBefore = loginAttempts().length;
    const res = await ssh('echo should-not-run');
    expect(res.code).toBe(255);
    expect(res.stdout.toString()).toBe('');
    expect(res.stderr.toString()).toContain(
      'The server’s host key is not the one Portcullis saw there before; nothing was sent to it',
    );
    // sshd heard no password or key: the handshake ended before authentication.
    expect(loginAttempts().length).toBe(attemptsBefore);
    const online = await stack.t.ctx.db
      .selectFrom('tunnel_connection')
      .select('id')
      .where('ended_at', 'is', null)
      .execute();
    expect(online).toEqual([]);
    // The pin is not replaced by what the refused session saw.
    expect(await pinned()).toBe(OTHER_KEY);
  });

  it('lets an administrator forget the key; the next session pins the one it sees', async () => {
    const forgot = await stack.admin.patch(`/api/v1/resource/${stack.resourceId}`, {
      host_key: null,
    });
    expect(forgot.statusCode, forgot.body).toBe(200);
    expect(forgot.json().host_key).toBeNull();
    // The system log says who forgot it.
    const events = await stack.t.ctx.db
      .selectFrom('event_log')
      .select(['event', 'account', 'resource_name', 'net_name'])
      .where('event', '=', 'forgetHostKey')
      .execute();
    expect(events).toEqual([
      {
        event: 'forgetHostKey',
        account: 'admin@demo.local',
        resource_name: 'sshd',
        net_name: 'Lab',
      },
    ]);
    const res = await ssh('echo after-forget');
    expect([res.code, res.stdout.toString()]).toEqual([0, 'after-forget\n']);
    await until(async () => (await pinned()) !== null);
    expect(await pinned()).toBe(actual);
  });

  it('forgets the key when the address or port changes, and not on other edits', async () => {
    const renamed = await stack.admin.patch(`/api/v1/resource/${stack.resourceId}`, {
      name: 'sshd-renamed',
    });
    expect(renamed.json().host_key).toBe(actual);
    const moved = await stack.admin.patch(`/api/v1/resource/${stack.resourceId}`, {
      port: stack.sshd.port + 1,
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().host_key).toBeNull();
    const back = await stack.admin.patch(`/api/v1/resource/${stack.resourceId}`, {
      port: stack.sshd.port,
    });
    expect(back.json().host_key).toBeNull();
  });
  it('gives no credential for a code resolved before the server moved', async () => {
    // The grant's snapshot says the old port; the row says the new one (its pin cleared).
    const resolved = {
      resource: {
        id: stack.resourceId,
        os: 'linux',
        ip_address: '127.0.0.1',
        port: stack.sshd.port + 1,
      },
      login_users: [stack.sshd.user],
    } as unknown as ResolvedCode;
    const refused = await sessionCredential(stack.t.ctx, resolved, stack.sshd.user).catch(
      (e: unknown) => e,
    );
    expect(refused).toMatchObject({
      code: 'InvalidResource',
      explanation: 'the resource moved meanwhile; connect again',
    });
    const current = { ...resolved, resource: { ...resolved.resource, port: stack.sshd.port } };
    expect(await sessionCredential(stack.t.ctx, current, stack.sshd.user)).toMatchObject({
      port: stack.sshd.port,
      password: stack.sshd.password,
    });
  });
});

/**
 * The gateway's SSH proxy end to end: the real server, the real gateway (startGateway) with
 * its SSH proxy on a free loopback port, the real OpenSSH sshd as the target, and the stock
 * OpenSSH clients (ssh, scp, sftp) as the member. Workgroups, codes and keys are made through
 * the server's API.
 */
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Gateway } from '../../../../gateway/src/control/client';
import type { SshdPeer } from '../../../../../scripts/peers/sshd.mjs';
import type { TestApp, TestClient } from '../../test/harness';
import { until } from '../../test/until';
import { freePort } from '../../../../gateway/src/test/net';
import { addResourcesTo, connectGateway, projectResourceId } from '../workgroups/test-fixtures';
import { cutSessions } from './connections-service';
import { gatewayJumpConfig, run, type OpenSshClient } from './openssh.test-helpers';
import { cutRevokedSessions } from './revoke-sessions';
import { addSshdResource, startSshStack, type SshStack } from './ssh-test-kit';

const sha256 = (file: string) =>
  crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');

describe('the SSH proxy with a real gateway, sshd and OpenSSH clients', () => {
  let stack: SshStack | undefined;
  let t: TestApp;
  let admin: TestClient;
  let erin: { id: number; client: TestClient };
  let gateway: Gateway;
  let sshd: SshdPeer;
  let client: OpenSshClient;
  let dir: string;
  let port: number;
  let web: number;
  let otherWeb: number;
  let code: string;

  const ssh = (
    user: string,
    args: string[],
    auth: Parameters<OpenSshClient['options']>[0] = 'publickey',
    env: NodeJS.ProcessEnv = {},
  ) =>
    run('ssh', [...client.options(auth), '-p', String(port), `${user}@127.0.0.1`, ...args], {
      env,
    });

  const newCode = async (body: Record<string, unknown> = {}, projectResource = web) => {
    const res = await erin.client.post('/api/tunnel', {
      project_resource_id: projectResource,
      ...body,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { id: number; code: string };
  };

  beforeAll(async () => {
    stack = await startSshStack({
      workgroup: 'Proxy',
      sshd: { options: ['Subsystem sftp internal-sftp'] },
    });
    ({ t, admin, erin, gateway, sshd, client, dir, port, code } = stack);
    web = stack.projectResource;
    expect(await gateway.sshProxy).toEqual({ port });
    // The same sshd in another cluster, whose gateway is not this one.
    const other = (await admin.post('/api/v1/network', { name: 'Other' })).json().id as number;
    await connectGateway(t, other);
    const otherServer = await addSshdResource(admin, other, sshd, { name: 'elsewhere' });
    await addResourcesTo(admin, stack.workgroupId, [otherServer]);
    otherWeb = await projectResourceId(admin, stack.workgroupId, otherServer);
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('keeps its host key in the data folder, readable by its owner only', () => {
    const stat = fs.statSync(path.join(dir, 'gateway', 'ssh_host_ed25519_key'));
    expect(stat.mode & 0o777).toBe(0o600);
  });

  it('runs a command with the code and the member’s key, and passes the exit status back', async () => {
    const hi = await ssh(code, ['echo hi; whoami']);
    expect(hi.stderr).not.toContain('Portcullis:');
    expect(hi.code).toBe(0);
    expect(hi.stdout.toString()).toBe(`hi\n${sshd.user}\n`);
    expect((await ssh(code, ['exit 3'])).code).toBe(3);
    const stderr = await ssh(code, ['echo oops >&2; exit 7']);
    expect([stderr.code, stderr.stderr]).toEqual([7, expect.stringContaining('oops')]);
    // The key's last verification time is recorded.
    const keys = (await erin.client.get('/api/account_pubkey')).json();
    const list = (Array.isArray(keys) ? keys : keys.objects) as { last_time: number | null }[];
    expect(list[0]?.last_time).toBeGreaterThan(0);
  });

  it('opens a shell with a pty', async () => {
    const res = await run(
      'ssh',
      [...client.options('publickey'), '-tt', '-p', String(port), `${code}@127.0.0.1`],
      { input: 'tty; echo "term=$TERM"; exit 5\n' },
    );
    expect(res.code).toBe(5);
    expect(res.stdout.toString()).toMatch(/\/dev\/pts\/\d+/);
  });

  it('copies a random 5 MB file byte-exact both ways with scp and sftp', async () => {
    const local = path.join(dir, 'five.bin');
    fs.writeFileSync(local, crypto.randomBytes(5 * 1024 * 1024));
    const remote = `/tmp/portcullis-proxy-${crypto.randomBytes(4).toString('hex')}`;
    const scpBase = [...client.options('publickey'), '-P', String(port)];
    try {
      // scp -O: the classic protocol (an exec of `scp -t` on the target).
      const up = await run('scp', ['-O', ...scpBase, local, `${code}@127.0.0.1:${remote}.scp`]);
      expect(up.code, up.stderr).toBe(0);
      expect(sha256(`${remote}.scp`)).toBe(sha256(local));
      const down = await run('scp', [
        '-O',
        ...scpBase,
        `${code}@127.0.0.1:${remote}.scp`,
        `${local}.scp`,
      ]);
      expect(down.code, down.stderr).toBe(0);
      expect(sha256(`${local}.scp`)).toBe(sha256(local));
      // scp's default (SFTP protocol) and sftp itself: the sftp subsystem.
      const sftpUp = await run('scp', [...scpBase, local, `${code}@127.0.0.1:${remote}.sftp`]);
      expect(sftpUp.code, sftpUp.stderr).toBe(0);
      expect(sha256(`${remote}.sftp`)).toBe(sha256(local));
      const batch = path.join(dir, 'batch');
      fs.writeFileSync(batch, `get ${remote}.sftp ${local}.sftp\nput ${local} ${remote}.put\n`);
      const sftp = await run('sftp', [
        ...client.options('publickey'),
        '-P',
        String(port),
        '-b',
        batch,
        `${code}@127.0.0.1`,
      ]);
      expect(sftp.code, sftp.stderr).toBe(0);
      expect(sha256(`${local}.sftp`)).toBe(sha256(local));
      expect(sha256(`${remote}.put`)).toBe(sha256(local));
    } finally {
      for (const suffix of ['.scp', '.sftp', '.put']) fs.rmSync(remote + suffix, { force: true });
    }
  });

  /** An update of Erin's enabled codes (and temporary authorizations) of the server `web`. */
  const erinsCodesOnWeb = () =>
    t.ctx.db
      .updateTable('tunnel')
      .where('account_id', '=', erin.id)
      .where('project_resource_id', '=', web)
      .where('status', '=', 'enable');

  /** Erin's temporary authorization of the target's login user, with this password. */
  const temporaryAuthorization = async (psw: string): Promise<{ code: string }> => {
    const res = await erin.client.post('/api/tunnel/tmp_share', {
      project_resource_id: web,
      username: sshd.user,
      psw,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { code: string };
  };

  it('lets a temporary authorization in once, with its one-time password, and not twice', async () => {
    const share = await temporaryAuthorization('Once#Only1');
    const wrong = await ssh(share.code, ['echo in'], 'password', client.askpass('Wrong#1'));
    expect(wrong.code).toBe(255);
    const first = await ssh(share.code, ['echo in'], 'password', client.askpass('Once#Only1'));
    expect([first.code, first.stdout.toString()]).toEqual([0, 'in\n']);
    const second = await ssh(share.code, ['echo in'], 'password', client.askpass('Once#Only1'));
    expect(second.code).toBe(255);
    expect(second.stderr).toContain('The code has expired (TunnelExpire)');
  });

  /** The stock client with OpenSSH's own order of methods; the prompts it was asked, in order. */
  const sshDefaults = async (user: string, secret: string, options: string[] = []) => {
    const prompts = path.join(dir, `prompts-${crypto.randomBytes(4).toString('hex')}`);
    fs.writeFileSync(prompts, '');
    const res = await run(
      'ssh',
      [...client.defaults(), ...options, '-p', String(port), `${user}@127.0.0.1`, 'echo in'],
      { env: client.askpass(secret, prompts) },
    );
    return { ...res, prompts: fs.readFileSync(prompts, 'utf8').split('\n').filter(Boolean) };
  };

  it('lets a temporary authorization in with OpenSSH’s default settings, asking its password', async () => {
    const share = await temporaryAuthorization('Twice#Not1');
    // A wrong password may be tried again, as sshd lets it; each try says why it failed.
    const wrong = await sshDefaults(share.code, 'Wrong#2');
    expect(wrong.code).toBe(255);
    expect(wrong.stderr).toContain('Portcullis: The one-time password is wrong (PasswordError)');
    expect(wrong.prompts.length).toBeGreaterThan(1);
    expect(wrong.prompts.every((p) => /password/i.test(p))).toBe(true);
    // Before, keyboard-interactive asked "Portcullis code:" and the password typed there
    // answered TunnelNotFound, and the login ended.
    const first = await sshDefaults(share.code, 'Twice#Not1');
    expect([first.code, first.stdout.toString()]).toEqual([0, 'in\n']);
    expect(first.stderr).not.toMatch(/Portcullis|Permission denied/);
    expect(first.prompts).toEqual([expect.stringMatching(/Password: $/)]);
    // Used: the server says so once the password is right (not before); a final refusal,
    // said once, with no other password asked.
    const again = await sshDefaults(share.code, 'Twice#Not1');
    expect(again.code).toBe(255);
    expect(again.stderr).toContain('Portcullis: The code has expired (TunnelExpire)');
    expect(again.prompts).toEqual([expect.stringMatching(/Password: $/)]);
    expect(again.stderr).not.toContain('Permission denied');
  });

  it('ends the login after a refusal no other method can change, without asking a password', async () => {
    const unknown = 'abcdefghijklmnopqrst';
    const res = await sshDefaults(unknown, 'whatever');
    expect(res.code).toBe(255);
    expect(res.stderr).toContain('Portcullis: The code does not exist (TunnelNotFound)');
    // Before: "unknown@127.0.0.1's password:" and "Permission denied, please try again".
    expect(res.prompts).toEqual([]);
    expect(res.stderr).not.toContain('Permission denied');
    expect(res.stderr).toContain('Portcullis: login refused (TunnelNotFound)');
    // keyboard-interactive with any user name: the code typed is refused for good too.
    const typed = await sshDefaults('anyone', unknown);
    expect(typed.code).toBe(255);
    expect(typed.stderr).toContain('(TunnelNotFound)');
    expect(typed.prompts).toEqual([expect.stringMatching(/Portcullis code: $/)]);
    // The code as the user name and typed again, with the default settings, still logs in.
    const own = await sshDefaults(code, code, ['-o', 'PubkeyAuthentication=no']);
    expect([own.code, own.stdout.toString()]).toEqual([0, 'in\n']);
    expect(own.prompts).toEqual([expect.stringMatching(/Portcullis code: $/)]);
  });

  it('asks for the code with keyboard-interactive', async () => {
    const res = await ssh('anyone', ['echo typed'], 'keyboard-interactive', client.askpass(code));
    expect([res.code, res.stdout.toString()]).toEqual([0, 'typed\n']);
  });

  const refusedWith = async (user: string, text: string) => {
    const res = await ssh(user, ['echo in']);
    expect(res.code).toBe(255);
    expect(res.stdout.toString()).toBe('');
    expect(res.stderr).toContain(text);
  };

  it('refuses an expired code, a wrong client address and a code of another cluster, saying why', async () => {
    const expiring = await newCode({ allow_ip: '' }, otherWeb);
    // The code of a resource in another cluster is unknown here.
    await refusedWith(expiring.code, 'The code does not exist (TunnelNotFound)');
    // Expired: the API takes only future times, so the expiry is moved into the past.
    await t.ctx.db
      .updateTable('tunnel')
      .set({ expire_time: Math.floor(Date.now() / 1000) - 5 })
      .where('id', '=', (await newCode({}, web).catch(() => ({ id: 0 }))).id)
      .execute();
    const mine = await erinsCodesOnWeb()
      .set({ expire_time: Math.floor(Date.now() / 1000) - 5 })
      .where('type', '=', 'normal')
      .executeTakeFirst();
    expect(Number(mine.numUpdatedRows)).toBe(1);
    await refusedWith(code, 'The code has expired (TunnelExpire)');
    await erinsCodesOnWeb()
      .set({ expire_time: Math.floor(Date.now() / 1000) + 3600 })
      .execute();
    const byIp = await erin.client.patch(`/api/tunnel/${await codeId(code)}`, {
      allow_ip: '10.1.2.3',
    });
    expect(byIp.statusCode, byIp.body).toBe(200);
    await refusedWith(code, 'Your IP address is not in the whitelist (IPNotInWhiteList)');
    await erin.client.patch(`/api/tunnel/${await codeId(code)}`, { allow_ip: '127.0.0.1' });
    expect((await ssh(code, ['true'])).code).toBe(0);
  });

  const codeId = async (value: string) => {
    const list = (await erin.client.get('/api/tunnel?page_size=100')).json().objects as {
      id: number;
      code: string;
    }[];
    return list.find((c) => c.code === value)!.id;
  };

  it('refuses port forwarding of every kind', async () => {
    // A port other than SSH's or the server's own: a tunnel (ports 22 and sshd's are a jump).
    const direct = await ssh(code, ['-W', '127.0.0.1:5432']);
    expect(direct.code).toBe(255);
    // Before: "open failed: connect failed: " and nothing after.
    expect(direct.stderr).toContain(
      'open failed: administratively prohibited: Portcullis: port forwarding is not allowed through the gateway',
    );
    const remote = await ssh(code, ['-o', 'ExitOnForwardFailure=yes', '-N', '-R', '0:127.0.0.1:1']);
    expect(remote.code).toBe(255);
    expect(remote.stderr).toMatch(/remote port forwarding failed/i);
  });

  it('is a jump host: ssh -J and ProxyCommand -W reach the code’s server, logged', async () => {
    // The name after the jump is any name (the code decides the server); the gateway answers
    // the SSH inside the jump with its own host key.
    const config = gatewayJumpConfig(client, port, code, (file) => [
      'Host web-jump',
      '  ProxyJump gw',
      'Host web-command',
      `  ProxyCommand ssh -F ${file} -W %h:%p gw`,
    ]);
    const sessions = () =>
      t.ctx.db
        .selectFrom('tunnel_connection')
        .select(['id', 'way'])
        .where('account_id', '=', erin.id)
        .execute();
    const before = (await sessions()).length;
    for (const host of ['web-jump', 'web-command']) {
      const res = await run('ssh', ['-F', config, host, 'echo "via $0"; whoami; exit 3']);
      expect(res.stderr).not.toContain('Portcullis:');
      expect([host, res.code, res.stdout.toString()]).toEqual([
        host,
        3,
        `via bash\n${sshd.user}\n`,
      ]);
    }
    // `ssh -J` on the command line, and a file through the jump with sftp.
    const res = await run('ssh', ['-F', config, '-J', 'gw', 'any-name', 'echo jumped']);
    expect([res.code, res.stdout.toString()]).toEqual([0, 'jumped\n']);
    // Recorded as any session of the code.
    expect(await gateway.recordings!.idle(10_000)).toBe(true);
    const jumped = await t.ctx.db
      .selectFrom('tunnel_connection')
      .select('id')
      .where('account_id', '=', erin.id)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    const cast = await admin.get(
      `/api/download_tunnel_log?connection_id=${jumped.id}&way=terminal`,
    );
    expect(cast.statusCode, cast.body).toBe(200);
    expect(cast.body).toContain('jumped');
    const local = path.join(dir, 'jump-file.txt');
    fs.writeFileSync(local, 'through the jump\n');
    const put = await run('sftp', ['-F', config, '-b', '-', 'web-jump'], {
      input: `put ${local} /tmp/portcullis-jump-file.txt\n`,
    });
    expect(put.code, put.stderr).toBe(0);
    const back = await run('ssh', ['-F', config, 'web-jump', 'cat /tmp/portcullis-jump-file.txt']);
    expect(back.stdout.toString()).toBe('through the jump\n');
    // Each is a session of the code like any other: online while it runs, then in the log
    // (at least one per command: the sftp through the jump leaves two rows here, one of them sftp).
    const ways = (await sessions()).slice(before).map((r) => r.way);
    expect(ways.length).toBeGreaterThanOrEqual(5);
    expect(new Set(ways)).toEqual(new Set(['terminal', 'sftp']));
  });

  // A local forward to port 22 (`ssh -L`) is a channel like a jump's: before, the gateway
  // answered the SSH in it with any login, so whoever reached the member's forwarded port had
  // the member's session for nothing. The inner login now asks for the member's key again.
  it('asks a jump for the member’s own key again, so a forwarded port gives nobody a session', async () => {
    const local = await freePort();
    const forward = spawn(
      'ssh',
      [
        ...client.options('publickey'),
        '-N',
        '-p',
        String(port),
        '-L',
        `${local}:anything:22`,
        `${code}@127.0.0.1`,
      ],
      { stdio: 'ignore' },
    );
    try {
      const listening = () =>
        new Promise<boolean>((resolve) => {
          const socket = net.connect(local, '127.0.0.1');
          socket.once('connect', () => resolve(socket.destroy() !== undefined));
          socket.once('error', () => resolve(false));
        });
      await until(listening, 15_000);
      const strangerKey = path.join(dir, 'stranger_ed25519');
      if (!fs.existsSync(strangerKey))
        await run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', strangerKey]);
      const through = (options: string[]) =>
        run('ssh', [
          '-F',
          '/dev/null',
          '-o',
          'StrictHostKeyChecking=no',
          '-o',
          'UserKnownHostsFile=/dev/null',
          '-o',
          'BatchMode=yes',
          '-o',
          'IdentitiesOnly=yes',
          '-p',
          String(local),
          ...options,
          'anyone@127.0.0.1',
          'echo inside',
        ]);
      for (const attempt of [
        ['-o', 'PreferredAuthentications=none'],
        ['-o', 'PreferredAuthentications=publickey', '-i', strangerKey],
        [
          '-o',
          'PreferredAuthentications=password',
          '-o',
          'BatchMode=no',
          '-o',
          'NumberOfPasswordPrompts=1',
        ],
      ]) {
        const res = await through(attempt);
        expect([attempt.join(' '), res.code, res.stdout.toString()]).toEqual([
          attempt.join(' '),
          255,
          '',
        ]);
      }
      // The member, with the key the code's login took, gets the code's server as with -J.
      const own = await through(['-o', 'PreferredAuthentications=publickey', '-i', client.keyFile]);
      expect([own.code, own.stdout.toString()]).toEqual([0, 'inside\n']);
    } finally {
      forward.kill();
    }
  });

  it('asks a jump made with the code typed for the code again', async () => {
    const config = path.join(dir, 'jump_typed_config');
    fs.writeFileSync(
      config,
      [
        'Host *',
        '  StrictHostKeyChecking no',
        '  UserKnownHostsFile /dev/null',
        '  PreferredAuthentications keyboard-interactive',
        '  NumberOfPasswordPrompts 1',
        'Host gw',
        '  HostName 127.0.0.1',
        `  Port ${port}`,
        '  User anyone',
        'Host web-typed',
        '  ProxyJump gw',
        '',
      ].join('\n'),
    );
    const prompts = path.join(dir, 'jump-prompts.txt');
    const res = await run('ssh', ['-F', config, 'web-typed', 'echo typed-jump'], {
      env: client.askpass(code, prompts),
    });
    expect([res.code, res.stdout.toString()]).toEqual([0, 'typed-jump\n']);
    // Asked twice: by the gateway's login, then by the jump's inside it.
    const asked = fs.readFileSync(prompts, 'utf8').split('\n').filter(Boolean);
    expect(asked.filter((p) => p.includes('Portcullis code'))).toHaveLength(2);
    const wrong = await run('ssh', ['-F', config, 'web-typed', 'echo typed-jump'], {
      env: client.askpass('not-the-code'),
    });
    expect(wrong.code).toBe(255);
  });

  it('keeps an online connection while connected, ends it after, and can cut it', async () => {
    const live = () =>
      t.ctx.db
        .selectFrom('tunnel_connection')
        .selectAll()
        .where('account_id', '=', erin.id)
        .where('ended_at', 'is', null)
        .execute();
    // The sessions of earlier tests end as their gateway reports it, a moment after the client.
    for (let i = 0; i < 50 && (await live()).length > 0; i++) {
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(await live()).toEqual([]);
    const running = ssh(code, ['echo ready; sleep 20; echo done']);
    let rows = await live();
    for (let i = 0; i < 100 && rows.length === 0; i++) {
      await new Promise((r) => setTimeout(r, 100));
      rows = await live();
    }
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ company_id: 1, resource_id: expect.any(Number) });
    // The command's channel is open once its output is recorded: a cut before that (its row is
    // online from its insert) ends the login with the disconnect's words only.
    await until(async () => {
      const [row] = await live();
      return row !== undefined && row.recording !== 0;
    });
    const started = Date.now();
    await cutSessions(t.ctx, [rows[0]!.id], 'SessionCutFromConsole');
    const res = await running;
    expect(Date.now() - started).toBeLessThan(5000);
    expect(res.stdout.toString()).not.toContain('done');
    // Before: only "Received disconnect from 127.0.0.1 port …:11: ", with no reason.
    expect(res.stderr).toContain(
      '\r\nPortcullis: the session was ended (Disconnected from the console)\r\n',
    );
    expect(res.stderr).toMatch(
      /Received disconnect from .*:11: Portcullis: the session was ended \(Disconnected from the console\)/,
    );
    for (let i = 0; i < 50 && (await live()).length > 0; i++) {
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(await live()).toEqual([]);
    const ended = await t.ctx.db
      .selectFrom('tunnel_connection')
      .select(['ended_at'])
      .where('id', '=', rows[0]!.id)
      .executeTakeFirstOrThrow();
    expect(ended.ended_at).toBeGreaterThan(0);
    // The gateway reports the end: no gateway carries the session any more.
    await until(() => !t.ctx.gateways.cutSession(rows[0]!.id));
  });

  it('tells a session whose code expires that the code expired', async () => {
    const running = ssh(code, ['sleep 20; echo done']);
    const live = async () =>
      t.ctx.db
        .selectFrom('tunnel_connection')
        .select('id')
        .where('account_id', '=', erin.id)
        .where('ended_at', 'is', null)
        .execute();
    for (let i = 0; i < 100 && (await live()).length === 0; i++) {
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(await live()).toHaveLength(1);
    await erinsCodesOnWeb()
      .set({ expire_time: Math.floor(Date.now() / 1000) - 1 })
      .where('type', '=', 'normal')
      .execute();
    try {
      expect(await cutRevokedSessions(t.ctx)).toBe(1);
      const res = await running;
      expect(res.stdout.toString()).not.toContain('done');
      // Before: "the session was ended (Access revoked)".
      expect(res.stderr).toContain('Portcullis: the session was ended (The code has expired)');
    } finally {
      await erinsCodesOnWeb()
        .set({ expire_time: Math.floor(Date.now() / 1000) + 3600 })
        .execute();
    }
  });

  it('refuses a disabled member', async () => {
    const res = await admin.patch(`/api/v1/account/${erin.id}`, { status: true });
    expect(res.statusCode, res.body).toBe(200);
    const denied = await ssh(code, ['echo in']);
    expect(denied.code).toBe(255);
    expect(denied.stderr).toContain('User disabled (AccountDisabled)');
  });

  it('never logs a code or a password', () => {
    expect(t.logs()).not.toContain(code);
    expect(t.logs()).not.toContain('Once#Only1');
    expect(t.logs()).not.toContain(sshd.password);
  });
});

/**
 * How the gateway logs in to the target, by the login user's auth_type, and what passes through
 * a session besides bytes: the real server, gateway and OpenSSH sshd, with the member on the
 * stock ssh client or on ssh2 (which can send a window change and a signal on demand).
 * - auth_type 1: the resource's own key, installed by a key upload, logs in; the target's
 *   password is never asked for.
 * - auth_type 2 (team account password): the member types the login user's password, asked by
 *   keyboard-interactive after the code is proven (a key, or the code itself by the keyboard
 *   prompt); three wrong ones end the attempt.
 * - A window change reaches the target's pty; a signal reaches the target's command and its
 *   exit signal comes back.
 * - The member may reach the gateway through their own jump host (`ProxyJump`, or a
 *   `ProxyCommand ssh -W`), here the test sshd, with the ~/.ssh/config the README shows.
 */
import fs from 'node:fs';
import path from 'node:path';
// ssh2 is CommonJS: Node's ESM loader sees only its default export.
import ssh2, { type Client, type ClientChannel } from 'ssh2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SshdPeer } from '../../../../../scripts/peers/sshd.mjs';
import type { TestClient } from '../../test/harness';
import { addResourcesTo, projectResourceId } from '../workgroups/test-fixtures';
import { run, type OpenSshClient } from './openssh.test-helpers';
import { addSshdResource, startSshStack, type SshStack } from './ssh-test-kit';

/** This file's own sshd account: the key upload writes its ~/.ssh/authorized_keys. */
const USER = 'portcullis-target';

async function poll<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (let i = 0; i < 300; i++) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('timed out');
}

/** Reads a stream until `pattern` shows up in what it printed. */
function waitFor(
  stream: NodeJS.ReadableStream,
  pattern: RegExp,
  timeoutMs = 15_000,
): Promise<string> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => {
      stream.removeListener('data', onData);
      reject(new Error(`no ${String(pattern)} in ${JSON.stringify(seen)}`));
    }, timeoutMs);
    const onData = (chunk: Buffer) => {
      seen += chunk.toString();
      const match = pattern.exec(seen);
      if (!match) return;
      clearTimeout(timer);
      stream.removeListener('data', onData);
      resolve(match[0]);
    };
    stream.on('data', onData);
  });
}

describe('target login and session signals through the SSH proxy', () => {
  let stack: SshStack | undefined;
  let admin: TestClient;
  let sshd: SshdPeer;
  let client: OpenSshClient;
  let dir: string;
  let proxyPort: number;
  const codes: Record<'key' | 'password' | 'team', string> = { key: '', password: '', team: '' };

  const ssh = (code: string, args: string[]) =>
    run('ssh', [
      ...client.options('publickey'),
      '-p',
      String(proxyPort),
      `${code}@127.0.0.1`,
      ...args,
    ]);

  /** The member on ssh2, signed in with the same key the OpenSSH client uses. */
  const connect = (code: string): Promise<Client> =>
    new Promise((resolve, reject) => {
      const conn = new ssh2.Client();
      conn.once('ready', () => resolve(conn));
      conn.once('error', reject);
      conn.connect({
        host: '127.0.0.1',
        port: proxyPort,
        username: code,
        privateKey: fs.readFileSync(client.keyFile),
        readyTimeout: 20_000,
      });
    });

  beforeAll(async () => {
    stack = await startSshStack({
      workgroup: 'Targets',
      resourceName: 'keyed',
      authType: 1,
      sshd: { user: USER, homeAuthorizedKeys: true },
    });
    ({ admin, sshd, client, dir, port: proxyPort } = stack);
    const { clusterId: lab, workgroupId: wg, erin } = stack;
    const keyed = stack.resourceId;
    // Keys from an earlier run must not let this one in.
    const home = (await run('getent', ['passwd', USER])).stdout.toString().split(':')[5] ?? '';
    fs.rmSync(path.join(home.trim(), '.ssh', 'authorized_keys'), { force: true });

    const passworded = await addSshdResource(admin, lab, sshd, { name: 'passworded' });
    const team = await addSshdResource(admin, lab, sshd, { name: 'team-account', authType: 2 });

    // The key upload installs the resource's own key with the password, which is not kept.
    const upload = await admin.post(`/api/resource/${keyed}/autologin`, {
      username: USER,
      password: sshd.password,
    });
    expect(upload.statusCode, upload.body).toBe(200);
    const status = await poll(
      async () =>
        (await admin.get(`/api/autologin_query?task_id=${upload.json().task_id}`)).json() as {
          status: string;
        },
      (s) => s.status !== 'pending',
    );
    expect(status.status).toBe('success');

    await addResourcesTo(admin, wg, [passworded, team]);
    const newCode = async (resource: number) => {
      const res = await erin.client.post('/api/tunnel', {
        project_resource_id: await projectResourceId(admin, wg, resource),
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().code as string;
    };
    codes.key = stack.code;
    codes.password = await newCode(passworded);
    codes.team = await newCode(team);
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('logs in with the key the key upload installed (auth_type 1)', async () => {
    const res = await ssh(codes.key, ['whoami']);
    expect(res.stderr).not.toContain('Portcullis:');
    expect([res.code, res.stdout.toString()]).toEqual([0, `${USER}\n`]);
  });

  /** ssh answering keyboard prompts by `answer` (the prompt text in $1), key first. */
  const sshAsking = (code: string, methods: string, answer: string, args: string[]) => {
    const askpass = path.join(dir, `askpass-${Math.random().toString(36).slice(2)}.sh`);
    fs.writeFileSync(askpass, `#!/bin/sh\n${answer}\n`, { mode: 0o700 });
    return run(
      'ssh',
      [
        '-o',
        `PreferredAuthentications=${methods}`,
        '-o',
        'NumberOfPasswordPrompts=3',
        ...client.options('keyboard-interactive'),
        '-p',
        String(proxyPort),
        `${code}@127.0.0.1`,
        ...args,
      ],
      { env: { ...client.askpass(''), SSH_ASKPASS: askpass } },
    );
  };

  it('asks the member for a team-account-password login user’s password (auth_type 2)', async () => {
    const prompts = path.join(dir, 'prompts.txt');
    const res = await sshAsking(
      codes.team,
      'publickey,keyboard-interactive',
      `echo "$1" >> ${prompts}; printf '%s\\n' '${sshd.password}'`,
      ['whoami'],
    );
    expect(res.stderr).not.toContain('Portcullis:');
    expect([res.code, res.stdout.toString()]).toEqual([0, `${USER}\n`]);
    // Asked once, for the login user on this resource; the code came by the key.
    // (OpenSSH puts "(user@host) " before a keyboard prompt.)
    const asked = fs.readFileSync(prompts, 'utf8').trim().split('\n');
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatch(new RegExp(`\\) Password for ${USER}@team-account:$`));
  });

  it('takes the code and then the password in one keyboard-interactive exchange', async () => {
    const res = await sshAsking(
      codes.team,
      'keyboard-interactive',
      `case "$1" in *code*) echo '${codes.team}';; *) printf '%s\\n' '${sshd.password}';; esac`,
      ['whoami'],
    );
    expect([res.code, res.stdout.toString()]).toEqual([0, `${USER}\n`]);
  });

  it('refuses after three wrong passwords, saying the server refused them', async () => {
    const prompts = path.join(dir, 'wrong-prompts.txt');
    const res = await sshAsking(
      codes.team,
      'publickey,keyboard-interactive',
      `echo "$1" >> ${prompts}; echo not-the-password`,
      ['whoami'],
    );
    expect(res.code).toBe(255);
    expect(res.stdout.toString()).toBe('');
    expect(res.stderr).toContain('the server refused the password; try again');
    expect(res.stderr).toContain('The resource refused: the server refused the login credential');
    expect(fs.readFileSync(prompts, 'utf8').trim().split('\n')).toHaveLength(3);
    // Nothing of it is logged or kept by the server.
    expect(
      JSON.stringify(await admin.get('/api/search_tunnel').then((r) => r.json())),
    ).not.toContain('not-the-password');
  });

  it("passes a window change on to the target's pty", async () => {
    const conn = await connect(codes.password);
    try {
      const shell = await new Promise<ClientChannel>((resolve, reject) =>
        conn.shell({ rows: 24, cols: 80, term: 'xterm' }, (err, stream) =>
          err ? reject(err) : resolve(stream),
        ),
      );
      shell.write('stty size\n');
      await waitFor(shell, /^24 80\r?$/m);
      shell.setWindow(40, 132, 0, 0);
      // The window change and the next line travel in order on the same channel.
      shell.write('stty size\n');
      await waitFor(shell, /^40 132\r?$/m);
      shell.end('exit\n');
    } finally {
      conn.end();
    }
  });

  it("passes a signal on to the target's command and its exit signal back", async () => {
    const conn = await connect(codes.password);
    try {
      const exec = await new Promise<ClientChannel>((resolve, reject) =>
        conn.exec('echo started; exec sleep 60', (err, stream) =>
          err ? reject(err) : resolve(stream),
        ),
      );
      const exited = new Promise<{ code: number | null; signal?: string }>((resolve) =>
        exec.on('exit', (code: number | null, signal?: string) => resolve({ code, signal })),
      );
      await waitFor(exec, /started/);
      exec.signal('TERM');
      const result = await exited;
      // OpenSSH reports a command killed by a signal as an exit signal, without a code.
      expect(result.signal).toMatch(/^(SIG)?TERM$/);
    } finally {
      conn.end();
    }
  });

  it('is reached through your own jump host, with ProxyJump or ProxyCommand (README)', async () => {
    const jumpKey = path.join(dir, 'jump_ed25519');
    fs.writeFileSync(jumpKey, sshd.privateKey, { mode: 0o600 });
    const common = [
      '  HostName 127.0.0.1',
      '  IdentitiesOnly yes',
      '  StrictHostKeyChecking no',
      '  UserKnownHostsFile /dev/null',
      '  BatchMode yes',
    ];
    const config = path.join(dir, 'ssh_config');
    fs.writeFileSync(
      config,
      [
        'Host jumpbox',
        ...common,
        `  Port ${sshd.port}`,
        `  User ${USER}`,
        `  IdentityFile ${jumpKey}`,
        'Host web-*',
        ...common,
        `  Port ${proxyPort}`,
        `  User ${codes.password}`,
        `  IdentityFile ${client.keyFile}`,
        'Host web-jump',
        '  ProxyJump jumpbox',
        'Host web-command',
        `  ProxyCommand ssh -F ${config} -W %h:%p jumpbox`,
        '',
      ].join('\n'),
    );
    for (const host of ['web-jump', 'web-command']) {
      const res = await run('ssh', ['-F', config, host, 'echo "via $0"; whoami']);
      expect(res.stderr).not.toContain('Portcullis:');
      expect([host, res.code, res.stdout.toString()]).toEqual([host, 0, `via bash\n${USER}\n`]);
    }
  });
});

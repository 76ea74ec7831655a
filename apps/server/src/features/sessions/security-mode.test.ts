/**
 * Security mode and the file log end to end: the real server, the real gateway (SSH proxy and
 * web terminal), the real OpenSSH sshd as the target, stock OpenSSH clients and an ssh2 client
 * typing keys into a pty. The cluster runs safe mode with `rm` and `reboot` as intercept
 * commands and `whoami` as a notice command; alarms land in the alarm log and in the notice
 * account's mail. The bypass attempts below are the ones the README's "Security mode limits"
 * names: caught ones leave the file in place, the documented misses remove it.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import ssh2 from 'ssh2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { outbox, type TestApp, type TestClient } from '../../test/harness';
import { member } from '../workgroups/test-fixtures';
import { gatewayJumpConfig, run, type OpenSshClient } from './openssh.test-helpers';
import { startSshStack, type SshStack } from './ssh-test-kit';

const until = async (check: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> => {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
};

const BLOCKED = 'security mode blocked this command';

interface AlarmRow {
  account_name: string;
  con_ip: string;
  resource_name: string;
  project_name: string;
  way: string;
  command: string;
  notice_accounts: string[];
}

/** A pty shell through the proxy, typed into key by key as a member would. */
interface Typist {
  type(keys: string | Buffer): void;
  output(): string;
  /** Waits until `text` has appeared `times` times in the output. */
  waitFor(text: string, times?: number): Promise<void>;
  /**
   * Waits until the shell has answered (no output for a moment): after a block, security
   * mode judges an Enter sent before the shell showed it dropped the line with that line in.
   */
  settle(): Promise<void>;
  close(): void;
}

function count(haystack: string, needle: string): number {
  return haystack.split(needle).length - 1;
}

describe('security mode and the file log through a real gateway and sshd', () => {
  let stack: SshStack | undefined;
  let t: TestApp;
  let admin: TestClient;
  let erin: { id: number; client: TestClient };
  let client: OpenSshClient;
  let dir: string;
  let port: number;
  let web: number;
  let code: { id: number; code: string };
  let victim: string;

  /** `options` go before the destination, `args` (the remote command) after it. */
  const ssh = (args: string[], input?: string, options: string[] = []) =>
    run(
      'ssh',
      [
        ...client.options('publickey'),
        ...options,
        '-p',
        String(port),
        `${code.code}@127.0.0.1`,
        ...args,
      ],
      { ...(input !== undefined && { input }) },
    );

  /** The alarm log as the console reads it (newest first, the first page of 10). */
  const alarms = async (): Promise<AlarmRow[]> => {
    const res = await admin.get('/api/event/get_notice_log?page_index=1');
    expect(res.statusCode, res.body).toBe(200);
    return res.json().objects as AlarmRow[];
  };
  /** Every alarm's command, oldest first. */
  const alarmCommands = async (): Promise<string[]> =>
    (
      await t.ctx.db
        .selectFrom('event_log')
        .select('command')
        .where('log_type', '=', 'alarm')
        .orderBy('id')
        .execute()
    ).map((r) => r.command);

  /** A pty shell, or (`exec`) a command run with a pty. */
  /** Erin's web terminal on the target, once ready; `output` is what it showed so far. */
  const webTerminal = async (): Promise<{ ws: WebSocket; output: () => string }> => {
    const issued = (
      await erin.client.post('/api/web_terminal/token', { project_resource_id: web })
    ).json() as { url: string; token: string };
    const ws = new WebSocket(issued.url);
    let text = '';
    ws.on('open', () =>
      ws.send(JSON.stringify({ type: 'auth', token: issued.token, cols: 120, rows: 24 })),
    );
    let ready = false;
    ws.on('message', (data: Buffer, isBinary: boolean) => {
      if (isBinary) text += data.toString();
      else if ((JSON.parse(data.toString()) as { type: string }).type === 'ready') ready = true;
    });
    await until(() => ready).catch((err: unknown) => {
      ws.close();
      throw err;
    });
    return { ws, output: () => text };
  };
  const typist = (exec?: string): Promise<Typist> =>
    new Promise((resolve, reject) => {
      const conn = new ssh2.Client();
      let text = '';
      conn.on('error', reject);
      const window = { term: 'xterm', cols: 200, rows: 24 };
      const open = (cb: (err: Error | undefined, stream: ssh2.ClientChannel) => void): void =>
        void (exec ? conn.exec(exec, { pty: window }, cb) : conn.shell(window, cb));
      conn.on('ready', () =>
        open((err, stream) => {
          if (err) return reject(err);
          stream.on('data', (d: Buffer) => (text += d.toString()));
          resolve({
            type: (keys) => stream.write(keys),
            output: () => text,
            waitFor: (needle, times = 1) =>
              until(() => count(text, needle) >= times).catch(() => {
                throw new Error(
                  `no ${JSON.stringify(needle)} in ${JSON.stringify(text.slice(-600))}`,
                );
              }),
            settle: async () => {
              for (let seen = -1; seen !== text.length;) {
                seen = text.length;
                await new Promise((r) => setTimeout(r, 250));
              }
            },
            close: () => conn.end(),
          });
        }),
      );
      conn.connect({
        host: '127.0.0.1',
        port,
        username: code.code,
        privateKey: fs.readFileSync(client.keyFile),
      });
    });

  beforeAll(async () => {
    victim = `/tmp/portcullis-victim-${crypto.randomBytes(4).toString('hex')}`;
    stack = await startSshStack({
      workgroup: 'Guarded',
      sshd: { options: ['Subsystem sftp internal-sftp'] },
      gateway: { webTerminal: true },
      // The cluster's security mode, before the code that asks for it.
      prepare: async (lab) => {
        const nora = await member(lab.t, 'nora@demo.local');
        const safe = await lab.admin.patch(`/api/v1/network/${lab.clusterId}/safe_mode`, {
          safe_mode: true,
          safe_mode_approver: false,
          safe_mode_notice: true,
          approver_accounts: [],
          notice_accounts: [nora.id],
        });
        expect(safe.statusCode, safe.body).toBe(200);
        const commands = await lab.admin.post('/api/need_intercept_command/batch', {
          network_id: lab.clusterId,
          intercept: ['rm', 'reboot', 'truncate'],
          notice: ['whoami'],
        });
        expect(commands.statusCode, commands.body).toBe(200);
      },
      code: { safe_mode: 1 },
    });
    ({ t, admin, erin, client, dir, port } = stack);
    web = stack.projectResource;
    code = { id: stack.codeId, code: stack.code };
    expect((await ssh([`touch ${victim}`])).code).toBe(0);
  });
  afterAll(async () => {
    for (const suffix of ['', '.data', '.sized']) fs.rmSync(victim + suffix, { force: true });
    await stack?.stop();
  });

  it('blocks an intercept command run as an exec, says why, and writes the alarm log row', async () => {
    const res = await ssh([`rm -f ${victim}`]);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain(BLOCKED);
    expect(res.stderr).toContain('(rm)');
    expect(fs.existsSync(victim)).toBe(true);
    const ok = await ssh(['echo still; echo fine']);
    expect([ok.code, ok.stdout.toString()]).toEqual([0, 'still\nfine\n']);
    const [row] = await alarms();
    expect(row).toMatchObject({
      account_name: 'erin@demo.local',
      con_ip: '127.0.0.1',
      resource_name: 'sshd',
      project_name: 'Guarded',
      way: 'terminal',
      command: `rm -f ${victim}`,
      notice_accounts: ['nora'],
    });
  });

  it('mails the notice account about the alarm, in English and Chinese', async () => {
    await until(() => outbox(t, 'mail').some((m) => m.includes('security alarm')));
    const mail = outbox(t, 'mail').find((m) => m.includes('security alarm'))!;
    expect(mail).toContain('To: nora@demo.local');
    expect(mail).toContain('Subject: Portcullis security alarm: erin@demo.local on sshd');
  });

  it('reads typed lines in a pty shell: blocks the bypasses it can see, lets the shell go on', async () => {
    const attempts = [
      `rm -f ${victim}\r`,
      `   /usr/bin/rm    -f ${victim}\r`,
      `ls /tmp >/dev/null; rm -f ${victim}\r`,
      `echo $(rm -f ${victim})\r`,
      `'r'"m" -f ${victim}\r`,
      `\\rm -f ${victim}\r`,
      `sh -c 'rm -f ${victim}'\r`,
      `rx\x7fm -f ${victim}\r`,
      `echo hello\x15rm -f ${victim}\r`,
      `echo a b\x17\x17\x17rm -f ${victim}\r`,
      `m -f ${victim}\x01r\r`,
      `m -f ${victim}\x1b[D\x1b[D\x1b[Hr\r`,
    ];
    const term = await typist();
    try {
      let marks = 0;
      const alive = async () => {
        marks += 1;
        term.type(`echo MA""RK${marks}\r`);
        await term.waitFor(`MARK${marks}`, 1);
      };
      await alive();
      for (const [i, keys] of attempts.entries()) {
        term.type(keys);
        await term.waitFor(BLOCKED, i + 1);
        await term.settle();
        await alive();
        expect(fs.existsSync(victim), JSON.stringify(keys)).toBe(true);
      }
      // A notice command runs, and raises an alarm.
      term.type('whoami; echo W""HO\r');
      await term.waitFor('WHO');
      await until(async () => (await alarms()).some((a) => a.command.startsWith('whoami')));
      // Documented as not seen: the shell alone knows what $CMD holds.
      term.type(`CMD=r""m; $CMD -f ${victim}\r`);
      await alive();
      await until(() => !fs.existsSync(victim));
    } finally {
      term.close();
    }
    expect((await ssh([`touch ${victim}`])).code).toBe(0);
    const commands = await alarmCommands();
    // The exec of the first test, then each attempt as the line the gateway rebuilt.
    expect(commands.filter((c) => c.includes(victim))).toEqual([
      `rm -f ${victim}`,
      ...attempts.map((keys) =>
        keys === `rx\x7fm -f ${victim}\r` ||
        keys === `echo hello\x15rm -f ${victim}\r` ||
        keys.startsWith('echo a b') ||
        keys.startsWith('m -f')
          ? `rm -f ${victim}`
          : keys.slice(0, -1),
      ),
    ]);
    expect((await alarms()).find((r) => r.command.startsWith('whoami'))).toMatchObject({
      way: 'terminal',
    });
  });

  it('reads a line that Tab completion or history recall made, as the shell drew it', async () => {
    const sized = `${victim}.sized`;
    expect((await ssh([`echo data > ${sized}`])).code).toBe(0);
    const term = await typist();
    try {
      term.type('echo RE""ADY\r');
      await term.waitFor('READY');
      // The keys say `trunc-s 0 FILE`; bash completed the command name to `truncate `.
      term.type('trunc\t');
      await term.waitFor('truncate ');
      term.type(`-s 0 ${sized}`);
      await term.waitFor(`-s 0 ${sized}`);
      term.type('\r');
      await term.waitFor(BLOCKED);
      await term.settle();
      // Up recalls a line the keys never carried.
      term.type(`history -s "truncate -s 0 ${sized}"\r`);
      term.type('echo HI""ST\r');
      await term.waitFor('HIST');
      // Up, Up and Enter at once: the Enter is held back until the line is on screen …
      term.type('\x1b[A\x1b[A\r');
      await term.waitFor(`\btruncate -s 0 ${sized}`);
      expect(count(term.output(), BLOCKED)).toBe(1);
      // … and the Enter the member then presses is judged on the recalled line.
      term.type('\r');
      await term.waitFor(BLOCKED, 2);
      await term.settle();
      term.type('echo DO""NE\r');
      await term.waitFor('DONE');
    } finally {
      term.close();
    }
    expect(fs.readFileSync(sized, 'utf8')).toBe('data\n');
    const commands = await alarmCommands();
    expect(commands.filter((c) => c === `truncate -s 0 ${sized}`)).toHaveLength(2);
  });

  it('blocks the keys that run a line without a plain Enter, in bash and dash', async () => {
    const term = await typist();
    let marks = 0;
    let blocks = 0;
    /** The shell still answers, and the victim is still there. */
    const alive = async (what: string) => {
      marks += 1;
      term.type(`echo MA""RK${marks}\r`);
      await term.waitFor(`MARK${marks}`, 1);
      expect(fs.existsSync(victim), what).toBe(true);
    };
    const blocked = async (keys: string | Buffer) => {
      term.type(keys);
      blocks += 1;
      await term.waitFor(BLOCKED, blocks);
      await term.settle();
      await alive(JSON.stringify(keys.toString()));
    };
    try {
      await alive('start');
      // A UTF-8 lead byte right before Enter.
      await blocked(Buffer.concat([Buffer.from(`rm -f ${victim} `), Buffer.from([0xc2, 0x0d])]));
      // Ctrl-O (operate-and-get-next) runs the line.
      await blocked(`rm -f ${victim}\x0f`);
      // A key rebound to accept-line.
      term.type(`bind '"\\C-t": accept-line'\r`);
      await alive('bind');
      await blocked(`rm -f ${victim}\x14`);
      // Ctrl-U inside a bracketed paste is pasted text, not an edit.
      await blocked(`\x1b[200~rm -f ${victim} \x15\x1b[201~\r`);
      // A backslash-newline joins two lines into one command.
      term.type('r\\\r');
      await term.settle(); // bash's continuation prompt
      await blocked(`m -f ${victim}\r`);
      // An interrupt key the shell ignores: the block still clears the line, and the member's
      // own Ctrl-C does not hide the line from the next Enter.
      term.type('stty intr undef\r');
      await term.settle();
      await alive('stty');
      await blocked(`rm -f ${victim}\r`);
      term.type('\r');
      await alive('a bare Enter after the block');
      await blocked(`rm -f ${victim}\x03\r`);
      term.type('stty intr ^C\r');
      await term.settle();
      await alive('stty back');
      // dash reads in canonical mode: Ctrl-D hands the text over, Ctrl-U cannot take it back.
      term.type('exec dash\r');
      await term.settle(); // keys typed before dash reads are lost
      await alive('dash');
      await blocked(`rm -f ${victim} \x04\x15\r`);
    } finally {
      term.close();
    }
    // Each block is an intercept row, the joined line as the shell would run it.
    expect(await alarmCommands()).toContain(`r\\\nm -f ${victim}`);
  });

  it('reads an exec that starts a shell later in its line, or after scp, as command lines', async () => {
    const script = `echo one\nrm -f ${victim}\necho two\n`;
    for (const command of [
      'cd /tmp && bash',
      'true; bash',
      'cat | bash',
      'bash -c bash',
      'scp -h; bash',
      'scp 2>/dev/null; exec bash',
    ]) {
      const res = await ssh([command], script);
      expect([res.stdout.toString(), count(res.stderr, BLOCKED)], command).toEqual([
        'one\ntwo\n',
        1,
      ]);
      expect(fs.existsSync(victim), command).toBe(true);
    }
    // With a pty, an exec that starts with scp is a terminal like any other.
    const term = await typist('scp 2>/dev/null; exec bash -i');
    try {
      term.type('echo RE""ADY\r');
      await term.waitFor('READY');
      term.type(`rm -f ${victim}\r`);
      await term.waitFor(BLOCKED);
      await term.settle();
      term.type('echo AF""TER\r');
      await term.waitFor('AFTER');
    } finally {
      term.close();
    }
    expect(fs.existsSync(victim)).toBe(true);
    // Without a pty, a continued line is held and left out whole.
    const joined = await ssh([], `r\\\nm -f ${victim}\necho two\n`, ['-T']);
    expect([joined.stdout.toString(), count(joined.stderr, BLOCKED)]).toEqual(['two\n', 1]);
    expect(fs.existsSync(victim)).toBe(true);
  });

  it('blocks exec commands the parser used to miss', async () => {
    for (const command of [
      `r\\\nm -f ${victim}`,
      `> /dev/null rm -f ${victim}`,
      `2> /dev/null rm -f ${victim}`,
      `< /dev/null rm -f ${victim}`,
      `timeout 1.5 rm -f ${victim}`,
      `timeout --signal KILL 5 rm -f ${victim}`,
      `env --unset FOO rm -f ${victim}`,
      `sudo -Eu root rm -f ${victim}`,
      `bash -lc 'rm -f ${victim}'`,
      `sh -ec 'rm -f ${victim}'`,
      `bash -c -- 'rm -f ${victim}'`,
      `su -lc 'rm -f ${victim}'`,
      `bash <<< 'rm -f ${victim}'`,
      `coproc rm -f ${victim}`,
      `function f { rm -f ${victim}; }; f`,
      `$'\\x72m' -f ${victim}`,
      `echo $'\\'' ; rm -f ${victim}`,
    ]) {
      const res = await ssh([command]);
      expect([res.code, count(res.stderr, BLOCKED)], command).toEqual([1, 1]);
      expect(fs.existsSync(victim), command).toBe(true);
    }
  });

  it('checks each line of a shell without a pty and leaves the blocked one out', async () => {
    const res = await ssh([], `echo one\nrm -f ${victim}\necho two\nreboot`, ['-T']);
    expect(res.stdout.toString()).toBe('one\ntwo\n');
    expect(count(res.stderr, BLOCKED)).toBe(2);
    expect(fs.existsSync(victim)).toBe(true);
    // A shell started as the command reads its input as lines too …
    const bash = await ssh(['bash'], `echo one\nrm -f ${victim}\necho two\n`);
    expect([bash.stdout.toString(), count(bash.stderr, BLOCKED)]).toEqual(['one\ntwo\n', 1]);
    expect(fs.existsSync(victim)).toBe(true);
    // … while another command's input is data, passed on as it comes.
    const copy = await ssh([`cat > ${victim}.data; cat ${victim}.data; rm -f ${victim}.data`]);
    expect(copy.stderr).toContain(BLOCKED); // the command line itself says rm
    const data = await ssh([`cat > ${victim}.data && cat ${victim}.data`], `rm -f ${victim}\n`);
    expect([data.code, data.stdout.toString()]).toEqual([0, `rm -f ${victim}\n`]);
    expect(fs.existsSync(victim)).toBe(true);
  });

  it('does nothing to a session whose code has security mode off', async () => {
    /** The action log's unsafe mode of the code's newest session. */
    const newestUnsafe = async () =>
      (await admin.get(`/api/search_tunnel?page_size=1&account_name=erin`)).json().data[0]
        .unsafe_mode as number;
    expect((await ssh(['true'])).code).toBe(0);
    expect(await newestUnsafe()).toBe(0);
    const off = await erin.client.patch(`/api/tunnel/${code.id}`, { safe_mode: 0 });
    expect(off.statusCode, off.body).toBe(200);
    try {
      const res = await ssh([`rm -f ${victim}; echo gone`]);
      expect([res.code, res.stdout.toString()]).toEqual([0, 'gone\n']);
      expect(fs.existsSync(victim)).toBe(false);
      // The log says how the session ran: unsafe, and the one before stays safe.
      expect(await newestUnsafe()).toBe(1);
      const two = (await admin.get('/api/search_tunnel?page_size=2&account_name=erin')).json();
      expect(two.data.map((e: { unsafe_mode: number }) => e.unsafe_mode)).toEqual([1, 0]);
    } finally {
      await erin.client.patch(`/api/tunnel/${code.id}`, { safe_mode: 1 });
      expect((await ssh([`touch ${victim}`])).code).toBe(0);
    }
  });

  it('blocks in the web terminal too (way wetty)', async () => {
    const { ws, output } = await webTerminal();
    try {
      const type = (keys: string) => ws.send(Buffer.from(keys), { binary: true });
      type('echo RE""ADY\r');
      await until(() => output().includes('READY'));
      type(`rm -f ${victim}\r`);
      await until(() => output().includes(BLOCKED));
      // The shell's answer to the block (a new prompt) comes before the next line.
      await until(() => output().slice(output().indexOf(BLOCKED)).includes('^C'));
      type('echo AF""TER\r');
      await until(() => output().includes('AFTER'));
      expect(fs.existsSync(victim)).toBe(true);
    } finally {
      ws.close();
    }
    await until(async () => (await alarms()).some((a) => a.way === 'wetty'));
  });

  it('logs scp and sftp transfers as file-log entries with op and file name', async () => {
    const local = path.join(dir, 'payload.bin');
    fs.writeFileSync(local, crypto.randomBytes(300 * 1024));
    const remote = `/tmp/portcullis-file-log-${crypto.randomBytes(4).toString('hex')}`;
    const base = [...client.options('publickey'), '-P', String(port)];
    try {
      const up = await run('scp', ['-O', ...base, local, `${code.code}@127.0.0.1:${remote}.scp`]);
      expect(up.code, up.stderr).toBe(0);
      const down = await run('scp', [
        '-O',
        ...base,
        `${code.code}@127.0.0.1:${remote}.scp`,
        `${local}.back`,
      ]);
      expect(down.code, down.stderr).toBe(0);
      expect(fs.readFileSync(`${local}.back`).equals(fs.readFileSync(local))).toBe(true);
      const batch = path.join(dir, 'batch');
      fs.writeFileSync(batch, `put ${local} ${remote}.sftp\nget ${remote}.sftp ${local}.sftp\n`);
      const sftp = await run('sftp', [...base, '-b', batch, `${code.code}@127.0.0.1`]);
      expect(sftp.code, sftp.stderr).toBe(0);
      expect(fs.readFileSync(`${local}.sftp`).equals(fs.readFileSync(local))).toBe(true);
    } finally {
      for (const suffix of ['.scp', '.sftp']) fs.rmSync(remote + suffix, { force: true });
    }
    type Entry = { way: string; op?: string; filename?: string; parent_connection_id?: number };
    let files: Entry[] = [];
    await until(async () => {
      const res = await erin.client.get('/api/search_tunnel?page_size=100');
      files = (res.json().data as Entry[]).filter((e) => e.op !== undefined);
      return files.length >= 4;
    });
    const seen = files.map((e) => [e.way, e.op, e.filename]);
    expect(seen).toEqual(
      expect.arrayContaining([
        ['scp', 'upload', 'payload.bin'],
        ['scp', 'download', `${remote}.scp`],
        ['sftp', 'upload', `${remote}.sftp`],
        ['sftp', 'download', `${remote}.sftp`],
      ]),
    );
    expect(files.every((e) => (e.parent_connection_id ?? 0) > 0)).toBe(true);
    // A file entry is a record, never an online connection.
    const live = await t.ctx.db
      .selectFrom('tunnel_connection')
      .select('id')
      .where('op', '!=', '')
      .where('ended_at', 'is', null)
      .execute();
    expect(live).toEqual([]);
    const byWay = await erin.client.get('/api/search_tunnel?way=sftp&keywords=portcullis-file-log');
    expect((byWay.json().data as Entry[]).length).toBe(2);
  });

  it('masks a password typed as an argument in the alarm row and its mail', async () => {
    const res = await ssh(['whoami; mysql -pS3cret --version']);
    expect(res.code).toBe(0);
    const mine = async () => (await alarmCommands()).filter((c) => c.startsWith('whoami; mysql'));
    await until(async () => (await mine()).length > 0);
    expect(await mine()).toEqual(['whoami; mysql -p******** --version']);
    await until(() => outbox(t, 'mail').some((m) => m.includes('mysql -p********')));
    expect(outbox(t, 'mail').filter((m) => m.includes('S3cret'))).toEqual([]);
    // The web terminal's alarms too.
    const { ws, output } = await webTerminal();
    try {
      ws.send(Buffer.from('whoami; PGPASSWORD=W3b true; echo DO""NE\r'), { binary: true });
      await until(() => output().includes('DONE'));
    } finally {
      ws.close();
    }
    const wetty = async () =>
      (await alarms()).filter((a) => a.way === 'wetty' && a.command.startsWith('whoami; PG'));
    await until(async () => (await wetty()).length > 0);
    expect((await wetty()).map((a) => a.command)).toEqual([
      'whoami; PGPASSWORD=******** true; echo DO""NE',
    ]);
  });

  it('blocks in a session through a jump (ssh -J) too', async () => {
    const config = gatewayJumpConfig(client, port, code.code);
    // The alarm row is written after the client hears the refusal: waited for (the first
    // test's row has the same command).
    const before = (await alarmCommands()).length;
    const res = await run('ssh', ['-F', config, '-J', 'gw', 'any-name', `rm -f ${victim}`]);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain(BLOCKED);
    expect(fs.existsSync(victim)).toBe(true);
    await until(async () => (await alarmCommands()).length > before);
    const [row] = await alarms();
    expect(row).toMatchObject({ way: 'terminal', command: `rm -f ${victim}` });
  });
});

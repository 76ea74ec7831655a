/**
 * Terminal recording end to end: the real server, real gateways (one in this process, one a
 * child process killed with SIGKILL mid-session), the real sshd and the stock ssh client.
 * A shell session produces an asciicast v2 file that parses back, downloads through the API
 * for the people allowed to see it (input only for administrators), and survives a gateway
 * crash: the restarted gateway uploads what its spool kept.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CastEventSchema, CastHeaderSchema } from '@portcullis/contract';
import type { Gateway } from '../../../../gateway/src/control/client';
import type { TestApp, TestClient } from '../../test/harness';
import { recordingStore } from '../recordings/tiered-store';
import { createOtherTeam, otherTeamAdmin } from '../team/test-fixtures';
import { member } from '../workgroups/test-fixtures';
import { run, type OpenSshClient } from './openssh.test-helpers';
import { freePort } from '../../../../gateway/src/test/net';
import { startSshStack, type SshStack } from './ssh-test-kit';

const GATEWAY_MAIN = path.resolve(import.meta.dirname, '../../../../gateway/src/main.ts');

async function waitFor<T>(probe: () => Promise<T | undefined> | T | undefined, ms = 15_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Parses an asciicast v2 file strictly: the header, then events with non-decreasing times. */
function parseCast(text: string) {
  const lines = text.split('\n');
  expect(lines.pop()).toBe(''); // every line ends in a newline
  const header = CastHeaderSchema.parse(JSON.parse(lines[0]!));
  const events = lines.slice(1).map((line) => CastEventSchema.parse(JSON.parse(line)));
  for (let i = 1; i < events.length; i++) {
    expect(events[i]![0]).toBeGreaterThanOrEqual(events[i - 1]![0]);
  }
  const text_ = (code: string) =>
    events
      .filter((e) => e[1] === code)
      .map((e) => e[2])
      .join('');
  return { header, events, output: text_('o'), input: text_('i') };
}

describe('terminal recordings through the SSH proxy', () => {
  let stack: SshStack | undefined;
  let t: TestApp;
  let admin: TestClient;
  let erin: { id: number; client: TestClient };
  let gateway: Gateway;
  let client: OpenSshClient;
  let dir: string;
  let port: number;
  let key: string;
  let address: string;
  let code: string;
  let labId: number;
  const children: ChildProcess[] = [];

  /** What the server holds of a session's recording (a file, or a row when it is small). */
  const storedRecording = async (row: { company_id: number; id: number }) => {
    const held = await recordingStore(t.ctx).read({
      companyId: row.company_id,
      connectionId: row.id,
    });
    return held?.toString('utf8') ?? null;
  };
  const lastConnection = () =>
    t.ctx.db
      .selectFrom('tunnel_connection')
      .select(['id', 'recording', 'ended_at', 'company_id'])
      .where('account_id', '=', erin.id)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();

  const download = (who: TestClient, connectionId: number) =>
    who.get(`/api/download_tunnel_log?connection_id=${connectionId}&way=terminal`);

  beforeAll(async () => {
    stack = await startSshStack({ workgroup: 'Recorded' });
    ({ t, admin, erin, gateway, client, dir, port, key, address, code } = stack);
    labId = stack.clusterId;
  });
  afterAll(async () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    await stack?.stop();
  });

  it('records a pty shell as asciicast v2 and serves it to the member and the team', async () => {
    const session = await run(
      'ssh',
      [...client.options('publickey'), '-tt', '-p', String(port), `${code}@127.0.0.1`],
      { input: 'echo rec-$((6*7))\nprintf "中文 ok\\n"\nexit\n' },
    );
    expect(session.code, session.stderr).toBe(0);
    expect(session.stdout.toString()).toContain('rec-42');
    expect(await gateway.recordings!.idle(10_000)).toBe(true);
    // The spool is gone once the server holds every byte: at most an empty blank is left for
    // the next session's spool.
    const spool = path.join(dir, 'gateway', 'recordings');
    for (const name of fs.readdirSync(spool)) {
      expect(name).toMatch(/^\.blank-/);
      expect(fs.statSync(path.join(spool, name)).size).toBe(0);
    }

    const row = await lastConnection();
    expect(row.recording).toBe(1);
    const stored = await storedRecording(row);

    const full = await download(admin, row.id);
    expect(full.statusCode, full.body).toBe(200);
    expect(full.headers['content-type']).toContain('application/x-asciicast');
    expect(full.headers['content-disposition']).toBe(`attachment; filename="${row.id}.cast"`);
    expect(full.body).toBe(stored);
    const cast = parseCast(full.body);
    expect(cast.header.version).toBe(2);
    expect(cast.header.width).toBeGreaterThan(0);
    expect(cast.output).toContain('rec-42');
    expect(cast.output).toContain('中文 ok');
    expect(cast.input).toContain('echo rec-$((6*7))');

    // The filesystem store has no archive tier: the thaw check says it is ready at once.
    const ready = await admin.get(`/api/unfreeze_tunnel_log?connection_id=${row.id}&check=1`);
    expect([ready.statusCode, ready.json()]).toEqual([200, { ok: true }]);

    // The member downloads their own session, without the input events.
    const own = await download(erin.client, row.id);
    expect(own.statusCode, own.body).toBe(200);
    const mine = parseCast(own.body);
    expect(mine.output).toBe(cast.output);
    expect(mine.events.some((e) => e[1] === 'i')).toBe(false);

    // The stock player reads it too, when Debian's asciinema is installed. It opens /dev/tty,
    // so it runs under script(1) for a terminal; the path is our own temporary folder.
    if (fs.existsSync('/usr/bin/asciinema') && fs.existsSync('/usr/bin/script')) {
      const file = path.join(dir, 'session.cast');
      fs.writeFileSync(file, full.body);
      const cat = await run('script', ['-qec', `asciinema cat ${file}`, '/dev/null']);
      expect(cat.code, cat.stderr).toBe(0);
      expect(cat.stdout.toString()).toContain('rec-42');
    }
  });

  it('records exec output without input', async () => {
    const exec = await run('ssh', [
      ...client.options('publickey'),
      '-p',
      String(port),
      `${code}@127.0.0.1`,
      'echo exec-$((2+3))',
    ]);
    expect(exec.code, exec.stderr).toBe(0);
    expect(await gateway.recordings!.idle(10_000)).toBe(true);
    const row = await lastConnection();
    const cast = parseCast((await download(admin, row.id)).body);
    expect(cast.output).toContain('exec-5');
    expect(cast.events.some((e) => e[1] === 'i')).toBe(false);
  });

  it('is not found for another team, another member, or a connection that never was', async () => {
    const row = await lastConnection();
    await createOtherTeam(t);
    const stranger = await otherTeamAdmin(t);
    const other = await download(stranger, row.id);
    expect([other.statusCode, other.json().code]).toEqual([404, 'ConnectionIDNotFound']);
    const frank = await member(t, 'frank@demo.local');
    const notHis = await download(frank.client, row.id);
    expect([notHis.statusCode, notHis.json().code]).toEqual([404, 'ConnectionIDNotFound']);
    const thaw = await stranger.get(`/api/unfreeze_tunnel_log?connection_id=${row.id}&check=1`);
    expect([thaw.statusCode, thaw.json().code]).toEqual([404, 'ConnectionIDNotFound']);
    const never = await download(admin, 999_999);
    expect([never.statusCode, never.json().code]).toEqual([404, 'ConnectionIDNotFound']);
    const anonymous = await t.client().get(`/api/download_tunnel_log?connection_id=${row.id}`);
    expect(anonymous.json().code).toBe('NeedLogin');
  });

  it('keeps the recording of a gateway killed with SIGKILL, uploaded when it restarts', async () => {
    const dataDir = path.join(dir, 'crashing-gateway');
    const sshPort = await freePort();
    const config = path.join(dir, 'crashing-gateway.json');
    fs.writeFileSync(config, JSON.stringify({ ports: { ssh_port: sshPort } }), { mode: 0o600 });
    const startChild = () => {
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', GATEWAY_MAIN, '--config', config, '--data-dir', dataDir],
        {
          env: {
            PATH: process.env.PATH,
            PORTCULLIS_GATEWAY_SERVER: address,
            PORTCULLIS_GATEWAY_KEY: key,
            PORTCULLIS_GATEWAY_HOST: '127.0.0.1',
            PORTCULLIS_GATEWAY_LOG_LEVEL: 'warn',
          },
          stdio: ['ignore', 'ignore', 'inherit'],
        },
      );
      children.push(child);
      return child;
    };
    // The server's storage refuses every write while the first gateway runs (a file stands
    // where the team's folder goes, and the table of small recordings is renamed away), so
    // nothing of this session reaches it before the kill: what the server ends up with can
    // only come from the restarted gateway's spool.
    const teamFolder = path.join(
      t.dataDir,
      'recordings',
      String((await lastConnection()).company_id),
    );
    fs.mkdirSync(teamFolder, { recursive: true });
    fs.renameSync(teamFolder, `${teamFolder}.aside`);
    fs.writeFileSync(teamFolder, 'blocked');
    await sql`ALTER TABLE recording_inline RENAME TO recording_inline_aside`.execute(t.ctx.db);
    // A log filter: the gateway holds a half-typed line that may start its condition.
    await admin.post('/api/log_filter', { network_id: labId, condition: 'secret-token' });
    const first = startChild();
    await waitFor(
      () =>
        new Promise<true | undefined>((resolve) => {
          const socket = net.connect(sshPort, '127.0.0.1', () => {
            socket.destroy();
            resolve(true);
          });
          socket.on('error', () => resolve(undefined));
        }),
      20_000,
    );

    // A live shell through the child gateway, left open while the gateway dies.
    const ssh = spawn(
      'ssh',
      [...client.options('publickey'), '-tt', '-p', String(sshPort), `${code}@127.0.0.1`],
      { stdio: ['pipe', 'pipe', 'pipe'] },
    );
    children.push(ssh);
    let seen = '';
    ssh.stdout.on('data', (d: Buffer) => (seen += d.toString()));
    ssh.stdin.write('echo before-$((40+2))-kill\n');
    // Its result and then bash's next prompt: text typed before the prompt is echoed twice (by
    // the terminal as typeahead, then by readline after the prompt), and the first copy, a
    // line the prompt's escape sequence interrupts, is not a partial line the filter holds.
    await waitFor(() => {
      const at = seen.lastIndexOf('before-42-kill');
      return at !== -1 && seen.includes('$ ', at) ? true : undefined;
    });
    // Typed, not entered: held back by the log filter (it may be the condition's start).
    ssh.stdin.write('echo half-typed secret-to');
    await waitFor(() => (seen.includes('secret-to') ? true : undefined));
    // The recorder writes its spool at least every 250 ms: wait past that, then kill.
    await new Promise((resolve) => setTimeout(resolve, 600));
    // The whole gateway dies at once, with its SSH workers if it runs any (they would hold the
    // session and its recorder), as `systemctl kill -s KILL` of its service does.
    const workers = fs
      .readFileSync(`/proc/${first.pid}/task/${first.pid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
    const exited = new Promise((resolve) => first.on('exit', resolve));
    for (const pid of [first.pid!, ...workers]) process.kill(pid, 'SIGKILL');
    await exited;
    ssh.kill('SIGKILL');

    const row = await lastConnection();
    const spool = path.join(dataDir, 'recordings', `${row.id}.cast`);
    const spooled = fs.readFileSync(spool, 'utf8');
    expect(spooled).toContain('before-42-kill');
    // The held part is not in the spool but beside it, and joins the recording at restart.
    expect(spooled).not.toContain('secret-to');
    expect(fs.readFileSync(`${spool}.held`, 'utf8')).toContain('secret-to');
    fs.rmSync(teamFolder);
    fs.renameSync(`${teamFolder}.aside`, teamFolder);
    await sql`ALTER TABLE recording_inline_aside RENAME TO recording_inline`.execute(t.ctx.db);
    expect(await storedRecording(row)).toBeNull();

    // The restarted gateway uploads the rest and then drops its spool.
    const second = startChild();
    await waitFor(() => (fs.existsSync(spool) ? undefined : true), 20_000);
    const cast = parseCast((await download(admin, row.id)).body);
    expect((await storedRecording(row))!.startsWith(spooled)).toBe(true);
    expect(cast.output).toContain('before-42-kill');
    expect(cast.output).toContain('echo half-typed secret-to');
    expect(cast.input).toContain('echo half-typed secret-to');
    expect((await lastConnection()).recording).toBe(1);
    second.kill('SIGTERM');
  }, 60_000);
});

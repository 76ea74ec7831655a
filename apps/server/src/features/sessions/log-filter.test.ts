/**
 * A cluster's log filters (spec 2 §3, operator 'contains') end to end: the real server, a real
 * gateway, the real sshd and the stock ssh client. A filter set through the API reaches the
 * gateway with the next session; a line that contains its condition is stored in the recording
 * as a placeholder while the member sees the real text live, and the other lines are intact.
 * An alarm's command and a file-log name that contain it are stored as placeholders too.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import ssh2 from 'ssh2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CastEventSchema, CastHeaderSchema, LOG_FILTER_HIDDEN } from '@portcullis/contract';
import type { Gateway } from '../../../../gateway/src/control/client';
import type { TestApp, TestClient } from '../../test/harness';
import { run, type OpenSshClient } from './openssh.test-helpers';
import { startSshStack, type SshStack } from './ssh-test-kit';

async function until<T>(probe: () => Promise<T | undefined>, ms = 15_000): Promise<T> {
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
  expect(lines.pop()).toBe('');
  CastHeaderSchema.parse(JSON.parse(lines[0]!));
  const events = lines.slice(1).map((line) => CastEventSchema.parse(JSON.parse(line)));
  for (let i = 1; i < events.length; i++) {
    expect(events[i]![0]).toBeGreaterThanOrEqual(events[i - 1]![0]);
  }
  const joined = (code: string) =>
    events
      .filter((e) => e[1] === code)
      .map((e) => e[2])
      .join('');
  return { events, output: joined('o'), input: joined('i') };
}

const CONDITION = 'secret-token';

describe('log filters of the cluster', () => {
  let stack: SshStack | undefined;
  let t: TestApp;
  let admin: TestClient;
  let erin: { id: number; client: TestClient };
  let gateway: Gateway;
  let client: OpenSshClient;
  let dir: string;
  let port: number;
  let lab: number;
  let code: { id: number; code: string };
  let filterId: number;

  const lastConnection = () =>
    t.ctx.db
      .selectFrom('tunnel_connection')
      .select(['id'])
      .where('account_id', '=', erin.id)
      .where('way', '=', 'terminal')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();

  /** The last ssh session's recording as the administrator downloads it (with input). */
  const lastRecording = async () => {
    expect(await gateway.recordings!.idle(10_000)).toBe(true);
    const { id } = await lastConnection();
    const res = await admin.get(`/api/download_tunnel_log?connection_id=${id}&way=terminal`);
    expect(res.statusCode, res.body).toBe(200);
    return { body: res.body, ...parseCast(res.body) };
  };

  const shell = (input: string) =>
    run(
      'ssh',
      [...client.options('publickey'), '-tt', '-p', String(port), `${code.code}@127.0.0.1`],
      {
        input,
      },
    );

  beforeAll(async () => {
    stack = await startSshStack({ workgroup: 'Filtered' });
    ({ t, admin, erin, gateway, client, dir, port } = stack);
    lab = stack.clusterId;
    code = { id: stack.codeId, code: stack.code };

    const filter = await admin.post('/api/log_filter', { network_id: lab, condition: CONDITION });
    expect(filter.statusCode, filter.body).toBe(200);
    filterId = filter.json().id as number;
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('stores a matching line of a pty shell as the placeholder; the member sees it live', async () => {
    const session = await shell(
      'echo before-$((1+1))\necho "the SECRET-TOKEN is $((6*7))"\necho after-$((2+2))\nexit\n',
    );
    expect(session.code, session.stderr).toBe(0);
    // The live session is never changed.
    expect(session.stdout.toString()).toContain('the SECRET-TOKEN is 42');

    const cast = await lastRecording();
    expect(cast.body.toLowerCase()).not.toContain(CONDITION);
    expect(cast.input.toLowerCase()).not.toContain(CONDITION);
    expect(cast.output).toContain(LOG_FILTER_HIDDEN.line);
    expect(cast.output).not.toContain('is 42');
    expect(cast.output).toContain('before-2\r\n');
    expect(cast.output).toContain('after-4\r\n');
    // What the member typed: the matching line is hidden, the others are kept.
    expect(cast.input).toContain('echo before-$((1+1))');
    expect(cast.input).toContain(`${LOG_FILTER_HIDDEN.line}\n`);
    expect(cast.input).toContain('echo after-$((2+2))');
  });

  it('hides a condition typed key by key, slower than the hold, in input and echo', async () => {
    const conn = new ssh2.Client();
    let seen = '';
    const stream = await new Promise<ssh2.ClientChannel>((resolve, reject) => {
      conn.on('error', reject);
      conn.on('ready', () =>
        conn.shell({ term: 'xterm', cols: 200, rows: 24 }, (err, opened) =>
          err ? reject(err) : resolve(opened),
        ),
      );
      conn.connect({
        host: '127.0.0.1',
        port,
        username: code.code,
        privateKey: fs.readFileSync(client.keyFile),
      });
    });
    stream.on('data', (d: Buffer) => (seen += d.toString()));
    const closed = new Promise((resolve) => stream.on('close', resolve));
    try {
      stream.write('echo ok-$((2*3))\r');
      await until(async () => (seen.includes('ok-6') ? true : undefined));
      // 120 ms a key: the line takes seconds, the condition itself less than KEEP_MS.
      for (const key of `echo "x ${CONDITION} y $((5*5))"\r`) {
        stream.write(key);
        await new Promise((resolve) => setTimeout(resolve, 120));
      }
      await until(async () => (seen.includes('y 25') ? true : undefined));
      stream.write('exit\r');
      await closed;
    } finally {
      conn.end();
    }
    expect(seen).toContain(`x ${CONDITION} y 25`);
    const cast = await lastRecording();
    // Not even the start of it: what could begin a condition waited for the rest.
    expect(cast.output.toLowerCase()).not.toContain('secret');
    expect(cast.input.toLowerCase()).not.toContain('secret');
    expect(cast.output).toContain('ok-6');
    expect(cast.output).toContain(LOG_FILTER_HIDDEN.line);
    expect(cast.output).not.toContain('y 25');
    expect(cast.input).toContain('echo ok-$((2*3))\r');
    expect(cast.input).toContain(`${LOG_FILTER_HIDDEN.line}\r`);
  }, 30_000);

  it('hides an alarm command and a file-log name that match', async () => {
    const safe = await admin.patch(`/api/v1/network/${lab}/safe_mode`, {
      safe_mode: true,
      safe_mode_approver: false,
      safe_mode_notice: false,
      approver_accounts: [],
      notice_accounts: [],
    });
    expect(safe.statusCode, safe.body).toBe(200);
    const notice = await admin.post('/api/need_intercept_command/batch', {
      network_id: lab,
      intercept: [],
      notice: ['whoami'],
    });
    expect(notice.statusCode, notice.body).toBe(200);
    const guarded = await erin.client.patch(`/api/tunnel/${code.id}`, { safe_mode: 1 });
    expect(guarded.statusCode, guarded.body).toBe(200);
    const base = [...client.options('publickey'), '-p', String(port)];
    const target = `${code.code}@127.0.0.1`;

    const exec = await run('ssh', [...base, target, `whoami; echo ${CONDITION}-seen`]);
    expect(exec.code, exec.stderr).toBe(0);
    expect(exec.stdout.toString()).toContain(`${CONDITION}-seen`);
    const alarm = await until(() =>
      t.ctx.db
        .selectFrom('event_log')
        .select('command')
        .where('log_type', '=', 'alarm')
        .executeTakeFirst(),
    );
    expect(alarm.command).toBe(LOG_FILTER_HIDDEN.command);

    const remote = `/tmp/portcullis-${CONDITION}-${crypto.randomBytes(4).toString('hex')}`;
    try {
      expect((await run('ssh', [...base, target, `echo data > ${remote}`])).code).toBe(0);
      const down = await run('scp', [
        '-O',
        ...client.options('publickey'),
        '-P',
        String(port),
        `${target}:${remote}`,
        path.join(dir, 'copy'),
      ]);
      expect(down.code, down.stderr).toBe(0);
      expect(fs.readFileSync(path.join(dir, 'copy'), 'utf8')).toBe('data\n');
    } finally {
      fs.rmSync(remote, { force: true });
    }
    const names = await until(async () => {
      const rows = await t.ctx.db
        .selectFrom('tunnel_connection')
        .select('filename')
        .where('account_id', '=', erin.id)
        .where('way', '=', 'scp')
        .execute();
      return rows.length > 0 ? rows.map((r) => r.filename) : undefined;
    });
    expect(names).toEqual([LOG_FILTER_HIDDEN.file]);
  });

  it('applies a filter removed to the next session', async () => {
    const removed = await admin.delete(`/api/log_filter/${filterId}`);
    expect(removed.statusCode, removed.body).toBe(200);
    const session = await shell(`echo "${CONDITION} now $((3*3))"\nexit\n`);
    expect(session.code, session.stderr).toBe(0);
    const cast = await lastRecording();
    expect(cast.output).toContain(`${CONDITION} now 9`);
    expect(cast.output).not.toContain(LOG_FILTER_HIDDEN.line);
  });
});

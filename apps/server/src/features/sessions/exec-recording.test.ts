/**
 * An exec without a pty carries a data stream (`tar c /x`, `head -c 1G /dev/zero`), not a
 * terminal: the client gets every byte, and the recording keeps only the stream's first
 * STREAM_RECORD_BYTES, then a note. The real server, gateway, sshd and stock ssh client.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CastEventSchema, CastHeaderSchema } from '@portcullis/contract';
import type { Gateway } from '../../../../gateway/src/control/client';
import { STREAM_RECORD_BYTES } from '../../../../gateway/src/recording';
import type { TestApp, TestClient } from '../../test/harness';
import { recordingStore } from '../recordings/tiered-store';
import { run, type OpenSshClient } from './openssh.test-helpers';
import { startSshStack, type SshStack } from './ssh-test-kit';

describe('recording of an exec without a pty', () => {
  let stack: SshStack | undefined;
  let t: TestApp;
  let erin: { id: number; client: TestClient };
  let gateway: Gateway;
  let client: OpenSshClient;
  let dir: string;
  let port: number;
  let code: string;

  const lastConnection = () =>
    t.ctx.db
      .selectFrom('tunnel_connection')
      .select(['id', 'company_id'])
      .where('account_id', '=', erin.id)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();

  const ssh = (args: string[], command: string) =>
    run('ssh', [
      ...client.options('publickey'),
      ...args,
      '-p',
      String(port),
      `${code}@127.0.0.1`,
      command,
    ]);

  /** The stored recording of the member's last session, once the gateway has uploaded it. */
  const stored = async (): Promise<string> => {
    expect(await gateway.recordings!.idle(15_000)).toBe(true);
    const row = await lastConnection();
    const held = await recordingStore(t.ctx).read({
      companyId: row.company_id,
      connectionId: row.id,
    });
    return held!.toString('utf8');
  };

  const parse = (text: string) => {
    const lines = text.split('\n');
    expect(lines.pop()).toBe('');
    CastHeaderSchema.parse(JSON.parse(lines[0]!));
    return lines.slice(1).map((line) => CastEventSchema.parse(JSON.parse(line)));
  };

  beforeAll(async () => {
    stack = await startSshStack({ workgroup: 'Streams' });
    ({ t, erin, gateway, client, dir, port, code } = stack);
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('passes 5 MB byte for byte and records only the first 1 MiB, then a note', async () => {
    // The target's login user (not this process's) reads it: the folder and file are open.
    fs.chmodSync(dir, 0o755);
    const file = path.join(dir, 'data.bin');
    // Random bytes: many become \uXXXX escapes or U+FFFD, the costly case for the recording.
    const data = crypto.randomBytes(5 * 1024 * 1024);
    fs.writeFileSync(file, data, { mode: 0o644 });
    const exec = await ssh([], `cat ${file}`);
    expect(exec.code, exec.stderr).toBe(0);
    expect(exec.stdout.length).toBe(data.length);
    expect(exec.stdout.equals(data)).toBe(true);

    const cast = await stored();
    expect(Buffer.byteLength(cast)).toBeLessThan(1.1 * 1024 * 1024);
    expect(Buffer.byteLength(cast)).toBeGreaterThan(STREAM_RECORD_BYTES - 64 * 1024);
    const events = parse(cast);
    expect(events.at(-1)![2]).toContain('the rest of this output was not recorded');
    expect(events.every((e) => e[1] === 'o')).toBe(true);
  }, 60_000);

  it('records an exec with a pty as a terminal, in full', async () => {
    const lines = 100_000; // about 1.3 MB of output, more than a stream's limit
    const exec = await ssh(['-tt'], `seq -w 1 ${lines} | sed 's/^/line /'`);
    expect(exec.code, exec.stderr).toBe(0);
    const cast = await stored();
    const output = parse(cast)
      .map((e) => e[2])
      .join('');
    expect(output).toContain(`line ${lines}`);
    expect(output).not.toContain('was not recorded');
  }, 60_000);
});

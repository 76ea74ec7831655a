import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { sendIpc } from './protocol';

/** A process at the other end of an IPC channel, as a worker is to the primary. */
function otherProcess(): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], {
    stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
  });
  return new Promise((resolve) => child.once('spawn', () => resolve(child)));
}

/**
 * Kills it and blocks until the kernel has it dead, before this process has heard of it:
 * `connected` is still true, as in the moment between a worker's death and its exit event.
 */
function dieUnnoticed(child: ChildProcess): void {
  process.kill(child.pid!, 'SIGKILL');
  for (;;) {
    const stat = fs.readFileSync(`/proc/${child.pid}/stat`, 'utf8');
    if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) return;
  }
}

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

describe('IPC between the gateway and its SSH workers', () => {
  it('drops a message to a process that just died instead of raising an error', async () => {
    const child = await otherProcess();
    children.push(child);
    // Without a listener, an 'error' event ends this process (the whole gateway); the listener
    // only records one, so that the test can say so.
    const errors: Error[] = [];
    child.on('error', (e) => errors.push(e));
    dieUnnoticed(child);
    expect(child.connected).toBe(true);

    const failed = new Promise<boolean>((resolve) => {
      sendIpc(child, { type: 'cut', connectionId: 1, reason: 'test' }, undefined, () =>
        resolve(true),
      );
      setTimeout(() => resolve(false), 1000);
    });
    expect(await failed).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(errors).toEqual([]);
  });

  it('says nothing is sent when the other end has already gone', async () => {
    const child = await otherProcess();
    children.push(child);
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    let failed = false;
    sendIpc(child, { type: 'ready' }, undefined, () => (failed = true));
    expect(failed).toBe(true);
  });
});

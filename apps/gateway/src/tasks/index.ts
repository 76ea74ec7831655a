/** Dispatches a task from the server to its runner (a table keyed by task kind). */
import type { Task, TaskResult } from '../control/protocol';
import { runConnectivityTest, type ConnectivityOptions } from './connectivity-test';
import { runKeyTest } from './key-test';
import { runKeyUpload, type KeyTaskOptions } from './key-upload';
import { runScan, type ScanOptions } from './scan';

export interface TaskContext {
  signal?: AbortSignal;
  connectivity?: ConnectivityOptions;
  scan?: Omit<ScanOptions, 'signal'>;
  keys?: Omit<KeyTaskOptions, 'signal'>;
}

type Runners = {
  [K in Task['kind']]: (task: Extract<Task, { kind: K }>, ctx: TaskContext) => Promise<TaskResult>;
};

const RUNNERS: Runners = {
  connectivity_test: async (task, ctx) => ({
    kind: 'connectivity_test',
    ...(await runConnectivityTest(task.target, ctx.connectivity)),
  }),
  scan: async (task, ctx) => ({
    kind: 'scan',
    open: await runScan(task.cidr, task.port, { ...ctx.scan, signal: ctx.signal }),
  }),
  key_upload: async (task, ctx) => ({
    kind: 'key_upload',
    ...(await runKeyUpload(task, { ...ctx.keys, signal: ctx.signal })),
  }),
  key_test: async (task, ctx) => ({
    kind: 'key_test',
    ...(await runKeyTest(task, { ...ctx.keys, signal: ctx.signal })),
  }),
};

/** Runs a task; rejects only when it could not run (see errors.ts for what is sent back). */
export function runTask(task: Task, ctx: TaskContext = {}): Promise<TaskResult> {
  const runner = RUNNERS[task.kind] as (task: Task, ctx: TaskContext) => Promise<TaskResult>;
  return runner(task, ctx);
}

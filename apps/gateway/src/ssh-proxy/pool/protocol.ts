/**
 * Messages between the gateway's primary process and its SSH workers (Node IPC, JSON). The
 * primary owns the control channel and the recording upload; a worker owns the SSH sessions
 * the primary hands it (the accepted socket rides with a `connection` message) and asks the
 * primary for everything the server must answer.
 */
import type { MessageOptions } from 'node:child_process';
import type { Socket } from 'node:net';
import type { SessionControlApi } from '../../control/session-requests';

/** The control calls a worker waits on. */
export type RpcMethod = 'resolve' | 'redeem' | 'credential' | 'start';
/** The control calls a worker only reports. */
export type ReportMethod = 'end' | 'alarm' | 'fileTransfer';

export type ToWorker =
  | { type: 'connection' }
  | { type: 'rpc-reply'; id: number; result: unknown }
  | { type: 'cut'; connectionId: number; reason: string; code?: string };

export type FromWorker =
  | { type: 'ready' }
  | { type: 'rpc'; id: number; method: RpcMethod; args: unknown[] }
  | { type: 'report'; method: ReportMethod; args: unknown[] }
  | { type: 'recording'; op: 'track' | 'finish'; connectionId: number }
  /** Every LOAD_INTERVAL_MS: the event loop's busy share since the last one, and open sessions. */
  | { type: 'load'; busy: number; sessions: number };

export const LOAD_INTERVAL_MS = 100;

/** Calls a control method by name with arguments that came over IPC. */
export function callControl(
  control: SessionControlApi,
  method: RpcMethod | ReportMethod,
  args: unknown[],
): unknown {
  // The method names and argument lists are SessionControlApi's own, sent by worker-control.ts.
  const fn = control[method] as (...a: unknown[]) => unknown;
  return fn.apply(control, args);
}

/** Either end of the IPC channel: the primary's handle on a worker, or a worker's process. */
export interface IpcEnd {
  readonly connected: boolean;
  send?(
    message: ToWorker | FromWorker,
    sendHandle?: Socket,
    options?: MessageOptions,
    callback?: (error: Error | null) => void,
  ): boolean;
}

/**
 * Sends a message to the other process, when it is still there; `onFailed` runs when it is not
 * (the handle, if any, then stays with the caller). Node reports a send that fails without a
 * callback as an 'error' event, and a process that died after the `connected` check (a worker
 * killed, the primary crashed) makes the write fail: unheard, that event ended this process,
 * so a worker's death while the primary sent it a cut took the whole gateway with it.
 */
export function sendIpc(
  end: IpcEnd,
  message: ToWorker | FromWorker,
  handle?: Socket,
  onFailed?: () => void,
): void {
  if (!end.connected || !end.send) return void onFailed?.();
  end.send(message, handle, undefined, (error) => {
    if (error) onFailed?.();
  });
}

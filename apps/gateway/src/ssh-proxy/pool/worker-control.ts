/**
 * The control calls of an SSH worker, carried to the primary over IPC: the answers come back
 * as rpc-reply, cuts as cut. The primary answers every call (its own control channel gives
 * the unreachable refusal when the server does not); a worker whose primary is gone exits.
 */
import { createCutBoard } from '../../control/cut-board';
import type { SessionControlApi } from '../../control/session-requests';
import type { FromWorker, ReportMethod, RpcMethod, ToWorker } from './protocol';

export interface WorkerControl extends SessionControlApi {
  /** A message from the primary. */
  onMessage(message: ToWorker): void;
}

export function createWorkerControl(send: (message: FromWorker) => void): WorkerControl {
  let nextId = 1;
  const waiting = new Map<number, (result: unknown) => void>();
  // Kept as the control client keeps them: the primary passes a cut on as it reads it, which
  // can be before the reply that started the session reaches this worker's session.
  const cuts = createCutBoard();

  const ask = <T>(method: RpcMethod, args: unknown[]): Promise<T> =>
    new Promise((resolve) => {
      const id = nextId++;
      waiting.set(id, (result) => resolve(result as T));
      send({ type: 'rpc', id, method, args });
    });
  const report = (method: ReportMethod, args: unknown[]): void =>
    send({ type: 'report', method, args });

  return {
    resolve: (request) => ask('resolve', [request]),
    redeem: (token, clientIp) => ask('redeem', [token, clientIp]),
    credential: (grant, username) => ask('credential', [grant, username]),
    // IPC is JSON, where an undefined in a list arrives as null: only a key that is there.
    start: (grant, clientIp, way, hostKey) =>
      ask('start', [grant, clientIp, way, ...(hostKey === undefined ? [] : [hostKey])]),
    end: (connectionId) => report('end', [connectionId]),
    alarm: (connectionId, action, command, rule) =>
      report('alarm', [connectionId, action, command, rule]),
    fileTransfer: (connectionId, way, op, filename) =>
      report('fileTransfer', [connectionId, way, op, filename]),
    onCut: (connectionId, listener) => cuts.onCut(connectionId, listener),
    onAnyCut: (listener) => cuts.onAnyCut(listener),
    onMessage(message) {
      if (message.type === 'rpc-reply') {
        const resolve = waiting.get(message.id);
        waiting.delete(message.id);
        resolve?.(message.result);
      } else if (message.type === 'cut') {
        cuts.cut(message.connectionId, message.reason, message.code);
      }
    },
  };
}

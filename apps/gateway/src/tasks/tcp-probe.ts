/** One TCP connect attempt: the building block of the scan and of reachability-only tests. */
import net from 'node:net';
import { networkReason, type FailureReason } from './reasons';

export type ProbeResult = { open: true } | { open: false; reason: FailureReason };

/** Connects to host:port and closes at once; never rejects. */
export function tcpProbe(
  host: string,
  port: number,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<ProbeResult> {
  return new Promise((resolve) => {
    if (signal?.aborted) {
      resolve({ open: false, reason: 'error' });
      return;
    }
    const socket = net.connect({ host, port });
    let settled = false;
    const finish = (result: ProbeResult): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      socket.destroy();
      resolve(result);
    };
    const onAbort = (): void => finish({ open: false, reason: 'error' });
    const timer = setTimeout(() => finish({ open: false, reason: 'timeout' }), timeoutMs);
    signal?.addEventListener('abort', onAbort, { once: true });
    socket.once('connect', () => finish({ open: true }));
    socket.once('error', (err) => finish({ open: false, reason: networkReason(err) ?? 'error' }));
  });
}

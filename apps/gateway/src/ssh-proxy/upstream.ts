/**
 * The gateway's connection to the target sshd, with the credential fetched for this one session.
 * The credential lives in memory for the handshake only and is never written anywhere. The
 * target's host key is checked against the one pinned for the resource (its first session's,
 * which the server keeps): another key ends the handshake before any credential is sent.
 */
import type { Client } from 'ssh2';
import { formatError } from '@portcullis/contract';
import ssh2 from './ssh2';
import type { SessionCredential, SessionRefusal } from '../control/protocol';
import { pinnedHostVerifier } from '../core/host-key-pin';
import type { Logger } from '../core/logger';
import { shareTheLoop, socketOf } from './fair-read';

const READY_TIMEOUT_MS = 20_000;

/** The target showed a host key other than the pinned one. */
export class HostKeyChangedError extends Error {
  readonly code = 'HostKeyChanged';
  constructor(
    readonly pinned: string,
    readonly seen: string,
  ) {
    super(`host key ${seen} is not the pinned ${pinned}`);
  }
}

/** The fingerprint each open connection's target showed (for the server to pin). */
const seenHostKeys = new WeakMap<Client, string>();

/** The host key fingerprint the target of this connection showed. */
export function seenHostKey(client: Client): string | undefined {
  return seenHostKeys.get(client);
}

/** Opens an authenticated SSH connection to the target; rejects with the reason. */
export function connectUpstream(credential: SessionCredential): Promise<Client> {
  return new Promise((resolve, reject) => {
    const client = new ssh2.Client();
    let changed: HostKeyChangedError | undefined;
    const fail = (err: Error) => {
      client.end();
      reject(changed ?? err);
    };
    client.once('ready', () => {
      client.removeListener('error', fail);
      // A later failure (the target resets the connection, stops answering keepalives) ends
      // it, and the 'close' that follows ends the session. Unheard, the error would end the
      // gateway's process: every session of every member.
      client.on('error', () => client.end());
      const socket = socketOf(client);
      if (socket) shareTheLoop(socket);
      resolve(client);
    });
    client.once('error', fail);
    client.connect({
      host: credential.host,
      port: credential.port,
      username: credential.username,
      ...(credential.password !== undefined && { password: credential.password }),
      ...(credential.private_key !== undefined && { privateKey: credential.private_key }),
      readyTimeout: READY_TIMEOUT_MS,
      keepaliveInterval: 30_000,
      // Only the one method the credential is for: no agent, no keyboard prompts.
      tryKeyboard: false,
      // Runs before authentication: refusing here ends the handshake with nothing sent.
      hostVerifier: pinnedHostVerifier(credential.host_key, (seen, matches) => {
        seenHostKeys.set(client, seen);
        if (!matches) changed = new HostKeyChangedError(credential.host_key ?? '', seen);
      }),
    });
    // Keystrokes and their echo are single small packets: Nagle would hold one back until the
    // previous one is acknowledged (up to a delayed-ACK timeout). ssh2 does not turn it off.
    client.setNoDelay(true);
  });
}

/** The target answered but refused the credential (a wrong password, an unknown key). */
export function refusedCredential(err: unknown): boolean {
  return (err as { level?: string }).level === 'client-authentication';
}

/** Logs a failed target login; a changed host key with both fingerprints (neither is secret). */
export function logTargetLoginFailed(
  logger: Logger,
  clientIp: string,
  resourceId: number,
  err: unknown,
): void {
  const reason = upstreamReason(err);
  const fields = { ip: clientIp, resource_id: resourceId, reason };
  if (err instanceof HostKeyChangedError) {
    logger.warn({ ...fields, pinned: err.pinned, seen: err.seen }, 'target host key changed');
  } else logger.warn(fields, 'target login failed');
}

/** What the member is told when the target login failed (the catalogue's code and text). */
export function upstreamRefusal(err: unknown): SessionRefusal {
  if (err instanceof HostKeyChangedError) {
    return { code: 'HostKeyChanged', message: formatError('HostKeyChanged', 'en_US') };
  }
  return { code: 'InvalidResource', message: `The resource refused: ${upstreamReason(err)}` };
}

/** A short word for why the target refused or failed, safe to show and log. */
export function upstreamReason(err: unknown): string {
  const e = err as { level?: string; code?: string; message?: string };
  if (err instanceof HostKeyChangedError) return 'the server showed another host key';
  if (refusedCredential(err)) return 'the server refused the login credential';
  if (e.level === 'client-timeout') return 'the server did not answer in time';
  if (e.code === 'ECONNREFUSED') return 'the server refused the connection';
  if (e.code === 'EHOSTUNREACH' || e.code === 'ENETUNREACH') return 'the server is unreachable';
  return 'the server could not be reached';
}

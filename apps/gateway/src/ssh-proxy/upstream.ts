/**
 * The gateway's connection to the target sshd, with the credential fetched for this one session.
 * The credential lives in memory for the handshake only and is never written anywhere.
 * Limits: the target's host key is not pinned yet (the resource has no known host key to check
 * against); the gateway talks to the address the administrator registered.
 */
import type { Client } from 'ssh2';
import ssh2 from './ssh2';
import type { SessionCredential } from '../control/protocol';
import { shareTheLoop, socketOf } from './fair-read';

const READY_TIMEOUT_MS = 20_000;

/** Opens an authenticated SSH connection to the target; rejects with the reason. */
export function connectUpstream(credential: SessionCredential): Promise<Client> {
  return new Promise((resolve, reject) => {
    const client = new ssh2.Client();
    const fail = (err: Error) => {
      client.end();
      reject(err);
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

/** A short word for why the target refused or failed, safe to show and log. */
export function upstreamReason(err: unknown): string {
  const e = err as { level?: string; code?: string; message?: string };
  if (refusedCredential(err)) return 'the server refused the login credential';
  if (e.level === 'client-timeout') return 'the server did not answer in time';
  if (e.code === 'ECONNREFUSED') return 'the server refused the connection';
  if (e.code === 'EHOSTUNREACH' || e.code === 'ENETUNREACH') return 'the server is unreachable';
  return 'the server could not be reached';
}

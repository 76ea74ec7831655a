/**
 * One SSH login for the key tasks: by password (with keyboard-interactive as a fallback for
 * PAM-only servers) or by private key, giving back a ready client or a fixed reason word.
 * A target whose host key is not the one pinned for the resource (at its first session) is
 * refused before the password or key is sent (host_key_changed), as a session would be.
 */
import type { AnyAuthMethod, Client } from 'ssh2';
import ssh2 from '../ssh-proxy/ssh2';
import type { SshLogin } from '../control/protocol';
import { pinnedHostVerifier } from '../core/host-key-pin';
import { networkReason, type FailureReason } from './reasons';

const { Client: SshClient, utils: sshUtils } = ssh2;

export type SshCredential = { password: string } | { privateKey: string };

export type SshLoginResult = { client: Client } | { reason: FailureReason };

/** True when ssh2 can read the text as a private key (without a passphrase). */
export function readablePrivateKey(text: string): boolean {
  return !(sshUtils.parseKey(text) instanceof Error);
}

function authMethods(username: string, credential: SshCredential): AnyAuthMethod[] {
  if ('privateKey' in credential) {
    return [{ type: 'publickey', username, key: credential.privateKey }];
  }
  const { password } = credential;
  return [
    { type: 'password', username, password },
    {
      type: 'keyboard-interactive',
      username,
      prompt: (_name, _instructions, _lang, prompts, finish) => finish(prompts.map(() => password)),
    },
  ];
}

/** Logs in; resolves with the ready client (the caller ends it) or why it could not. */
export function sshLogin(
  login: SshLogin,
  credential: SshCredential,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<SshLoginResult> {
  const client = new SshClient();
  return new Promise<SshLoginResult>((resolve) => {
    let settled = false;
    const finish = (result: SshLoginResult): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      if ('reason' in result) client.destroy();
      resolve(result);
    };
    const timer = setTimeout(() => finish({ reason: 'timeout' }), timeoutMs);
    const onAbort = (): void => finish({ reason: 'error' });
    if (signal?.aborted) return onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    client.on('ready', () => finish({ client }));
    client.on('error', (err: Error & { level?: string }) => {
      if (err.level === 'client-authentication') finish({ reason: 'auth_failed' });
      else if (err.level === 'client-timeout') finish({ reason: 'timeout' });
      else finish({ reason: networkReason(err) ?? 'protocol_error' });
    });
    client.on('close', () => finish({ reason: 'protocol_error' }));
    client.connect({
      host: login.host,
      port: login.port,
      username: login.username,
      authHandler: authMethods(login.username, credential),
      readyTimeout: timeoutMs + 1000,
      hostVerifier: pinnedHostVerifier(login.host_key, (_seen, matches) => {
        if (!matches) finish({ reason: 'host_key_changed' });
      }),
    });
  });
}

/**
 * Runs one command and resolves with its exit code (null when the server sent none, or the
 * command did not finish in time). Output is read and dropped: it is the target's text, and
 * nothing of it is logged or sent back.
 */
export function sshExec(
  client: Client,
  command: string,
  timeoutMs: number,
): Promise<number | null> {
  return new Promise((resolve) => {
    let code: number | null = null;
    const timer = setTimeout(() => resolve(null), timeoutMs);
    client.exec(command, (err, stream) => {
      if (err) {
        clearTimeout(timer);
        return resolve(null);
      }
      stream.on('exit', (exitCode: number | null) => {
        code = typeof exitCode === 'number' ? exitCode : null;
      });
      stream.on('data', () => undefined);
      stream.stderr.on('data', () => undefined);
      stream.on('close', () => {
        clearTimeout(timer);
        resolve(code);
      });
    });
  });
}

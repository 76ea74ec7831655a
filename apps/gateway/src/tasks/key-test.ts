/**
 * Key test (spec 2 §7 `/resource/{id}/test_autologin`): log in to the account with the
 * resource's private key, and nothing else. Success is the server accepting the key.
 */
import type { SshLogin } from '../control/protocol';
import type { FailureReason } from './reasons';
import { KEY_TASK_TIMEOUT_MS, type KeyTaskOptions, type KeyTaskResult } from './key-upload';
import { readablePrivateKey, sshLogin } from './ssh-login';

export interface KeyTestInput {
  target: SshLogin & { private_key: string };
}

/** Runs one key test; never rejects. */
export async function runKeyTest(
  input: KeyTestInput,
  options: KeyTaskOptions = {},
): Promise<KeyTaskResult<FailureReason>> {
  const { private_key: privateKey, ...login } = input.target;
  if (!readablePrivateKey(privateKey)) return { ok: false, reason: 'bad_key' };
  const result = await sshLogin(
    login,
    { privateKey },
    options.timeoutMs ?? KEY_TASK_TIMEOUT_MS,
    options.signal,
  );
  if ('reason' in result) return { ok: false, reason: result.reason };
  result.client.end();
  return { ok: true, reason: '' };
}

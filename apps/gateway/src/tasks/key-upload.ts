/**
 * Key upload (spec 2 §7 `/resource/{id}/autologin`): with the account's password, given once,
 * the gateway logs in, adds the resource's own public key to the account's
 * ~/.ssh/authorized_keys, and then proves that the key logs in.
 *
 * What runs on the target is a fixed script: the only value in it is the public key line,
 * which the contract's pattern limits to `ssh-ed25519 <base64> <comment word>` (no quote, no
 * `$`, no backslash), so it cannot change the script's meaning. The script creates ~/.ssh
 * (700) and authorized_keys (600) when missing, leaves other lines alone, never adds the same
 * line twice, and starts a new line when the file does not end with one.
 *
 * Limits: a server whose sshd reads keys from elsewhere (AuthorizedKeysFile), or refuses the
 * file's permissions (StrictModes), gets the key written but answers `key_refused`. An account
 * without a POSIX shell (nologin) answers `upload_failed`.
 */
import type { SshLogin } from '../control/protocol';
import type { FailureReason } from './reasons';
import { readablePrivateKey, sshExec, sshLogin } from './ssh-login';

export const KEY_TASK_TIMEOUT_MS = 10_000;

/** The reasons of a key upload: a login's, or one of the upload's own steps. */
export type KeyUploadReason = FailureReason | 'upload_failed' | 'key_refused';

export interface KeyUploadInput {
  target: SshLogin & { password: string; private_key: string };
  public_key: string;
}

export interface KeyTaskOptions {
  /** Each login and the upload command give up after this long (default 10 s). */
  timeoutMs?: number;
  signal?: AbortSignal;
}

export interface KeyTaskResult<R extends string = KeyUploadReason> {
  ok: boolean;
  reason: R | '';
}

/** The authorized_keys line shape the contract allows; checked again before any use. */
const KEY_LINE = /^ssh-ed25519 [A-Za-z0-9+/]+={0,2} [A-Za-z0-9@._-]{1,64}$/;

/** The command that adds `keyLine` to the login's authorized_keys (POSIX sh, no `'` inside). */
export function uploadCommand(keyLine: string): string {
  if (!KEY_LINE.test(keyLine)) throw new TypeError('not an ed25519 authorized_keys line');
  const script = [
    'umask 077',
    `key="${keyLine}"`,
    '[ -n "${HOME:-}" ] || exit 10',
    'd="$HOME/.ssh"',
    'f="$d/authorized_keys"',
    '[ -d "$d" ] || mkdir -m 700 "$d" || exit 11',
    'if [ ! -e "$f" ]; then : > "$f" && chmod 600 "$f" || exit 12; fi',
    'grep -qxF "$key" "$f" && exit 0',
    'if [ -s "$f" ] && [ -n "$(tail -c 1 "$f")" ]; then printf "\\n" >> "$f" || exit 13; fi',
    'printf "%s\\n" "$key" >> "$f" || exit 13',
  ].join('\n');
  return `sh -c '${script}'`;
}

/** Runs one key upload; never rejects. The password is used for the first login only. */
export async function runKeyUpload(
  input: KeyUploadInput,
  options: KeyTaskOptions = {},
): Promise<KeyTaskResult> {
  const timeoutMs = options.timeoutMs ?? KEY_TASK_TIMEOUT_MS;
  const { password, private_key: privateKey, ...login } = input.target;
  if (!KEY_LINE.test(input.public_key) || !readablePrivateKey(privateKey)) {
    return { ok: false, reason: 'bad_key' };
  }

  const first = await sshLogin(login, { password }, timeoutMs, options.signal);
  if ('reason' in first) return { ok: false, reason: first.reason };
  let code: number | null;
  try {
    code = await sshExec(first.client, uploadCommand(input.public_key), timeoutMs);
  } finally {
    first.client.end();
  }
  if (code !== 0) return { ok: false, reason: 'upload_failed' };

  const proof = await sshLogin(login, { privateKey }, timeoutMs, options.signal);
  if ('reason' in proof) {
    return { ok: false, reason: proof.reason === 'auth_failed' ? 'key_refused' : proof.reason };
  }
  proof.client.end();
  return { ok: true, reason: '' };
}

/**
 * SSH host key pinning for every login the gateway makes to a target sshd (sessions and the
 * key and connectivity tasks): the key's fingerprint as `ssh-keygen -lf` prints it, checked
 * against the one the server pinned for the resource. ssh2 asks before authentication, so a
 * refusal here ends the handshake before any password or key is sent.
 */
import { createHash } from 'node:crypto';

/** A host key's fingerprint: `SHA256:` and the digest of the key blob in unpadded base64. */
export function hostKeyFingerprint(key: Buffer): string {
  return `SHA256:${createHash('sha256').update(key).digest('base64').replace(/=+$/, '')}`;
}

/**
 * ssh2's hostVerifier for a target with `pinned` (undefined: none yet, any key is taken).
 * `onSeen` hears every key shown, and whether it matched.
 */
export function pinnedHostVerifier(
  pinned: string | undefined,
  onSeen?: (fingerprint: string, matches: boolean) => void,
): (key: Buffer) => boolean {
  return (key) => {
    const seen = hostKeyFingerprint(key);
    const matches = pinned === undefined || pinned === seen;
    onSeen?.(seen, matches);
    return matches;
  };
}

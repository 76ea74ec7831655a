/**
 * OpenSSH public keys: parsed by ssh2 (the same library the gateway authenticates with), so a
 * key accepted here is one the gateway can match. Stored as `type base64` with its SHA256
 * fingerprint in OpenSSH's own notation.
 */
import crypto from 'node:crypto';
import ssh2 from 'ssh2';

const { utils } = ssh2;
import { AppError } from '../../lib/app-error';

export interface ParsedPublicKey {
  type: string;
  normalized: string;
  fingerprint: string;
}

/** Reads one `authorized_keys`-style line: `type base64 [comment]`. */
export function parsePublicKey(text: string): ParsedPublicKey {
  const line = text.trim();
  if (/PRIVATE KEY/.test(line) || line.split(/\r?\n/).length > 1) {
    throw new AppError('AccountPubKeyError');
  }
  const parsed = utils.parseKey(line);
  if (parsed instanceof Error || Array.isArray(parsed) || parsed.isPrivateKey()) {
    throw new AppError('AccountPubKeyError');
  }
  const blob = parsed.getPublicSSH();
  // ssh2 ignores bytes after the key inside the blob; OpenSSH refuses them, and so do we.
  const given = line.split(/\s+/)[1] ?? '';
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(given) || !Buffer.from(given, 'base64').equals(blob)) {
    throw new AppError('AccountPubKeyError');
  }
  const fingerprint = `SHA256:${crypto.createHash('sha256').update(blob).digest('base64').replace(/=+$/, '')}`;
  return {
    type: parsed.type,
    normalized: `${parsed.type} ${blob.toString('base64')}`,
    fingerprint,
  };
}

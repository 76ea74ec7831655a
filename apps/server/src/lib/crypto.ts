/**
 * Secrets: random tokens from the CSPRNG, hashes for tokens at rest, constant-time compares,
 * and AES-256-GCM for credentials at rest under the master key.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export function randomToken(bytes = 32): string {
  return crypto.randomBytes(bytes).toString('base64url');
}

export function sha256Hex(value: string): string {
  return crypto.createHash('sha256').update(value).digest('hex');
}

export function safeEqual(a: string, b: string): boolean {
  const ha = crypto.createHash('sha256').update(a).digest();
  const hb = crypto.createHash('sha256').update(b).digest();
  return crypto.timingSafeEqual(ha, hb);
}

/** A random decimal code of `digits` digits, uniformly drawn. */
export function randomDigits(digits: number): string {
  return String(crypto.randomInt(0, 10 ** digits)).padStart(digits, '0');
}

export interface Sealer {
  seal(plaintext: string): string;
  open(sealed: string): string;
}

/**
 * The master key comes from PORTCULLIS_MASTER_KEY, or is generated once into
 * `<dataDir>/master.key` (mode 0600). Losing it makes stored credentials unreadable.
 */
export function loadMasterKey(configured: string | null, dataDir: string): Buffer {
  if (configured) {
    const key = Buffer.from(configured, 'base64');
    if (key.length !== 32) throw new Error('PORTCULLIS_MASTER_KEY must be base64 of 32 bytes');
    return key;
  }
  const file = path.join(dataDir, 'master.key');
  if (fs.existsSync(file)) {
    const key = Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64');
    if (key.length !== 32) throw new Error(`${file} does not hold a 32-byte key`);
    return key;
  }
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const key = crypto.randomBytes(32);
  fs.writeFileSync(file, key.toString('base64'), { mode: 0o600, flag: 'wx' });
  return key;
}

/** `v1.<iv>.<tag>.<ciphertext>`, each part base64url. */
export function createSealer(key: Buffer): Sealer {
  return {
    seal(plaintext) {
      const iv = crypto.randomBytes(12);
      const cipher = crypto.createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      const tag = cipher.getAuthTag();
      return ['v1', iv, tag, body]
        .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
        .join('.');
    },
    open(sealed) {
      const [version, iv, tag, body] = sealed.split('.');
      if (version !== 'v1' || !iv || !tag || body === undefined)
        throw new Error('unreadable sealed value');
      const decipher = crypto.createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([
        decipher.update(Buffer.from(body, 'base64url')),
        decipher.final(),
      ]).toString('utf8');
    },
  };
}

/**
 * TOTP (RFC 6238) over HOTP (RFC 4226): HMAC-SHA1, 30-second steps, 6 digits — what every
 * authenticator app computes. Secrets travel as RFC 4648 base32.
 */
import crypto from 'node:crypto';
import { MFA_CODE_LENGTH, MFA_STEP_SECONDS } from '@portcullis/contract';

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

export function base32Encode(bytes: Buffer): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

export function base32Decode(text: string): Buffer {
  const clean = text.replace(/[\s=]/g, '').toUpperCase();
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const ch of clean) {
    const idx = BASE32.indexOf(ch);
    if (idx < 0) throw new Error('invalid base32');
    value = (value << 5) | idx;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** A new 160-bit secret, as RFC 4226 recommends. */
export function newTotpSecret(): string {
  return base32Encode(crypto.randomBytes(20));
}

export function hotp(secret: Buffer, counter: number, digits = MFA_CODE_LENGTH): string {
  const msg = Buffer.alloc(8);
  msg.writeBigUInt64BE(BigInt(counter));
  const mac = crypto.createHmac('sha1', secret).update(msg).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const binary = (mac.readUInt32BE(offset) & 0x7fffffff) % 10 ** digits;
  return String(binary).padStart(digits, '0');
}

export function totpStep(epochSeconds: number): number {
  return Math.floor(epochSeconds / MFA_STEP_SECONDS);
}

export function totpAt(secretBase32: string, step: number): string {
  return hotp(base32Decode(secretBase32), step);
}

/**
 * The step (within ±`window` of now) whose code matches, or null. Compares every candidate
 * so timing does not reveal which step matched.
 */
export function matchTotp(
  secretBase32: string,
  code: string,
  nowSec: number,
  window = 1,
): number | null {
  if (!new RegExp(`^\\d{${MFA_CODE_LENGTH}}$`).test(code)) return null;
  const current = totpStep(nowSec);
  const given = Buffer.from(code);
  let found: number | null = null;
  for (let s = current - window; s <= current + window; s++) {
    if (crypto.timingSafeEqual(Buffer.from(totpAt(secretBase32, s)), given)) found ??= s;
  }
  return found;
}

/**
 * Binding needs two consecutive codes (spec 1 §5): `first` at step s and `second` at s+1, with
 * s+1 no later than one step ahead of now and s no more than a few steps old.
 */
export function matchConsecutive(
  secretBase32: string,
  first: string,
  second: string,
  nowSec: number,
): number | null {
  const current = totpStep(nowSec);
  for (let s = current - 3; s <= current; s++) {
    if (totpAt(secretBase32, s) === first && totpAt(secretBase32, s + 1) === second) return s + 1;
  }
  return null;
}

export function otpauthUri(secretBase32: string, issuer: string, account: string): string {
  const label = encodeURIComponent(`${issuer}:${account}`);
  const params = new URLSearchParams({
    secret: secretBase32,
    issuer,
    algorithm: 'SHA1',
    digits: '6',
    period: '30',
  });
  return `otpauth://totp/${label}?${params.toString()}`;
}

/**
 * TOTP as every authenticator app computes it: the RFC 6238 and RFC 4226 test vectors, base32
 * secrets (RFC 4648), and the ±1 step window and two-consecutive-codes rule of binding.
 */
import { describe, expect, it } from 'vitest';
import {
  base32Decode,
  base32Encode,
  hotp,
  matchConsecutive,
  matchTotp,
  newTotpSecret,
  otpauthUri,
  totpAt,
  totpStep,
} from './totp';

const RFC_SECRET = Buffer.from('12345678901234567890', 'ascii');

describe('hotp and totp', () => {
  it('gives the RFC 6238 Appendix B SHA1 values (8 digits)', () => {
    const vectors: [number, string][] = [
      [59, '94287082'],
      [1111111109, '07081804'],
      [1111111111, '14050471'],
      [1234567890, '89005924'],
      [2000000000, '69279037'],
      [20000000000, '65353130'],
    ];
    for (const [time, code] of vectors) {
      expect(hotp(RFC_SECRET, totpStep(time), 8), String(time)).toBe(code);
    }
  });

  it('gives the RFC 4226 Appendix D values (6 digits, the default)', () => {
    const expected = [
      '755224',
      '287082',
      '359152',
      '969429',
      '338314',
      '254676',
      '287922',
      '162583',
      '399871',
      '520489',
    ];
    expected.forEach((code, counter) => expect(hotp(RFC_SECRET, counter)).toBe(code));
  });

  it('steps every 30 seconds', () => {
    expect(totpStep(0)).toBe(0);
    expect(totpStep(29)).toBe(0);
    expect(totpStep(30)).toBe(1);
    expect(totpStep(1111111109)).toBe(0x23523ec);
  });
});

describe('base32', () => {
  it('encodes the RFC 4648 test vectors without padding', () => {
    const vectors: [string, string][] = [
      ['', ''],
      ['f', 'MY'],
      ['fo', 'MZXQ'],
      ['foo', 'MZXW6'],
      ['foob', 'MZXW6YQ'],
      ['fooba', 'MZXW6YTB'],
      ['foobar', 'MZXW6YTBOI'],
    ];
    for (const [plain, encoded] of vectors) {
      expect(base32Encode(Buffer.from(plain))).toBe(encoded);
      expect(base32Decode(encoded).toString()).toBe(plain);
    }
  });

  it('round-trips any bytes, and reads lower case, spaces and padding as apps show them', () => {
    for (let n = 0; n < 40; n++) {
      const bytes = Buffer.from(Array.from({ length: n }, (_, i) => (i * 37 + n) & 255));
      expect(base32Decode(base32Encode(bytes)).equals(bytes)).toBe(true);
    }
    expect(base32Decode('mzxw 6ytb oi======').toString()).toBe('foobar');
    expect(() => base32Decode('MZXW1')).toThrow();
  });

  it('makes 160-bit secrets that differ each time', () => {
    const a = newTotpSecret();
    expect(a).toMatch(/^[A-Z2-7]{32}$/);
    expect(base32Decode(a)).toHaveLength(20);
    expect(newTotpSecret()).not.toBe(a);
  });

  it('describes the secret in an otpauth URI authenticator apps read', () => {
    const uri = new URL(otpauthUri('JBSWY3DPEHPK3PXP', 'Portcullis', 'me@demo.local (demo)'));
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.host).toBe('totp');
    expect(decodeURIComponent(uri.pathname)).toBe('/Portcullis:me@demo.local (demo)');
    expect(Object.fromEntries(uri.searchParams)).toEqual({
      secret: 'JBSWY3DPEHPK3PXP',
      issuer: 'Portcullis',
      algorithm: 'SHA1',
      digits: '6',
      period: '30',
    });
  });
});

describe('matching codes', () => {
  const secret = base32Encode(RFC_SECRET);
  const now = 1_700_000_000;
  const step = totpStep(now);

  it('accepts the code of the current step and of one step either side, returning that step', () => {
    expect(matchTotp(secret, totpAt(secret, step), now)).toBe(step);
    expect(matchTotp(secret, totpAt(secret, step - 1), now)).toBe(step - 1);
    expect(matchTotp(secret, totpAt(secret, step + 1), now)).toBe(step + 1);
  });

  it('refuses codes two steps away, and wrong or malformed codes', () => {
    expect(matchTotp(secret, totpAt(secret, step - 2), now)).toBeNull();
    expect(matchTotp(secret, totpAt(secret, step + 2), now)).toBeNull();
    const right = totpAt(secret, step);
    const wrong = String((Number(right) + 1) % 1_000_000).padStart(6, '0');
    expect(matchTotp(secret, wrong, now)).toBeNull();
    expect(matchTotp(secret, '', now)).toBeNull();
    expect(matchTotp(secret, right.slice(0, 5), now)).toBeNull();
  });

  it('widens or narrows with the window argument', () => {
    expect(matchTotp(secret, totpAt(secret, step - 2), now, 2)).toBe(step - 2);
    expect(matchTotp(secret, totpAt(secret, step - 1), now, 0)).toBeNull();
  });

  it('matches the same code as an authenticator computing from the base32 text', () => {
    // JBSWY3DPEHPK3PXP is the secret of many authenticator examples: "Hello!\xDE\xAD\xBE\xEF".
    expect(base32Decode('JBSWY3DPEHPK3PXP').toString('hex')).toBe('48656c6c6f21deadbeef');
    expect(totpAt('JBSWY3DPEHPK3PXP', 0)).toBe(hotp(Buffer.from('48656c6c6f21deadbeef', 'hex'), 0));
  });

  it('binds with two consecutive codes, returning the later step', () => {
    const first = totpAt(secret, step - 1);
    const second = totpAt(secret, step);
    expect(matchConsecutive(secret, first, second, now)).toBe(step);
    // Codes read off just now and the next one the app shows.
    expect(matchConsecutive(secret, totpAt(secret, step), totpAt(secret, step + 1), now)).toBe(
      step + 1,
    );
  });

  it('refuses codes that are not consecutive, reversed, repeated or too old', () => {
    expect(
      matchConsecutive(secret, totpAt(secret, step - 2), totpAt(secret, step), now),
    ).toBeNull();
    expect(
      matchConsecutive(secret, totpAt(secret, step), totpAt(secret, step - 1), now),
    ).toBeNull();
    expect(matchConsecutive(secret, totpAt(secret, step), totpAt(secret, step), now)).toBeNull();
    expect(
      matchConsecutive(secret, totpAt(secret, step - 5), totpAt(secret, step - 4), now),
    ).toBeNull();
    expect(
      matchConsecutive(secret, totpAt(secret, step + 1), totpAt(secret, step + 2), now),
    ).toBeNull();
  });
});

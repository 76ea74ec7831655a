/**
 * Code values: drawn from the CSPRNG (20 characters of a 32-letter alphabet, 100 bits), stored
 * sealed for their owner and as a SHA-256 for the gateway's look-up, never in clear.
 */
import crypto from 'node:crypto';
import { CODE_ALPHABET, CODE_LENGTH } from '@portcullis/contract';
import type { AppContext } from '../../context';
import { sha256Hex } from '../../lib/crypto';

/** The columns a new code is stored in; the value itself is not one of them. */
export interface StoredCode {
  code_hash: string;
  code_sealed: string;
}

export function newCode(ctx: AppContext): StoredCode {
  const code = Array.from(
    { length: CODE_LENGTH },
    () => CODE_ALPHABET[crypto.randomInt(CODE_ALPHABET.length)],
  ).join('');
  return { code_hash: codeHash(code), code_sealed: ctx.sealer.seal(code) };
}

export function codeHash(code: string): string {
  return sha256Hex(`portcullis-code:${code}`);
}

/**
 * Key login through the gateway: the client proved it holds the key (the gateway checked the
 * signature); here the server checks the key is one of the code owner's personal SSH keys and
 * records when it last verified (account_pubkey.last_time).
 */
import crypto from 'node:crypto';
import type { ResolvedCode } from '@portcullis/contract';
import type { AppContext } from '../../context';
import { AppError } from '../../lib/app-error';
import { nowSeconds } from '../../lib/time';

/** OpenSSH's SHA256 fingerprint of a `type base64` public key line, or null if unreadable. */
export function fingerprintOf(line: string): string | null {
  const base64 = line.trim().split(/\s+/)[1] ?? '';
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(base64)) return null;
  const blob = Buffer.from(base64, 'base64');
  return `SHA256:${crypto.createHash('sha256').update(blob).digest('base64').replace(/=+$/, '')}`;
}

export async function checkMemberKey(
  ctx: AppContext,
  resolved: ResolvedCode,
  publicKey: string,
): Promise<void> {
  const fingerprint = fingerprintOf(publicKey);
  if (!fingerprint) throw new AppError('AccountPubKeyError');
  const key = await ctx.db
    .selectFrom('account_pubkey')
    .select('id')
    .where('account_id', '=', resolved.account.id)
    .where('company_id', '=', resolved.company_id)
    .where('fingerprint', '=', fingerprint)
    .executeTakeFirst();
  if (!key) throw new AppError('AccountPubKeyNotFound');
  await ctx.db
    .updateTable('account_pubkey')
    .set({ last_time: nowSeconds() })
    .where('id', '=', key.id)
    .execute();
}

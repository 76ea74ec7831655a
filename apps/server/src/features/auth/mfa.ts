/**
 * Virtual MFA: the TOTP secret is sealed at rest; a pending secret exists only while binding.
 * A code is accepted once (its step must be newer than the last accepted one). An account with
 * MFA bound gets no new secret (MfaAlreadyBound): replacing the device means unbinding first,
 * with two codes of the bound secret (refused in a team that requires MFA), or an
 * administrator's reset.
 */
import QRCode from 'qrcode';
import type { AppContext } from '../../context';
import type { AccountRow } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { nowSeconds } from '../../lib/time';
import { matchConsecutive, matchTotp, newTotpSecret, otpauthUri } from '../../lib/totp';
import type { AuthContext } from '../../plugins/app/auth';
import { loginKey, recordFailure, isLocked, clearFailures } from './lockout';

const ISSUER = 'Portcullis';

function label(auth: AuthContext): string {
  return `${auth.account.account} (${auth.company.domain})`;
}

/** The secret being bound, made on first request and kept until binding succeeds. */
export async function pendingSecret(
  ctx: AppContext,
  auth: AuthContext,
): Promise<{ secret: string; issuer: string; account: string }> {
  if (auth.account.otp_enabled) throw new AppError('MfaAlreadyBound');
  let secret: string;
  if (auth.account.otp_pending_secret) {
    secret = ctx.sealer.open(auth.account.otp_pending_secret);
  } else {
    secret = newTotpSecret();
    const sealed = ctx.sealer.seal(secret);
    await ctx.db
      .updateTable('account')
      .set({ otp_pending_secret: sealed })
      .where('id', '=', auth.account.id)
      .execute();
    auth.account.otp_pending_secret = sealed;
  }
  return { secret, issuer: ISSUER, account: label(auth) };
}

/** The pending secret as a 150 px QR code, error level L (spec 2 §9). */
export async function pendingSecretQr(ctx: AppContext, auth: AuthContext): Promise<Buffer> {
  const { secret } = await pendingSecret(ctx, auth);
  return QRCode.toBuffer(otpauthUri(secret, ISSUER, label(auth)), {
    errorCorrectionLevel: 'L',
    width: 150,
    margin: 1,
  });
}

async function acceptStep(ctx: AppContext, account: AccountRow, step: number): Promise<void> {
  await ctx.db
    .updateTable('account')
    .set({ otp_last_step: step })
    .where('id', '=', account.id)
    .execute();
  account.otp_last_step = step;
}

/**
 * Checks a login code. Wrong codes count toward the same lockout as wrong passwords, so the
 * six digits cannot be guessed at leisure.
 */
export async function verifyLoginCode(
  ctx: AppContext,
  auth: AuthContext,
  code: string,
  ip: string,
): Promise<void> {
  const key = loginKey(auth.company.domain, auth.account.account);
  if (await isLocked(ctx, key)) throw new AppError('AccountLocked');
  const secret = auth.account.otp_secret ? ctx.sealer.open(auth.account.otp_secret) : null;
  const step = secret ? matchTotp(secret, code, nowSeconds()) : null;
  if (step === null || step <= auth.account.otp_last_step) {
    await recordFailure(ctx, key, ip);
    throw new AppError((await isLocked(ctx, key)) ? 'AccountLocked' : 'MfaCodeError');
  }
  await clearFailures(ctx, key);
  await acceptStep(ctx, auth.account, step);
}

/**
 * Opens the MFA with two consecutive codes of the pending secret. Only an account without MFA:
 * a bound secret is replaced only after unbinding, which asks for two of its codes.
 */
export async function bindMfa(
  ctx: AppContext,
  auth: AuthContext,
  first: string,
  second: string,
): Promise<void> {
  if (auth.account.otp_enabled) throw new AppError('MfaAlreadyBound');
  if (!auth.account.otp_pending_secret) throw new AppError('MfaKeyError');
  const secret = ctx.sealer.open(auth.account.otp_pending_secret);
  const step = matchConsecutive(secret, first, second, nowSeconds());
  if (step === null) throw new AppError('MfaCodeError');
  const bound = await ctx.db
    .updateTable('account')
    .set({
      otp_enabled: 1,
      otp_secret: auth.account.otp_pending_secret,
      otp_pending_secret: null,
      otp_last_step: step,
    })
    .where('id', '=', auth.account.id)
    // A bind that raced another (two tabs) does not replace what the first bound.
    .where('otp_enabled', '=', 0)
    .executeTakeFirst();
  if (Number(bound.numUpdatedRows) === 0) throw new AppError('MfaAlreadyBound');
  auth.account.otp_enabled = 1;
}

/** Closes the MFA; two consecutive codes of the bound secret prove the authenticator is at hand. */
export async function unbindMfa(
  ctx: AppContext,
  auth: AuthContext,
  first: string,
  second: string,
): Promise<void> {
  if (auth.company.company_mfa === 1) throw new AppError('NeedPrivilege');
  if (!auth.account.otp_enabled || !auth.account.otp_secret) throw new AppError('MfaKeyError');
  const step = matchConsecutive(
    ctx.sealer.open(auth.account.otp_secret),
    first,
    second,
    nowSeconds(),
  );
  if (step === null || step <= auth.account.otp_last_step) throw new AppError('MfaCodeError');
  await ctx.db
    .updateTable('account')
    .set({ otp_enabled: 0, otp_secret: null, otp_pending_secret: null, otp_last_step: step })
    .where('id', '=', auth.account.id)
    .execute();
}

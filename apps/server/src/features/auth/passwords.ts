/**
 * Password hashing (argon2id with the library's recommended costs) and the rule for when a
 * signed-in member owes a password change.
 */
import { hash, verify } from '@node-rs/argon2';
import {
  FORCED_PASSWORD_CHANGE_DAYS,
  satisfiesLevel,
  passwordLevelOf,
  isPasswordLevel,
} from '@portcullis/contract';
import type { AccountRow, CompanyRow } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { nowSeconds } from '../../lib/time';

export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

// Verifying against this when the account does not exist keeps the timing the same.
const DUMMY_HASH = hash('portcullis-timing-equaliser');

export async function verifyPassword(stored: string | null, password: string): Promise<boolean> {
  if (!stored) {
    await verify(await DUMMY_HASH, password).catch(() => false);
    return false;
  }
  return verify(stored, password).catch(() => false);
}

export function teamLevel(company: CompanyRow): 0 | 1 | 2 {
  return isPasswordLevel(company.password_strength) ? company.password_strength : 0;
}

/** Throws InvalidPassword when the team's strength level refuses the password. */
export function assertStrongEnough(company: CompanyRow, password: string): void {
  if (!satisfiesLevel(password, teamLevel(company))) throw new AppError('InvalidPassword');
}

/** What to store with a new password. */
export async function passwordColumns(password: string, setByAdmin: boolean) {
  return {
    password_hash: await hashPassword(password),
    password_level: passwordLevelOf(password),
    password_changed_at: nowSeconds(),
    password_set_by_admin: setByAdmin ? 1 : 0,
  };
}

/**
 * A password change is owed when the password fails the team's level, is older than 90 days
 * under the forced-change policy, or was set by an administrator (spec 1 §2.2, §5).
 */
export function owesPasswordChange(account: AccountRow, company: CompanyRow): boolean {
  // Accounts that sign in through SSO have no password to change.
  if (account.password_hash === null) return false;
  if (account.password_level < teamLevel(company)) return true;
  if (account.password_set_by_admin) return true;
  if (company.reset_password && account.password_changed_at !== null) {
    const age = nowSeconds() - account.password_changed_at;
    if (age > FORCED_PASSWORD_CHANGE_DAYS * 86_400) return true;
  }
  return false;
}

/**
 * First run on an empty database: create the team and administrator named by
 * PORTCULLIS_TEAM / PORTCULLIS_ADMIN_EMAIL / PORTCULLIS_ADMIN_PASSWORD, or `demo`,
 * `admin@demo.local` and a random strong password that is returned (to print once), stored
 * nowhere in clear, and good for one sign-in: the administrator chooses a new one then.
 */
import crypto from 'node:crypto';
import { satisfiesLevel } from '@portcullis/contract';
import type { AppContext } from '../../context';
import { createTeam } from './teams';

export interface FirstRunResult {
  domain: string;
  adminEmail: string;
  /** Set only when the password was generated here. */
  generatedPassword: string | null;
}

/** 18 random characters from all four classes, so it meets strength level 2. */
export function generateStrongPassword(): string {
  const sets = ['ABCDEFGHJKLMNPQRSTUVWXYZ', 'abcdefghijkmnopqrstuvwxyz', '23456789', '!@#%^*-_=+'];
  for (;;) {
    const all = sets.join('');
    const chars = Array.from({ length: 18 }, () => all[crypto.randomInt(all.length)]).join('');
    if (satisfiesLevel(chars, 2) && /\d/.test(chars)) return chars;
  }
}

export async function ensureFirstTeam(ctx: AppContext): Promise<FirstRunResult | null> {
  const any = await ctx.db.selectFrom('company').select('id').limit(1).executeTakeFirst();
  if (any) return null;
  const { team, adminEmail, adminPassword } = ctx.config.firstRun;
  const password = adminPassword ?? generateStrongPassword();
  const { account } = await createTeam(ctx, {
    domain: team,
    fullName: team,
    contactName: 'Administrator',
    contactAddress: '',
    contactPhone: '',
    email: adminEmail,
    admin: { account: adminEmail, name: 'Administrator', password },
  });
  if (!adminPassword) {
    // A generated password has been on a terminal (and in whatever keeps its output): it
    // serves for the first sign-in only, which asks for a new one (spec 1 §2.3).
    await ctx.db
      .updateTable('account')
      .set({ password_set_by_admin: 1 })
      .where('id', '=', account.id)
      .execute();
  }
  return { domain: team, adminEmail, generatedPassword: adminPassword ? null : password };
}

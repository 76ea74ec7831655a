/**
 * Password-strength rules (spec 1 §5): level 0 no rule; level 1 at least 6 characters with at
 * least two of uppercase, lowercase, special; level 2 at least 8 characters with all three.
 * The console's form rules and the server's checks both call these.
 */
import { PASSWORD_MAX, PASSWORD_MIN_LEVEL1, PASSWORD_MIN_LEVEL2 } from './constants';

export type PasswordLevel = 0 | 1 | 2;

/** Message keys in the catalogue of form messages (`messages.ts`). */
export const PASSWORD_LEVEL_MESSAGE: Record<1 | 2, 'passwordLevel1' | 'passwordLevel2'> = {
  1: 'passwordLevel1',
  2: 'passwordLevel2',
};

function classes(password: string): { upper: boolean; lower: boolean; special: boolean } {
  return {
    upper: /[A-Z]/.test(password),
    lower: /[a-z]/.test(password),
    // Anything that is neither a letter nor a digit counts as special.
    special: /[^A-Za-z0-9]/.test(password),
  };
}

export function satisfiesLevel(password: string, level: PasswordLevel): boolean {
  if (password.length === 0 || password.length > PASSWORD_MAX) return false;
  if (level === 0) return true;
  const c = classes(password);
  const count = Number(c.upper) + Number(c.lower) + Number(c.special);
  if (level === 1) return password.length >= PASSWORD_MIN_LEVEL1 && count >= 2;
  return password.length >= PASSWORD_MIN_LEVEL2 && count === 3;
}

/** The highest level a password satisfies; stored so a later policy change can be checked. */
export function passwordLevelOf(password: string): PasswordLevel {
  if (satisfiesLevel(password, 2)) return 2;
  if (satisfiesLevel(password, 1)) return 1;
  return 0;
}

export function isPasswordLevel(value: unknown): value is PasswordLevel {
  return value === 0 || value === 1 || value === 2;
}

import { describe, expect, it } from 'vitest';
import { MESSAGES } from './messages';
import {
  PASSWORD_LEVEL_MESSAGE,
  isPasswordLevel,
  passwordLevelOf,
  satisfiesLevel,
} from './password';
import { PASSWORD_MAX } from './constants';

describe('password strength levels (spec 1 §5)', () => {
  it('level 0 takes any non-empty password up to the maximum length', () => {
    for (const p of ['a', '1', ' ', 'abcdef']) expect(satisfiesLevel(p, 0), p).toBe(true);
    expect(satisfiesLevel('', 0)).toBe(false);
    expect(satisfiesLevel('a'.repeat(PASSWORD_MAX), 0)).toBe(true);
    expect(satisfiesLevel('a'.repeat(PASSWORD_MAX + 1), 0)).toBe(false);
  });

  it('level 1 needs 6 characters and two of uppercase, lowercase and special', () => {
    const cases: [string, boolean][] = [
      ['abcdef', false],
      ['ABCDEF', false],
      ['######', false],
      ['123456', false],
      ['abc123', false],
      ['abcDEF', true],
      ['abc#ef', true],
      ['ABC#EF', true],
      ['aB#', false],
      ['abcDE', false],
      ['abcde ', true],
      ['Abcdef1!', true],
    ];
    for (const [p, ok] of cases) expect(satisfiesLevel(p, 1), p).toBe(ok);
  });

  it('level 2 needs 8 characters and all three of uppercase, lowercase and special', () => {
    const cases: [string, boolean][] = [
      ['Abcdef1!', true],
      ['Abcdefg!', true],
      ['Abcde!f', false],
      ['abcdefg!1', false],
      ['ABCDEFG!1', false],
      ['Abcdefg12', false],
      ['abcDEF', false],
      ['aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaA!', true],
    ];
    for (const [p, ok] of cases) expect(satisfiesLevel(p, 2), p).toBe(ok);
    expect(satisfiesLevel(`Ab!${'c'.repeat(PASSWORD_MAX - 3)}`, 2)).toBe(true);
    expect(satisfiesLevel(`Ab!${'c'.repeat(PASSWORD_MAX - 2)}`, 2)).toBe(false);
  });

  it('reports the highest level a password meets', () => {
    expect(passwordLevelOf('abcdef')).toBe(0);
    expect(passwordLevelOf('abcDEF')).toBe(1);
    expect(passwordLevelOf('Abcde!f')).toBe(1);
    expect(passwordLevelOf('Abcdef1!')).toBe(2);
    expect(passwordLevelOf('')).toBe(0);
  });

  it('knows the levels and the message of each rule', () => {
    expect([0, 1, 2].every(isPasswordLevel)).toBe(true);
    for (const v of [3, -1, '1', null, 1.5]) expect(isPasswordLevel(v)).toBe(false);
    expect(MESSAGES[PASSWORD_LEVEL_MESSAGE[1]].en).toMatch(/at least 6 characters/);
    expect(MESSAGES[PASSWORD_LEVEL_MESSAGE[2]].en).toMatch(/at least 8 characters/);
  });
});

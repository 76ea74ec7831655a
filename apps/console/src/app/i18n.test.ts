/**
 * Every string in both languages: the two locale trees have the same keys (plural suffixes
 * aside), and every translation key written in the source exists.
 */
import { describe, expect, it } from 'vitest';
import i18next from 'i18next';
import { ERRORS, MESSAGES } from '@portcullis/contract';
import { buildResources } from './i18n';

type Tree = { [key: string]: string | Tree };

function flatten(tree: Tree, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'string' ? [`${prefix}${key}`] : flatten(value, `${prefix}${key}.`),
  );
}

const resources = buildResources();
const en = flatten(resources.en_US?.translation as Tree);
const zh = flatten(resources.zh_CN?.translation as Tree);
const base = (key: string): string => key.replace(/_(zero|one|two|few|many|other)$/, '');

const sources = import.meta.glob<string>(
  ['../**/*.{ts,tsx}', '!../**/*.test.{ts,tsx}', '!../test/**'],
  {
    eager: true,
    query: '?raw',
    import: 'default',
  },
);

describe('locales', () => {
  it('have the same keys in en_US and zh_CN', () => {
    expect([...new Set(zh.map(base))].sort()).toEqual([...new Set(en.map(base))].sort());
  });

  it('carry every error code and every spec message in both languages', () => {
    for (const code of Object.keys(ERRORS)) {
      expect(en).toContain(`errors.${code.replace(/\./g, '_')}`);
    }
    for (const key of Object.keys(MESSAGES)) expect(zh).toContain(`messages.${key}`);
  });

  it('define every key the source uses', () => {
    const known = new Set(en.map(base));
    const namespaces = Object.keys(resources.en_US?.translation as Tree).join('|');
    const pattern = new RegExp(`['\`]((?:${namespaces})\\.[A-Za-z0-9_.-]+)['\`]`, 'g');
    const missing: string[] = [];
    for (const [file, text] of Object.entries(sources)) {
      for (const match of text.matchAll(pattern)) {
        const key = match[1] ?? '';
        // Keys ending in '.' are prefixes completed at run time (checked below).
        if (!key.endsWith('.') && !known.has(key)) missing.push(`${file}: ${key}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('define the keys completed at run time', () => {
    const t = i18next.getFixedT('zh_CN');
    for (const name of ['Enterprise', 'Ultimate', 'Basic', 'Premium', 'Trial']) {
      expect(t(`shell.plan.name.${name}`)).not.toContain('shell.');
    }
    for (const kind of ['accounts', 'networks', 'resources']) {
      expect(en).toContain(`shell.quota.line.${kind}`);
    }
    for (const group of ['operation', 'configuration', 'system', 'personal']) {
      expect(en).toContain(`shell.nav.group.${group}`);
    }
    for (const role of ['ordinary', 'admin', 'auditAdmin', 'optAdmin', 'safeAdmin']) {
      expect(en).toContain(`common.role.${role}`);
    }
    for (const step of ['intro', 'bind', 'verify']) expect(en).toContain(`common.mfa.step.${step}`);
  });

  it('turn catalogue placeholders into i18next ones', () => {
    const t = i18next.getFixedT('en_US');
    expect(t('errors.InvalidParameter', { field: 'mobile' })).toBe('Invalid parameter: mobile');
    expect(i18next.getFixedT('zh_CN')('messages.loginSuccess')).toBe(MESSAGES.loginSuccess.zh);
  });
});

import { describe, expect, it } from 'vitest';
import i18next from 'i18next';
import { keyFailureText } from './KeyLogin';

describe('keyFailureText', () => {
  const t = i18next.getFixedT('en_US');

  it('adds the gateway’s reason when it has a text, and nothing for a word it has none for', () => {
    const failed = { status: 'failed', code: 'SetAutologinFailed' } as const;
    expect(keyFailureText({ ...failed, reason: 'key_refused' }, t)).toBe(
      'Failed to set up key login: the server did not accept the key after the upload',
    );
    expect(keyFailureText({ ...failed, reason: 'error' }, t)).toBe('Failed to set up key login');
    expect(keyFailureText({ ...failed, reason: '' }, t)).toBe('Failed to set up key login');
  });
});

import { describe, expect, it } from 'vitest';
import { saslprep } from './saslprep';

describe('saslprep', () => {
  it('leaves an ASCII password as it is', () => {
    expect(saslprep('Target#Secret5 ')).toBe('Target#Secret5 ');
  });

  it('drops characters mapped to nothing, spaces non-ASCII spaces and normalises (NFKC)', () => {
    expect(saslprep('pass\u00adword')).toBe('password');
    expect(saslprep('a\u00a0b\u3000c')).toBe('a b c');
    expect(saslprep('\u2168')).toBe('IX');
    expect(saslprep('密码')).toBe('密码');
  });

  it('keeps a password whose prepared form has a prohibited character as it was', () => {
    expect(saslprep('é\u0007')).toBe('é\u0007');
    expect(saslprep('é\ue000')).toBe('é\ue000');
  });
});

import { describe, expect, it } from 'vitest';
import { createPasswordPrompt } from './password-prompt';

function typed(...keys: string[]): string | undefined | 'pending' {
  let answer: string | undefined | 'pending' = 'pending';
  const prompt = createPasswordPrompt((password) => (answer = password));
  for (const key of keys) prompt.push(Buffer.from(key));
  return answer;
}

describe('the web terminal password prompt', () => {
  it('ends at Enter, with Backspace, Ctrl-U and UTF-8 as a terminal sends them', () => {
    expect(typed('pa', 'ss\r')).toBe('pass');
    expect(typed('passx\x7f\r')).toBe('pass');
    expect(typed('wrong\x15right\n')).toBe('right');
    expect(typed('密码', '\x7f码\r')).toBe('密码');
    expect(typed('half')).toBe('pending');
  });

  it('ignores arrow and function keys, and is cancelled by Ctrl-C or Ctrl-D on an empty line', () => {
    expect(typed('a\x1b[Db\x1bOPc\r')).toBe('abc');
    expect(typed('secret\x03')).toBeUndefined();
    expect(typed('\x04')).toBeUndefined();
    expect(typed('x\x04y\r')).toBe('xy');
  });

  it('answers once', () => {
    const answers: (string | undefined)[] = [];
    const prompt = createPasswordPrompt((password) => answers.push(password));
    prompt.push(Buffer.from('one\rtwo\r'));
    prompt.push(Buffer.from('three\r'));
    expect(answers).toEqual(['one']);
  });
});

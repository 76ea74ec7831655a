import { describe, expect, it } from 'vitest';
import { castSteps } from './cast-lines';

describe('castSteps', () => {
  it('draws output, follows the header and resizes, and leaves typed input out', () => {
    const cast = [
      '{"version":2,"width":120,"height":40,"timestamp":1}',
      '[0.1,"i","secret\\r"]',
      '[0.2,"o","hello\\r\\n"]',
      '[0.3,"r","90x30"]',
      '',
    ].join('\n');
    expect(castSteps(cast)).toEqual([
      { kind: 'size', cols: 120, rows: 40 },
      { kind: 'output', data: 'hello\r\n' },
      { kind: 'size', cols: 90, rows: 30 },
    ]);
  });

  it('skips lines it cannot read instead of stopping', () => {
    expect(castSteps('not json\n[0.1,"r","0x0"]\n[0.2,"o","still here"]\n')).toEqual([
      { kind: 'output', data: 'still here' },
    ]);
  });
});

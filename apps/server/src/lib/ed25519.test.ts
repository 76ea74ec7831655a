import ssh2 from 'ssh2';
import { describe, expect, it } from 'vitest';
import { newEd25519Key } from './ed25519';

describe('newEd25519Key', () => {
  it('makes only keys that ssh2 reads back, with a 32-byte public key', () => {
    // ssh2's own generator gets 1 key in 256 wrong (a public key with a leading zero byte);
    // 2,000 draws meet that case with a probability of 99.96%.
    for (let i = 0; i < 2000; i++) {
      const pair = newEd25519Key('portcullis-resource-1');
      const parsed = ssh2.utils.parseKey(pair.private);
      if (parsed instanceof Error) throw parsed;
      const blob = Buffer.from(pair.public.split(' ')[1]!, 'base64');
      expect(blob.readUInt32BE(4 + blob.readUInt32BE(0))).toBe(32);
      expect(pair.public).toMatch(/ portcullis-resource-1$/);
    }
  });
});

import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import ssh2, { poolRandomFill } from './ssh2';

describe('ssh2 with pooled padding', () => {
  it('fills exactly the bytes asked for, and never hands out the same bytes twice', () => {
    const seen = new Set<string>();
    let outside = 0;
    let repeated = 0;
    const packet = Buffer.alloc(64);
    for (let i = 0; i < 20_000; i++) {
      // ssh2's packets: payload, then 4 to 19 bytes of padding, then the tag's room.
      packet.fill(0xee);
      const padding = 4 + (i % 16);
      poolRandomFill(packet, 20, padding);
      for (let b = 0; b < 64; b++) {
        if ((b < 20 || b >= 20 + padding) && packet[b] !== 0xee) outside++;
      }
      // 16 random bytes (two packets' worth) repeating would mean the pool was reused.
      if (padding === 16) {
        const hex = packet.subarray(20, 36).toString('hex');
        if (seen.has(hex)) repeated++;
        seen.add(hex);
      }
    }
    expect(outside).toBe(0);
    expect(repeated).toBe(0);
    // 20,000 paddings span several 64 KiB pools: refilling works.
    expect(seen.size).toBe(1250);
  });

  it('looks random: every byte value turns up, none far more than the others', () => {
    const counts = new Array<number>(256).fill(0);
    const buffer = Buffer.alloc(256);
    for (let i = 0; i < 2000; i++) {
      poolRandomFill(buffer, 0, 256);
      for (const b of buffer) counts[b]!++;
    }
    // 512,000 bytes: 2,000 per value expected; a stuck or zeroed pool would be far off.
    expect(Math.min(...counts)).toBeGreaterThan(1700);
    expect(Math.max(...counts)).toBeLessThan(2300);
  });

  it('leaves large and out-of-range requests to the crypto module', () => {
    const big = poolRandomFill(Buffer.alloc(4096));
    expect(big.some((b) => b !== 0)).toBe(true);
    expect(() => poolRandomFill(Buffer.alloc(8), 4, 8)).toThrow(RangeError);
    const view = new Uint8Array(32);
    poolRandomFill(view, 8, 8);
    expect(view.subarray(0, 8).every((b) => b === 0)).toBe(true);
    expect(view.subarray(16).every((b) => b === 0)).toBe(true);
  });

  it('leaves the crypto module as it was, and is the same ssh2 as a plain import', () => {
    const require = createRequire(import.meta.url);
    expect((require('node:crypto') as typeof crypto).randomFillSync).toBe(crypto.randomFillSync);
    expect(crypto.randomFillSync).not.toBe(poolRandomFill);
    expect(ssh2).toBe(require('ssh2'));
  });

  it('is where ssh2 takes its padding from when it loads through ssh2.ts (a process of its own)', async () => {
    const script = path.join(import.meta.dirname, 'ssh2-pool-check.ts');
    const out = await new Promise<string>((resolve, reject) =>
      execFile(process.execPath, ['--import', 'tsx', script], { timeout: 30_000 }, (err, stdout) =>
        err ? reject(err) : resolve(stdout),
      ),
    );
    const { served, restored } = JSON.parse(out) as { served: number; restored: boolean };
    // A handshake's packets alone are padded with dozens of bytes.
    expect(served).toBeGreaterThan(32);
    expect(restored).toBe(true);
  });
});

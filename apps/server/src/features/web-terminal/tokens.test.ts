import { describe, expect, it } from 'vitest';
import { createWebTerminalTokens } from './tokens';

describe('web terminal tokens', () => {
  it('are random, single-use and live 60 seconds', () => {
    let now = 1_000_000;
    const tokens = createWebTerminalTokens(() => now);
    const a = tokens.issue({ tunnelId: 1, networkId: 2 });
    const b = tokens.issue({ tunnelId: 1, networkId: 2 });
    expect(a.token).not.toBe(b.token);
    expect(Buffer.from(a.token, 'base64url').length).toBeGreaterThanOrEqual(16);
    expect(a.expiresAt).toBe(now + 60_000);
    expect(tokens.redeem(a.token)).toMatchObject({ tunnelId: 1, networkId: 2 });
    expect(tokens.redeem(a.token)).toBeNull();
    now += 60_000;
    expect(tokens.redeem(b.token)).toBeNull();
    expect(tokens.redeem('unknown')).toBeNull();
  });
});

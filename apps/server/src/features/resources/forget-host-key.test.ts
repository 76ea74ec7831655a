/**
 * When an edit forgets a server's pinned host key. The edit reads the row before it writes it,
 * and a session to the old address may pin a key in between: a change of address or port
 * clears the pin whatever the row said when read (before, a pin made in between survived the
 * move, and every session to the new address was refused as HostKeyChanged).
 */
import { describe, expect, it } from 'vitest';
import { forgetsHostKey, type ResourceRow } from './service';

const row = (host_key: string | null) =>
  ({ ip_address: '10.0.0.5', port: 22, host_key }) as unknown as ResourceRow;
const PIN = `SHA256:${'k'.repeat(43)}`;

describe('forgetting a pinned host key on edit', () => {
  it('clears on a new address or port even when none was pinned as the row was read', () => {
    expect(forgetsHostKey(row(null), { ip_address: '10.0.0.6' })).toBe(true);
    expect(forgetsHostKey(row(null), { port: 2222 })).toBe(true);
    expect(forgetsHostKey(row(PIN), { port: 2222 })).toBe(true);
  });

  it('keeps the pin through other edits, and through the same address sent again', () => {
    expect(forgetsHostKey(row(PIN), { name: 'renamed' })).toBe(false);
    expect(forgetsHostKey(row(PIN), { ip_address: '10.0.0.5', port: 22 })).toBe(false);
  });

  it('forgets on request only when there is something to forget', () => {
    expect(forgetsHostKey(row(PIN), { host_key: null })).toBe(true);
    expect(forgetsHostKey(row(null), { host_key: null })).toBe(false);
  });
});

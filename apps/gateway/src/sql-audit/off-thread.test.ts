/**
 * Large texts judged in the worker thread: the same verdicts as on the event loop, which
 * meanwhile stays free.
 */
import type { SqlPolicy } from '@portcullis/contract';
import { describe, expect, it } from 'vitest';
import { judgeSqlOffThread, LARGE_TEXT, setJudgeTimeout } from './off-thread';

const DELETE_ORDERS: SqlPolicy = {
  block: [{ op: 'delete', table: 'orders' }],
  notice: [],
  approval: false,
};
const values = Array.from({ length: 20_000 }, (_, i) => `(${i},'item ${i}')`).join(',');

describe('judgeSqlOffThread', () => {
  it('passes and refuses a large text as the judge does', async () => {
    const insert = `INSERT INTO bulk VALUES ${values}`;
    expect(insert.length).toBeGreaterThan(LARGE_TEXT);
    expect(await judgeSqlOffThread('mysql', insert, DELETE_ORDERS)).toMatchObject({
      action: 'pass',
    });
    const hidden = `${insert}; DELETE FROM orders`;
    expect(await judgeSqlOffThread('mysql', hidden, DELETE_ORDERS)).toMatchObject({
      action: 'block',
      reason: 'rule',
    });
    expect(await judgeSqlOffThread('postgresql', hidden, DELETE_ORDERS)).toMatchObject({
      action: 'block',
      reason: 'rule',
    });
  }, 60_000);

  it('leaves the event loop free while it judges', async () => {
    let ticks = 0;
    const timer = setInterval(() => (ticks += 1), 5);
    await judgeSqlOffThread('mysql', `INSERT INTO bulk VALUES ${values},${values}`, DELETE_ORDERS);
    clearInterval(timer);
    expect(ticks).toBeGreaterThan(3);
  }, 60_000);

  it('refuses a text that takes too long, and judges the ones queued behind it anew', async () => {
    // A dump of a few MB takes seconds to parse; behind it, another session's large text.
    const dump = `INSERT INTO bulk VALUES ${Array.from({ length: 40 }, () => values).join(',')}`;
    const next = `INSERT INTO bulk VALUES ${values}`;
    // Long enough for a new worker to start and judge the second text, not for the dump.
    setJudgeTimeout(4000);
    try {
      const started = Date.now();
      const [late, queued] = await Promise.all([
        judgeSqlOffThread('mysql', dump, DELETE_ORDERS),
        judgeSqlOffThread('mysql', next, DELETE_ORDERS),
      ]);
      expect(late).toMatchObject({ action: 'block', reason: 'unreadable' });
      expect((late as { message?: string }).message).toContain('it took more than');
      // Before, it waited for the dump's verdict, however long that took (and a stopped
      // worker's exit refused what had moved to the new one).
      expect(queued).toMatchObject({ action: 'pass' });
      expect(Date.now() - started).toBeLessThan(10_000);
    } finally {
      setJudgeTimeout(30_000);
    }
  }, 60_000);

  it('also judges the bytes as multibyte character sets read them', async () => {
    const gbk = Buffer.concat([
      Buffer.from(`INSERT INTO bulk VALUES ${values}; SELECT 1 AS \`x`),
      Buffer.from([0xbf, 0x60]),
      Buffer.from(', 2 AS `; DELETE FROM orders; SELECT 3 AS ` FROM t'),
      Buffer.from([0xbf, 0x60]),
      Buffer.from('z'),
    ]);
    expect(
      await judgeSqlOffThread('mysql', gbk.toString('utf8'), DELETE_ORDERS, gbk),
    ).toMatchObject({ action: 'block' });
  }, 60_000);
});

// A large result streams through the proxy: 200k rows (about 200 MB) read with mysql2's
// query().stream() while the gateway's memory stays flat, including while the reader pauses.
import mysql from 'mysql2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MysqlProxy } from './server';
import { fakeSessions, startProxyStack, type ProxyStack } from './testing';

let stack: ProxyStack;
let proxy: MysqlProxy;
let db: string;
const fake = fakeSessions({ big: {} });

beforeAll(async () => {
  stack = await startProxyStack({ prefix: 'mysqlstream', sessions: fake.sessions });
  ({ proxy, db } = stack);
});

afterAll(async () => {
  await stack?.close();
});

describe('mysql proxy streaming', () => {
  it('streams 200k rows without holding them', async () => {
    const conn = mysql.createConnection({
      host: '127.0.0.1',
      port: proxy.port,
      user: 'big',
      database: db,
    });
    const rowsWanted = 200_000;
    // MariaDB's sequence engine makes the rows; each carries 1000 bytes.
    const sql = `SELECT seq, REPEAT('x', 1000) AS pad FROM seq_1_to_${rowsWanted}`;
    global.gc?.();
    const before = process.memoryUsage();
    let peakRss = before.rss;
    let peakHeap = before.heapUsed;
    let rows = 0;
    let bytes = 0;
    await new Promise<void>((resolve, reject) => {
      const stream = conn.query(sql).stream({ highWaterMark: 100 });
      stream.on('data', (row: { pad: string }) => {
        rows += 1;
        bytes += row.pad.length;
        if (rows % 5000 === 0) {
          const m = process.memoryUsage();
          peakRss = Math.max(peakRss, m.rss);
          peakHeap = Math.max(peakHeap, m.heapUsed);
        }
        // A slow reader halfway: the target must be paused, not buffered.
        if (rows === rowsWanted / 2) {
          stream.pause();
          setTimeout(() => stream.resume(), 1000);
        }
      });
      stream.on('end', resolve);
      stream.on('error', reject);
    });
    await new Promise((resolve) => conn.end(resolve));
    expect(rows).toBe(rowsWanted);
    expect(bytes).toBe(rowsWanted * 1000);
    const growth = { rss: peakRss - before.rss, heap: peakHeap - before.heapUsed };
    console.log(
      `200 MB result: rss grew ${(growth.rss / 2 ** 20).toFixed(1)} MiB, heap ${(growth.heap / 2 ** 20).toFixed(1)} MiB`,
    );
    // The proxy and the client share this process; a buffering proxy would add ~200 MB.
    expect(growth.rss).toBeLessThan(100 * 2 ** 20);
    await expect.poll(() => fake.started[0]?.statements.length).toBe(1);
    expect(fake.started[0]?.statements[0]).toMatchObject({ statement: sql, rows: rowsWanted });
  });
});

// A query built once answers as the same query built anew would, with each run's values, on
// SQLite (straight to the statement) and PostgreSQL (through kysely), and inside a transaction
// it waits for and runs within that transaction.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness';
import { prepared } from './prepared';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const networkFilters = prepared(['network', 'like'], (db, v) =>
  db
    .selectFrom('log_filter')
    .select(['condition', 'network_id'])
    .where('network_id', '=', v.network)
    .where('condition', 'like', v.like)
    .orderBy('id')
    .limit(2),
);

const addFilter = prepared(['network', 'condition', 'at'], (db, v) =>
  db
    .insertInto('log_filter')
    .values({ network_id: v.network, condition: v.condition, created_at: v.at })
    .returning('id'),
);

const renameFilters = prepared(['network', 'condition'], (db, v) =>
  db.updateTable('log_filter').set({ condition: v.condition }).where('network_id', '=', v.network),
);

/** A cluster of the test team to hang filters on. */
async function network(): Promise<number> {
  const company = await t.ctx.db.selectFrom('company').select('id').executeTakeFirstOrThrow();
  const name = `n${Math.random().toString(36).slice(2)}`;
  const row = await t.ctx.db
    .insertInto('network')
    .values({
      company_id: company.id,
      name,
      name_key: name,
      key_hash: name,
      key_sealed: '',
      max_tunnel_expire_time: 0,
      is_open_map: 0,
      port_map_info: '',
      safe_mode: 0,
      safe_mode_approver: 0,
      safe_mode_notice: 0,
      created_at: 0,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

describe('prepared queries', () => {
  it('answers with each run’s values, as the query built anew does', async () => {
    const [a, b] = [await network(), await network()];
    for (const [n, c] of [
      [a, 'alpha'],
      [a, 'beta'],
      [a, 'also'],
      [b, 'alpha'],
    ] as const) {
      const { rows } = await addFilter.execute(t.ctx.db, { network: n, condition: c, at: 1 });
      expect(rows[0]?.id).toBeGreaterThan(0);
    }
    const run = async (network: number, like: string) =>
      (await networkFilters.execute(t.ctx.db, { network, like })).rows;
    expect(await run(a, 'al%')).toEqual([
      { condition: 'alpha', network_id: a },
      { condition: 'also', network_id: a },
    ]);
    expect(await run(b, 'al%')).toEqual([{ condition: 'alpha', network_id: b }]);
    expect(await networkFilters.first(t.ctx.db, { network: a, like: 'al%' })).toEqual({
      condition: 'alpha',
      network_id: a,
    });
    expect(await networkFilters.first(t.ctx.db, { network: b, like: 'beta' })).toBeUndefined();
    // The builder's own constant (limit 2) stays where it was.
    expect(await run(a, '%')).toHaveLength(2);
    const built = await t.ctx.db
      .selectFrom('log_filter')
      .select(['condition', 'network_id'])
      .where('network_id', '=', a)
      .where('condition', 'like', 'b%')
      .orderBy('id')
      .limit(2)
      .execute();
    expect(await run(a, 'b%')).toEqual(built);

    const renamed = await renameFilters.execute(t.ctx.db, { network: b, condition: 'gamma' });
    expect(renamed.numAffectedRows).toBe(1n);
    expect(await run(b, 'gamma')).toEqual([{ condition: 'gamma', network_id: b }]);
  });

  it('runs inside a transaction, after it has begun, and is undone with it', async () => {
    const n = await network();
    await expect(
      t.ctx.db.transaction().execute(async (trx) => {
        await addFilter.execute(trx, { network: n, condition: 'inside', at: 1 });
        // Seen by the transaction's own query…
        const inside = await networkFilters.execute(trx, { network: n, like: '%' });
        expect(inside.rows).toEqual([{ condition: 'inside', network_id: n }]);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    // …and gone with it.
    expect((await networkFilters.execute(t.ctx.db, { network: n, like: '%' })).rows).toEqual([]);
  });

  it('waits for a transaction that is open on the one SQLite connection', async () => {
    const n = await network();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const transaction = t.ctx.db.transaction().execute(async (trx) => {
      await addFilter.execute(trx, { network: n, condition: 'pending', at: 1 });
      await held;
      throw new Error('roll back');
    });
    // Let the transaction begin and write.
    await new Promise((resolve) => setTimeout(resolve, 20));
    const outside = networkFilters.execute(t.ctx.db, { network: n, like: '%' });
    release();
    await expect(transaction).rejects.toThrow('roll back');
    // Run after the rollback (SQLite) or on another connection (PostgreSQL): never inside the
    // other transaction, whose row it would have seen.
    expect((await outside).rows).toEqual([]);
  });

  it('refuses a builder that does not put a value where a parameter goes', async () => {
    const broken = prepared(['network'], (db, v) =>
      db.selectFrom('log_filter').select('condition').where('network_id', '=', Number(v.network)),
    );
    await expect(broken.execute(t.ctx.db, { network: 1 })).rejects.toThrow(
      'network did not come out as parameters',
    );
  });
});

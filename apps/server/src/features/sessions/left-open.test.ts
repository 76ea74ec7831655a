import { describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { createTestApp } from '../../test/harness';

describe('sessions a previous run of the server left online', () => {
  it('are ended when the server starts again', async () => {
    const t = await createTestApp();
    // A session the server saw start and never saw end: it was killed meanwhile.
    const admin = await t.ctx.db.selectFrom('account').select('id').executeTakeFirstOrThrow();
    const row = await t.ctx.db
      .insertInto('tunnel_connection')
      .values({
        company_id: 1,
        account_id: admin.id,
        created_at: 1_700_000_000,
        ended_at: null,
        tunnel_id: null,
        resource_id: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();

    // The next run on the same data (before, the row stayed online for ever).
    const next = await buildApp(t.ctx.config);
    const after = await t.ctx.db
      .selectFrom('tunnel_connection')
      .select('ended_at')
      .where('id', '=', row.id)
      .executeTakeFirstOrThrow();
    expect(after.ended_at).toBeGreaterThan(1_700_000_000);
    await next.app.close();
    await t.close();
  });
});

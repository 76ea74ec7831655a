/**
 * Keyword search of the action log after migration 015: the member's and resource's names are
 * matched as they are now (a rename shows at once, as the joined names always did), and the
 * session's own client address and file name through the trigram index, which must also see
 * sessions written after an earlier search, take the member's text literally and never reach
 * another team's sessions.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchTunnelReply } from '@portcullis/contract';
import {
  addMember,
  createTestApp,
  signedIn,
  type TestApp,
  type TestClient,
} from '../../test/harness';
import { createOtherTeam } from '../team/test-fixtures';
import { addLinux, createCluster } from '../workgroups/test-fixtures';

const T0 = 1_700_000_000;

describe('GET /search_tunnel keywords', () => {
  let t: TestApp;
  let admin: TestClient;
  let erinId: number;
  let otherTeam: { companyId: number; adminId: number };
  let web: number;

  const total = async (query: string): Promise<number> => {
    const res = await admin.get(`/api/search_tunnel?${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as SearchTunnelReply).total;
  };
  const session = async (values: {
    company_id?: number;
    account_id?: number;
    resource_id?: number | null;
    client_ip?: string;
    op?: string;
    filename?: string;
    at?: number;
  }): Promise<number> => {
    const { at = T0, ...rest } = values;
    const row = await t.ctx.db
      .insertInto('tunnel_connection')
      .values({
        company_id: 1,
        account_id: erinId,
        resource_id: web,
        created_at: at,
        ended_at: at + 60,
        way: values.filename ? 'sftp' : 'terminal',
        ...rest,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  };

  beforeAll(async () => {
    t = await createTestApp();
    admin = await signedIn(t);
    erinId = (await addMember(t, 'erin@demo.local', 0)).id;
    otherTeam = await createOtherTeam(t);
    const lab = await createCluster(admin, 'lab');
    web = await addLinux(admin, lab.id, 'web-1', '10.0.0.5');
    await session({ client_ip: '198.51.100.20' });
  });
  afterAll(() => t.close());

  it('finds sessions written after an earlier keyword search by address and file name', async () => {
    expect(await total('keywords=198.51.100')).toBe(1); // the index is brought up to date here
    const later = await session({ client_ip: '203.0.113.77', at: T0 + 10 });
    await session({
      client_ip: '203.0.113.77',
      op: 'upload',
      filename: 'Report-Q3.PDF',
      at: T0 + 11,
    });
    expect(await total('keywords=113.77')).toBe(2);
    expect(await total('keywords=report-q3.pdf')).toBe(1); // case-blind
    expect(await total('ip=203.0.113')).toBe(2);
    // Two characters have no trigram: matched row by row, with the same result.
    expect(await total('keywords=q3')).toBe(1);
    // A session deleted after it was indexed is not counted.
    await t.ctx.db.deleteFrom('tunnel_connection').where('id', '=', later).execute();
    expect(await total('keywords=113.77')).toBe(1);
  });

  it('takes the text literally: quotes, FTS operators and LIKE wildcards', async () => {
    await session({ op: 'download', filename: 'a"b OR c*_%.txt', at: T0 + 20 });
    await session({ op: 'download', filename: 'abc.txt', at: T0 + 21 });
    expect(await total(`keywords=${encodeURIComponent('"b OR c*')}`)).toBe(1);
    expect(await total(`keywords=${encodeURIComponent('*_%.txt')}`)).toBe(1);
    expect(await total(`keywords=${encodeURIComponent('b OR')}`)).toBe(1);
    expect(await total('keywords=NEAR')).toBe(0);
    expect(await total('keywords=abc.txt')).toBe(1);
  });

  it('matches members and resources by their names as they are now', async () => {
    const before = await total('keywords=erin');
    expect(before).toBeGreaterThan(0);
    await t.ctx.db
      .updateTable('account')
      .set({ name: 'erin.renamed' })
      .where('id', '=', erinId)
      .execute();
    await t.ctx.db.updateTable('resource').set({ name: 'app-7' }).where('id', '=', web).execute();
    expect(await total('keywords=erin.renamed')).toBe(before);
    expect(await total('account_name=renamed')).toBe(before);
    expect(await total('keywords=app-7')).toBe(before);
    expect(await total('resource_name=app-7')).toBe(before);
    expect(await total('keywords=web-1')).toBe(0);
    expect(await total('resource_name=web-1')).toBe(0);
  });

  it('never counts another team’s sessions, whatever matches', async () => {
    const mine = await total('keywords=198.51.100');
    await session({
      company_id: otherTeam.companyId,
      account_id: otherTeam.adminId,
      resource_id: null,
      client_ip: '198.51.100.99',
      at: T0 + 30,
    });
    // Their session is made with our member's id too: the team bounds the id arms as well.
    await session({ company_id: otherTeam.companyId, client_ip: '192.0.2.1', at: T0 + 31 });
    expect(await total('keywords=198.51.100')).toBe(mine);
    expect(await total('keywords=erin')).toBe(await total('account_name=erin'));
    expect(await total('keywords=192.0.2.1')).toBe(0);
  });
});

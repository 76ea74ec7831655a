/**
 * Action-log search over a million entries, on SQLite and on PostgreSQL: a fresh server (the
 * test harness's createTestApp; TEST_DB picks the backend), 200 members and 300 resources made
 * the ordinary way, then 1,000,000 rows seeded into tunnel_connection straight in SQL with a
 * realistic spread (a year of sessions, some members and servers far busier than others, seven
 * ways, client addresses, 2% still open, a tenth of the rows another team's). The queries are
 * `GET /api/search_tunnel` as the console sends them (an administrator, pages of 25), timed
 * end to end through the route with Fastify's inject: count and page together; and the
 * dashboard's statistics calls over the same rows.
 *
 * SQLite is not ANALYZEd (the server never does it); PostgreSQL is, as autovacuum would.
 */
import { sql } from 'kysely';
import { passwordColumns } from '../apps/server/src/features/auth/passwords';
import { newAccountRow } from '../apps/server/src/features/accounts';
import {
  createTestApp,
  signedIn,
  type TestApp,
  type TestClient,
} from '../apps/server/src/test/harness';
import { syncSearchText } from '../apps/server/src/features/action-logs/service';
import { median, say } from './lib/proc';

const ACCOUNTS = 200;
const RESOURCES = 300;
const FIRST = ['alice', 'bob', 'chen', 'dmitri', 'erin', 'farah', 'gao', 'hiro', 'ivan', 'jun'];
const LAST = ['wang', 'smith', 'li', 'garcia', 'kim', 'ng', 'petrov', 'sato', 'zhang', 'brown'];
const ROLES = [
  'web',
  'api',
  'db-prod',
  'db-stage',
  'cache',
  'queue',
  'bastion',
  'build',
  'log',
  'gpu',
];

export interface QueryTiming {
  name: string;
  query: string;
  /** The search's matches; undefined for a dashboard call (a sum, not a list). */
  total?: number;
  /** Milliseconds, every repetition. */
  ms: number[];
}

export interface ActionLogResult {
  backend: 'sqlite' | 'postgres';
  rows: number;
  seedSeconds: number;
  /** Seconds to bring the SQLite trigram index (migration 015) up to the seeded rows. */
  textIndexSeconds: number;
  queries: QueryTiming[];
  /**
   * The same queries after applying migration 014 when it was not registered yet (earlier
   * runs; 014 and 015 are part of the schema now, so this pass is gone).
   */
  with014?: QueryTiming[];
  /** The indexes on tunnel_connection as migrated (name: definition). */
  indexes: string[];
}

async function seedPeople(
  t: TestApp,
  admin: TestClient,
): Promise<{ accounts: number[]; resources: number[] }> {
  const cols = await passwordColumns('Member#Pass1', false);
  const accounts: number[] = [];
  for (let i = 0; i < ACCOUNTS; i++) {
    const name = `${FIRST[i % FIRST.length]}.${LAST[Math.floor(i / FIRST.length) % LAST.length]}${i >= 100 ? i : ''}`;
    const row = await t.ctx.db
      .insertInto('account')
      .values(newAccountRow({ company_id: 1, account: `${name}@demo.local`, name, ...cols }))
      .returning('id')
      .executeTakeFirstOrThrow();
    accounts.push(row.id);
  }
  // Resources: one through the API for a faithful row, the rest copies of it with their own
  // names and addresses (the plan's resource limit would stop the API at 20).
  const clusters: number[] = [];
  // Two clusters: the first team's plan allows no more.
  for (const name of ['Prod', 'Stage']) {
    const res = await admin.post('/api/v1/network', { name });
    if (res.statusCode !== 200) throw new Error(`add cluster: ${res.body}`);
    clusters.push(res.json().id as number);
  }
  const resourceName = (i: number): string =>
    `${ROLES[i % ROLES.length]}-${String(Math.floor(i / ROLES.length) + 1).padStart(2, '0')}`;
  const resourceIp = (i: number): string => `10.${i % 3}.${Math.floor(i / 250)}.${(i % 250) + 1}`;
  const res = await admin.post('/api/v1/resource', {
    network_id: clusters[0],
    name: resourceName(0),
    ip_address: resourceIp(0),
    os: 'linux',
    port: 22,
    login_users: [{ username: 'deploy', auth_type: 0, password: 'Secret#Pass1' }],
  });
  if (res.statusCode !== 200) throw new Error(`add resource: ${res.body}`);
  const first = res.json().id as number;
  const template = await t.ctx.db
    .selectFrom('resource')
    .selectAll()
    .where('id', '=', first)
    .executeTakeFirstOrThrow();
  const resources: number[] = [first];
  for (let i = 1; i < RESOURCES; i++) {
    const { id: _id, ...rest } = template;
    const row = await t.ctx.db
      .insertInto('resource')
      .values({
        ...rest,
        network_id: clusters[i % clusters.length]!,
        name: resourceName(i),
        name_key: resourceName(i).toLowerCase(),
        ip_address: resourceIp(i),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    resources.push(row.id);
  }
  return { accounts, resources };
}

/**
 * Inserts `rows` sessions. Ids of members and resources go through lookup tables (VALUES lists)
 * so that the spread does not depend on ids being contiguous; the skew comes from multiplying
 * two uniform numbers (small indexes are busier).
 */
async function seedSessions(
  t: TestApp,
  backend: 'sqlite' | 'postgres',
  rows: number,
  ids: { accounts: number[]; resources: number[] },
): Promise<void> {
  const now = Math.floor(Date.now() / 1000);
  const year = 365 * 86_400;
  const db = t.ctx.db;
  await sql`CREATE TEMPORARY TABLE bench_acc (i integer primary key, id integer)`.execute(db);
  await sql`CREATE TEMPORARY TABLE bench_res (i integer primary key, id integer)`.execute(db);
  await sql`INSERT INTO bench_acc (i, id) VALUES ${sql.join(ids.accounts.map((id, i) => sql`(${sql.lit(i)}, ${sql.lit(id)})`))}`.execute(
    db,
  );
  await sql`INSERT INTO bench_res (i, id) VALUES ${sql.join(ids.resources.map((id, i) => sql`(${sql.lit(i)}, ${sql.lit(id)})`))}`.execute(
    db,
  );
  // r1..r4: uniform integers in [0, 1e6) per row, from the row number (deterministic).
  const series =
    backend === 'sqlite'
      ? sql`WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < ${sql.lit(rows)}),
          g AS (SELECT n, (n * 7919 + 13) % 1000003 AS r1, (n * 104729 + 7) % 999983 AS r2,
                       (n * 15485863) % 1000033 AS r3, (n * 32452843 + 5) % 999979 AS r4 FROM s)`
      : sql`WITH g AS (SELECT n, (n::bigint * 7919 + 13) % 1000003 AS r1, (n::bigint * 104729 + 7) % 999983 AS r2,
                       (n::bigint * 15485863) % 1000033 AS r3, (n::bigint * 32452843 + 5) % 999979 AS r4
                FROM generate_series(1, ${sql.lit(rows)}) AS n)`;
  const insert = sql`${series}
    INSERT INTO tunnel_connection (company_id, account_id, created_at, ended_at, resource_id, recording, way, client_ip)
    SELECT CASE WHEN n % 10 = 0 THEN 2 ELSE 1 END,
           (SELECT id FROM bench_acc WHERE i = (r1 % ${sql.lit(ACCOUNTS)}) * (r2 % ${sql.lit(ACCOUNTS)}) / ${sql.lit(ACCOUNTS)}),
           ${sql.lit(now)} - ((r3 * 31 + r1 % 31) % ${sql.lit(year)}),
           CASE WHEN n % 50 = 0 THEN NULL ELSE ${sql.lit(now)} - ((r3 * 31 + r1 % 31) % ${sql.lit(year)}) + 30 + (r4 % 7200) END,
           (SELECT id FROM bench_res WHERE i = (r2 % ${sql.lit(RESOURCES)}) * (r4 % ${sql.lit(RESOURCES)}) / ${sql.lit(RESOURCES)}),
           CASE WHEN n % 20 < 15 THEN 1 ELSE 0 END,
           CASE WHEN n % 20 < 12 THEN 'terminal' WHEN n % 20 < 15 THEN 'wetty' WHEN n % 20 < 17 THEN 'sftp'
                WHEN n % 20 = 17 THEN 'scp' WHEN n % 20 = 18 THEN 'mysql' ELSE 'postgresql' END,
           '192.168.' || (r4 % 16) || '.' || (r1 % 254 + 1)
    FROM g`;
  await insert.execute(db);
  // A server that gathered these rows over a year would have checkpointed its WAL long ago;
  // one big insert leaves it all in the WAL, which slows every read.
  if (backend === 'sqlite') await sql`PRAGMA wal_checkpoint(TRUNCATE)`.execute(db);
  if (backend === 'postgres') await sql`ANALYZE`.execute(db);
}

async function explain(t: TestApp, backend: 'sqlite' | 'postgres'): Promise<string[]> {
  const rows = await sql<
    Record<string, unknown>
  >`${sql.raw(backend === 'sqlite' ? 'SELECT name, sql FROM sqlite_master' : 'SELECT indexname AS name, indexdef AS sql FROM pg_indexes')} WHERE ${sql.raw(backend === 'sqlite' ? "type = 'index' AND tbl_name" : 'tablename')} = 'tunnel_connection'`.execute(
    t.ctx.db,
  );
  return rows.rows.map((r) => `${String(r.name)}: ${String(r.sql ?? '(automatic)')}`);
}

export async function runActionLog(
  backend: 'sqlite' | 'postgres',
  rows: number,
  reps: number,
): Promise<ActionLogResult> {
  const previous = process.env.TEST_DB;
  process.env.TEST_DB = backend;
  const t = await createTestApp({ LOG_LEVEL: 'warn' });
  if (previous === undefined) delete process.env.TEST_DB;
  else process.env.TEST_DB = previous;
  try {
    const admin = await signedIn(t);
    say(`action log (${backend}): members and resources`);
    const ids = await seedPeople(t, admin);
    say(`action log (${backend}): seeding ${rows} sessions`);
    const seedStart = process.hrtime.bigint();
    await seedSessions(t, backend, rows, ids);
    const seedSeconds = Number(process.hrtime.bigint() - seedStart) / 1e9;
    say(`action log (${backend}): seeded in ${seedSeconds.toFixed(1)} s`);
    // Rows written straight into the table, as migration 015 finds them on a database that
    // predates it: bring the SQLite trigram index up to date the way its backfill does (the
    // search would otherwise do it on its first keyword query).
    const syncStart = process.hrtime.bigint();
    await syncSearchText(t.ctx);
    if (backend === 'sqlite') await sql`PRAGMA wal_checkpoint(TRUNCATE)`.execute(t.ctx.db);
    const textIndexSeconds = Number(process.hrtime.bigint() - syncStart) / 1e9;
    if (backend === 'sqlite')
      say(`action log (${backend}): trigram index built in ${textIndexSeconds.toFixed(1)} s`);

    const now = Math.floor(Date.now() / 1000);
    const day = 86_400;
    const cases: [string, string][] = [
      ['none (newest 25)', ''],
      ['none, page 40', 'page_index=40'],
      ['keyword (resource name)', 'keywords=db-prod'],
      ['keyword (rare: member name)', 'keywords=farah.kim'],
      ['keyword (client address)', 'keywords=168.3.4'],
      ['keyword (no match)', 'keywords=nothing-like-this'],
      ['keyword (two characters: no trigram)', 'keywords=db'],
      ['account name', 'account_name=chen.wang'],
      ['resource', `resource_id=${ids.resources[7]}`],
      ['date range (7 days)', `time_from=${now - 7 * day}&time_end=${now + day}`],
      [
        'date range (1 month) + account',
        `time_from=${now - 30 * day}&time_end=${now + day}&account_name=bob`,
      ],
      ['way', 'way=sftp'],
    ];
    // The dashboard's statistics over the same rows (its landing page for administrators).
    const window = (days: number) => `time_from=${now - days * day}&time_end=${now + day}`;
    const dashboard: [string, string][] = [
      ['dashboard: connections per day (7 days)', `/api/connect/numbers?${window(7)}`],
      ['dashboard: connections per day (90 days)', `/api/connect/numbers?${window(90)}`],
      ['dashboard: totals (90 days)', `/api/statistic/overview_v1?${window(90)}`],
      ['dashboard: top members (90 days)', `/api/statistic/account_v1?${window(90)}`],
      ['dashboard: top resources (90 days)', `/api/statistic/resource_v1?${window(90)}`],
      ['dashboard: resources by type', '/api/instances_summary'],
    ];
    const time = async (label: string): Promise<QueryTiming[]> => {
      const queries: QueryTiming[] = [];
      const urls = [
        ...cases.map(([name, q]): [string, string, string] => [
          name,
          q || '(no filter)',
          `/api/search_tunnel?page_size=25${q ? `&${q}` : ''}`,
        ]),
        ...dashboard.map(([name, url]): [string, string, string] => [name, url, url]),
      ];
      for (const [name, query, url] of urls) {
        const first = await admin.get(url); // warm-up (page cache, statement cache)
        if (first.statusCode !== 200) throw new Error(`${url}: ${first.body}`);
        const ms: number[] = [];
        for (let i = 0; i < reps; i++) {
          const start = process.hrtime.bigint();
          const res = await admin.get(url);
          ms.push(Number(process.hrtime.bigint() - start) / 1e6);
          if (res.statusCode !== 200) throw new Error(`${url}: ${res.body}`);
        }
        const { total } = first.json() as { total?: number };
        queries.push({ name, query, ...(total !== undefined && { total }), ms });
        say(
          `action log (${backend}, ${label}) ${name}: ${median(ms).toFixed(1)} ms${total === undefined ? '' : `, ${total} matches`}`,
        );
      }
      return queries;
    };
    const indexes = await explain(t, backend);
    const queries = await time('as migrated');
    return { backend, rows, seedSeconds, textIndexSeconds, queries, indexes };
  } finally {
    await t.close();
  }
}

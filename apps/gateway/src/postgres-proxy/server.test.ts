/**
 * The PostgreSQL proxy between the target login and the session's start: the real PostgreSQL
 * at 127.0.0.1:5432 behind a loopback relay the test can reset, the `pg` driver as the client,
 * and a stand-in for the server whose session start waits until the test lets it go (in the
 * product, one round trip to the server). The proxy runs in this process: an error it leaves
 * unheard fails the test.
 */
import net from 'node:net';
import pg from 'pg';
import type { ResolvedCode } from '@portcullis/contract';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../core/logger';
import type { DbSessions } from '../db-proxy/session';
import { loadSqlParsers } from '../sql-audit';
import { startPostgresProxy, type PostgresProxy } from './server';

/** A relay to PostgreSQL; `reset()` resets the proxy's connections to it. */
async function relayToPostgres(): Promise<{ port: number; reset(): void; close(): void }> {
  const fronts: net.Socket[] = [];
  const server = net.createServer((front) => {
    fronts.push(front);
    const back = net.connect(5432, '127.0.0.1');
    front.pipe(back).pipe(front);
    const destroy = () => {
      front.destroy();
      back.destroy();
    };
    front.on('error', destroy).on('close', destroy);
    back.on('error', destroy).on('close', destroy);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    reset: () => fronts.forEach((f) => f.resetAndDestroy()),
    close: () => server.close(),
  };
}

/** One code whose session start waits for `open()`; `ended` counts the session's ends. */
function gatedSessions(targetPort: number) {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  let beginning!: () => void;
  const waiting = new Promise<void>((resolve) => (beginning = resolve));
  const state = { ended: 0 };
  const resolved = {
    tunnel_id: 1,
    resource: { id: 1, name: 'db', os: 'postgresql', databases: [] },
  } as unknown as ResolvedCode;
  const sessions: DbSessions = {
    authorize: () =>
      Promise.resolve({
        ok: true,
        resolved,
        target: { host: '127.0.0.1', port: targetPort, username: 'postgres', password: '' },
        drop: () => undefined,
        begin: async () => {
          beginning();
          await gate;
          return {
            ok: true,
            session: {
              connectionId: 1,
              policy: undefined,
              logStatement: () => undefined,
              alarm: () => undefined,
              onCut: () => undefined,
              end: () => {
                state.ended += 1;
                return Promise.resolve();
              },
            },
          };
        },
      }),
  };
  return { sessions, open, waiting, state };
}

describe('the PostgreSQL proxy while a session is being opened', () => {
  let proxy: PostgresProxy | undefined;
  let relay: Awaited<ReturnType<typeof relayToPostgres>> | undefined;
  afterEach(async () => {
    await proxy?.close();
    relay?.close();
  });

  /** The pg client, and the errors it reported outside a query (a FATAL while idle). */
  const errors: string[] = [];
  /** Names this file's target connections: other test files use PostgreSQL at the same time. */
  const application = `pc-held-${process.pid}`;
  const client = (port: number) => {
    const c = new pg.Client({
      host: '127.0.0.1',
      port,
      user: 'code1',
      database: 'postgres',
      application_name: application,
    });
    c.on('error', (err) => errors.push(err.message));
    return c;
  };

  it('survives a reset of its target connection, and tells the client', async () => {
    await loadSqlParsers();
    relay = await relayToPostgres();
    const gated = gatedSessions(relay.port);
    proxy = await startPostgresProxy({
      port: 0,
      host: '127.0.0.1',
      sessions: gated.sessions,
      logger: silentLogger,
    });
    const c = client(proxy.port);
    const connecting = c.connect().then(
      () => c.query('SELECT 1'),
      (err: Error) => err,
    );
    await gated.waiting;
    relay.reset();
    await new Promise((resolve) => setTimeout(resolve, 200));
    gated.open();
    const outcome = await connecting;
    expect(outcome).toBeInstanceOf(Error);
    await expect.poll(() => gated.state.ended).toBe(1);
    await c.end().catch(() => undefined);
  });

  it('passes on the termination of its backend instead of hanging the client', async () => {
    await loadSqlParsers();
    const gated = gatedSessions(5432);
    proxy = await startPostgresProxy({
      port: 0,
      host: '127.0.0.1',
      sessions: gated.sessions,
      logger: silentLogger,
      pool: { idleMs: 0, maxPerKey: 1, maxTotal: 1 },
    });
    const c = client(proxy.port);
    const connecting = c.connect();
    await gated.waiting;
    const admin = new pg.Client({ host: '127.0.0.1', port: 5432, user: 'postgres' });
    await admin.connect();
    // The proxy's backend carries the client's application name (it used to be picked as
    // any new idle postgres backend, which under the whole suite could be another test's).
    const { rows } = await admin.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1`,
      [application],
    );
    expect(rows).toHaveLength(1);
    await admin.end();
    gated.open();
    await connecting.catch(() => undefined);
    const started = Date.now();
    const outcome = await c.query('SELECT 1').catch((err: Error) => err);
    // An error at once, with PostgreSQL's own words (they were dropped, and the query hung).
    expect(outcome).toBeInstanceOf(Error);
    expect(Date.now() - started).toBeLessThan(3000);
    expect(errors).toContain('terminating connection due to administrator command');
    await expect.poll(() => gated.state.ended).toBe(1);
    await c.end().catch(() => undefined);
  });
});

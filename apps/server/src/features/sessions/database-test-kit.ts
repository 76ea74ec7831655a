/**
 * What the database proxies' end-to-end tests (postgres-proxy.test.ts, mysql-proxy.test.ts)
 * share: the stack they run on (the real server, a cluster whose real gateway runs the
 * database proxies, the database as a resource, and a member with a code for it), setting a
 * database's rules as an administrator does, the member's sessions of one way, a session's
 * statement log as the member downloads it, and a raw PostgreSQL protocol client.
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Selectable } from 'kysely';
import { expect } from 'vitest';
import { startGateway, type Gateway } from '../../../../gateway/src/control/client';
import { freePort } from '../../../../gateway/src/test/net';
import type { EventLogTable } from '../../db/schema';
import { createTestApp, type TestApp, type TestClient } from '../../test/harness';
import {
  addMembersTo,
  addResourcesTo,
  listeningWithCluster,
  createWorkgroup,
  member,
  projectResourceId,
} from '../workgroups/test-fixtures';
import { until } from '../../test/until';

export interface StatementLine {
  statement: string;
  database: string;
  duration_ms: number;
  rows?: number;
  error?: string;
  action?: string;
  rule?: string;
}

/** The database as a resource (its connect account and the databases it offers). */
export interface DatabaseResource {
  name: string;
  port: number;
  username: string;
  password: string;
  /** `;`-separated, as the console sends them. */
  databases: string;
}

export interface DatabaseStack {
  t: TestApp;
  admin: TestClient;
  /** The member (erin@demo.local) granted the database through a workgroup. */
  erin: { id: number; client: TestClient };
  gateway: Gateway;
  /** The gateway's proxy of this kind, listening on 127.0.0.1. */
  port: number;
  clusterId: number;
  resourceId: number;
  workgroupId: number;
  /** Erin's code for the database. */
  code: string;
  /** Stops the gateway and the server and removes the gateway's data folder. */
  stop(): Promise<void>;
}

/**
 * The server listening on loopback; a cluster "Lab" whose real gateway (dialled in with the
 * cluster key from the install script) runs the database proxies on free loopback ports; the
 * database at 127.0.0.1 as a resource of the cluster; a workgroup "Data" granting it to the
 * member erin@demo.local; and her code for it. What was started is stopped again if a step
 * fails.
 */
export async function startDatabaseStack(
  kind: 'postgresql' | 'mysql',
  resource: DatabaseResource,
): Promise<DatabaseStack> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `portcullis-${kind}-proxy-`));
  let t: TestApp | undefined;
  let gateway: Gateway | undefined;
  const stop = async (): Promise<void> => {
    await gateway?.stop();
    await t?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    t = await createTestApp();
    const { address, admin, clusterId, key } = await listeningWithCluster(t);
    const db = await admin.post('/api/v1/resource', {
      network_id: clusterId,
      ip_address: '127.0.0.1',
      os: kind,
      ...resource,
    });
    expect(db.statusCode, db.body).toBe(200);
    const resourceId = db.json().id as number;
    const workgroupId = await createWorkgroup(admin, 'Data');
    await addResourcesTo(admin, workgroupId, [resourceId]);
    const erin = await member(t, 'erin@demo.local');
    await addMembersTo(admin, workgroupId, [erin.id]);
    const ports = { postgresql_port: await freePort(), mysql_port: await freePort() };
    const port = kind === 'postgresql' ? ports.postgresql_port : ports.mysql_port;
    gateway = startGateway({
      server: address,
      key,
      host: '127.0.0.1',
      ports,
      databaseProxies: { dataDir: path.join(dir, 'gateway'), listenHost: '127.0.0.1' },
    });
    await gateway.connected;
    const proxies = await gateway.databaseProxies;
    expect(kind === 'postgresql' ? proxies?.postgresPort : proxies?.mysqlPort).toBe(port);
    const made = await erin.client.post('/api/tunnel', {
      project_resource_id: await projectResourceId(admin, workgroupId, resourceId),
    });
    expect(made.statusCode, made.body).toBe(200);
    const code = made.json().code as string;
    return { t, admin, erin, gateway, port, clusterId, resourceId, workgroupId, code, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

export { until };

/**
 * A PostgreSQL client that speaks the protocol byte by byte to the gateway, for what drivers
 * never send: it sends `startup` and keeps every byte the gateway answers.
 */
export async function rawPostgresSession(port: number, startup: Buffer) {
  const socket = net.connect({ host: '127.0.0.1', port });
  socket.on('error', () => undefined);
  await new Promise((r) => socket.once('connect', r));
  let received = Buffer.alloc(0);
  socket.on('data', (d: Buffer) => (received = Buffer.concat([received, d])));
  const closed = new Promise<void>((r) => socket.once('close', () => r()));
  socket.write(startup);
  // eslint-disable-next-line no-control-regex -- protocol bytes
  const readyCount = () => received.toString('latin1').split(/Z\0\0\0\x05[ITE]/).length - 1;
  /** Waits for the n-th ReadyForQuery. */
  const ready = async (n: number) => until(() => readyCount() >= n, 5000);
  return {
    socket,
    received: () => received,
    text: () => received.toString('latin1'),
    ready,
    readyCount,
    closed,
  };
}

/** Saves a database's security settings; what `body` leaves out is off or empty. */
export async function setRules(
  admin: TestClient,
  resourceId: number,
  body: Record<string, unknown>,
): Promise<void> {
  const res = await admin.patch(`/api/v1/resource/${resourceId}/security`, {
    status: 1,
    block_pattern: [],
    notice_pattern: [],
    notice_status: 0,
    approve_accounts: [],
    notice_accounts: [],
    ...body,
  });
  expect(res.statusCode, res.body).toBe(200);
}

/** The account's sessions of one way, newest first. */
export function sessionsOf(t: TestApp, accountId: number, way: string) {
  return t.ctx.db
    .selectFrom('tunnel_connection')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('way', '=', way)
    .orderBy('id', 'desc')
    .execute();
}

/**
 * The event log's alarms (log_type 'alarm'): those of one way, of one event, or both; once
 * there are `atLeast` of them (a gateway reports alarms without waiting, so the last may still
 * be on their way when the client is done).
 */
export async function alarmsOf(
  t: TestApp,
  where: { way?: string; event?: string },
  atLeast = 0,
): Promise<Selectable<EventLogTable>[]> {
  let query = t.ctx.db.selectFrom('event_log').selectAll().where('log_type', '=', 'alarm');
  if (where.way !== undefined) query = query.where('way', '=', where.way);
  if (where.event !== undefined) query = query.where('event', '=', where.event);
  let rows: Selectable<EventLogTable>[] = [];
  await until(async () => {
    rows = await query.execute();
    if (rows.length < atLeast) await new Promise((r) => setTimeout(r, 50));
    return rows.length >= atLeast;
  });
  return rows;
}

/**
 * A session's statement log, once the gateway has uploaded `atLeast` lines of it and no more
 * come (the last lines may arrive after the session is marked ended: the upload runs on its
 * own).
 */
export async function statementLog(
  client: TestClient,
  connectionId: number,
  atLeast = 1,
): Promise<StatementLine[]> {
  let lines: StatementLine[] = [];
  let seen = -1;
  // Done when it has enough lines and no more came in the last moment.
  await until(async () => {
    const res = await client.get(`/api/download_tunnel_log?connection_id=${connectionId}`);
    if (res.statusCode !== 200) return false;
    lines = res.body
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as StatementLine);
    const settled = lines.length === seen;
    seen = lines.length;
    if (!settled) await new Promise((r) => setTimeout(r, 150));
    return settled && lines.length >= atLeast;
  });
  return lines;
}

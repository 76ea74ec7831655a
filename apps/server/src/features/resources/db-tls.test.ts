/**
 * A database resource's TLS mode for the gateway's own connection to it: kept and shown with
 * the resource, CA text checked before anything is written, carried in its session credentials
 * and connectivity tests, and given only to gateways that honour it (a fake gateway speaks the
 * control protocol to the real server).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signedIn, type TestApp, type TestClient } from '../../test/harness';
import {
  addLinux,
  addMembersTo,
  addMysql,
  addResourcesTo,
  clusterKey,
  createWorkgroup,
  member,
  projectResourceId,
} from '../workgroups/test-fixtures';
import { fakeGateway, HELLO, type FakeGateway } from '../sessions/fake-gateway.test-helpers';

/** A self-signed CA certificate (openssl req -x509, P-256), not trusted by anything. */
const CA = `-----BEGIN CERTIFICATE-----
MIIBjzCCATWgAwIBAgIUME1+wuhbYnhLiCrVj/kQnxURTAgwCgYIKoZIzj0EAwIw
HTEbMBkGA1UEAwwSUG9ydGN1bGxpcyB0ZXN0IENBMB4XDTI2MTEyODAwMjMxNFoX
DTM2MTEyNTAwMjMxNFowHTEbMBkGA1UEAwwSUG9ydGN1bGxpcyB0ZXN0IENBMFkw
EwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEDuuD5qUxXnPSuA64p1X4mcss5OH7F82e
GkNcyIl0RK5Dc9QU/GK/A1plcNLFsuHIsAbkfoaW/IkxhjV7hrd8mKNTMFEwHQYD
VR0OBBYEFLL90FqmJP5geYTZ67PyMBpw4EoKMB8GA1UdIwQYMBaAFLL90FqmJP5g
eYTZ67PyMBpw4EoKMA8GA1UdEwEB/wQFMAMBAf8wCgYIKoZIzj0EAwIDSAAwRQIg
agsJmKXQZLBQywtWPX9dy6etnTz8g6fDpPMHoWC1m4oCIQC8Yw8CVE0Cp7R8wKfI
DbAWio5HWkPMpHW5hUVq5yPE2w==
-----END CERTIFICATE-----`;

describe('database TLS mode', () => {
  let t: TestApp;
  let admin: TestClient;
  let lab: number;
  let key: string;
  let dbId: number;
  let code: string;
  let base: string;
  const gateways: FakeGateway[] = [];
  const gatewayWith = async (features: string[]) => {
    const gateway = fakeGateway(base, key);
    gateways.push(gateway);
    await gateway.welcomed({ ...HELLO, features });
    return gateway;
  };

  beforeAll(async () => {
    t = await createTestApp();
    base = (await t.app.listen({ port: 0, host: '127.0.0.1' })).replace(/^http/, 'ws');
    admin = await signedIn(t);
    lab = (await admin.post('/api/v1/network', { name: 'Lab' })).json().id as number;
    key = await clusterKey(admin, lab);
    // A code is made only while the cluster has a gateway.
    current = await gatewayWith(['mysql', 'db_tls']);
    dbId = await addMysql(admin, lab, 'orders-db', '127.0.0.1');
    const wg = await createWorkgroup(admin, 'DBAs');
    await addResourcesTo(admin, wg, [dbId]);
    const erin = await member(t, 'erin@demo.local');
    await addMembersTo(admin, wg, [erin.id]);
    const made = await erin.client.post('/api/tunnel', {
      project_resource_id: await projectResourceId(admin, wg, dbId),
    });
    expect(made.statusCode, made.body).toBe(200);
    code = (made.json() as { code: string }).code;
  });
  let current: FakeGateway;
  afterAll(async () => {
    for (const g of gateways) g.ws.close();
    await t.close();
  });

  const resource = async (id: number) => (await admin.get(`/api/v1/resource/${id}`)).json();

  it('is prefer by default, and null for a server', async () => {
    expect(await resource(dbId)).toMatchObject({ tls_mode: 'prefer', tls_ca: '' });
    const box = await addLinux(admin, lab, 'box', '127.0.0.1', ['root']);
    expect(await resource(box)).toMatchObject({ tls_mode: null, tls_ca: null });
  });

  it('keeps verify with its CA certificates, and shows them', async () => {
    const made = await admin.post('/api/v1/resource', {
      network_id: lab,
      name: 'billing-db',
      ip_address: 'db.example.internal',
      os: 'postgresql',
      port: 5432,
      username: 'app',
      password: 'Db#Secret3',
      databases: 'billing',
      tls_mode: 'verify',
      tls_ca: `\n${CA}\n`,
    });
    expect(made.statusCode, made.body).toBe(200);
    expect(made.json()).toMatchObject({ tls_mode: 'verify', tls_ca: CA });
    const changed = await admin.patch(`/api/v1/resource/${made.json().id}`, {
      tls_mode: 'require',
    });
    expect(changed.json()).toMatchObject({ tls_mode: 'require', tls_ca: CA });
  });

  it('takes only prefer for SQL Server, whose sessions nothing would hold to more', async () => {
    const body = {
      network_id: lab,
      name: 'erp',
      ip_address: '127.0.0.1',
      os: 'mssql',
      port: 1433,
      username: 'sa',
      password: 'x',
      databases: '*',
    };
    const refused = await admin.post('/api/v1/resource', { ...body, tls_mode: 'require' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ code: 'InvalidParameter', field: 'tls_mode' });
    const made = await admin.post('/api/v1/resource', { ...body, tls_mode: 'prefer' });
    expect(made.json()).toMatchObject({ tls_mode: 'prefer' });
    const changed = await admin.patch(`/api/v1/resource/${made.json().id}`, { tls_mode: 'verify' });
    expect(changed.json()).toMatchObject({ code: 'InvalidParameter', field: 'tls_mode' });
  });

  it('forgets the last connectivity test when the TLS setting changes', async () => {
    const result = async () => (await resource(dbId)).extension.data[0].test_result as unknown;
    await t.ctx.db
      .updateTable('resource_login')
      .set({ test_result: 'enable' })
      .where('resource_id', '=', dbId)
      .execute();
    await admin.patch(`/api/v1/resource/${dbId}`, { name: 'orders-db' });
    expect(await result()).toBe('enable');
    await admin.patch(`/api/v1/resource/${dbId}`, { tls_mode: 'require' });
    expect(await result()).toBeNull();
    await admin.patch(`/api/v1/resource/${dbId}`, { tls_mode: 'prefer' });
  });

  it('writes who changed the setting to the system log, once per change', async () => {
    const events = () =>
      t.ctx.db
        .selectFrom('event_log')
        .select(['event', 'account', 'net_name', 'resource_name'])
        .where('event', 'like', 'databaseTls%')
        .orderBy('id')
        .execute();
    const before = (await events()).length;
    await admin.patch(`/api/v1/resource/${dbId}`, { tls_mode: 'verify', tls_ca: CA });
    await admin.patch(`/api/v1/resource/${dbId}`, { tls_mode: 'verify', tls_ca: CA });
    await admin.patch(`/api/v1/resource/${dbId}`, { tls_mode: 'prefer' });
    const written = (await events()).slice(before);
    const row = { account: 'admin@demo.local', net_name: 'Lab', resource_name: 'orders-db' };
    expect(written).toEqual([
      { event: 'databaseTlsVerify', ...row },
      { event: 'databaseTlsPrefer', ...row },
    ]);
  });

  it('refuses CA text that is not certificates, writing nothing', async () => {
    const before = await resource(dbId);
    for (const bad of [
      'not a certificate',
      CA.replace('MIIB', 'XXXX'),
      `${CA}\n-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIA==\n-----END PRIVATE KEY-----`,
    ]) {
      const res = await admin.patch(`/api/v1/resource/${dbId}`, {
        tls_mode: 'verify',
        tls_ca: bad,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'InvalidParameter', field: 'tls_ca' });
    }
    expect(await resource(dbId)).toEqual(before);
    const created = await admin.post('/api/v1/resource', {
      network_id: lab,
      name: 'never-made',
      ip_address: '127.0.0.1',
      os: 'mysql',
      port: 3306,
      username: 'app',
      password: 'x',
      databases: '*',
      tls_mode: 'verify',
      tls_ca: 'junk',
    });
    expect(created.statusCode).toBe(400);
    const names = (await admin.get(`/api/v1/resource?network_id=${lab}&type=rds`)).body;
    expect(names).not.toContain('never-made');
  });

  describe('through a gateway', () => {
    let round = 0;
    /** Resolves the code as a MySQL proxy does (the credential in the same answer). */
    const resolve = async (gateway: FakeGateway) => {
      round += 1;
      gateway.send({
        type: 'resolve_code',
        request_id: `r${round}`,
        code,
        client_ip: '127.0.0.1',
        credential_kind: 'mysql',
      });
      return gateway.reply(`r${round}`);
    };
    const mode = (tls_mode: string, tls_ca = '') =>
      admin.patch(`/api/v1/resource/${dbId}`, { tls_mode, tls_ca });

    it('carries verify and its CA in the credential to a gateway that honours it', async () => {
      const gateway = current;
      await mode('verify', CA);
      expect((await resolve(gateway)).credential).toMatchObject({
        username: 'app',
        tls: { mode: 'verify', ca: CA },
      });
      await mode('verify');
      expect((await resolve(gateway)).credential).toMatchObject({ tls: { mode: 'verify' } });
      await mode('prefer');
      const preferred = await resolve(gateway);
      expect(preferred.credential).toMatchObject({ username: 'app' });
      expect(preferred.credential).not.toHaveProperty('tls');
    });

    it('gives a gateway that cannot honour it no credential, and no connectivity test', async () => {
      const gateway = await gatewayWith(['mysql']);
      await mode('prefer');
      expect((await resolve(gateway)).credential).toMatchObject({ username: 'app' });
      await mode('require');
      const refused = await resolve(gateway);
      expect(refused.credential).toBeUndefined();
      expect(refused.refusal).toEqual({
        code: 'GatewayUpdateRequired',
        message:
          'The cluster’s gateway is too old for this; update the gateway: it cannot require or verify the database’s TLS',
      });
      const test = await admin.post('/api/service_connection_test', { resource_id: dbId });
      expect(test.json().code).toBe('GatewayUpdateRequired');
      await mode('prefer');
      gateway.ws.close();
    });
  });
});

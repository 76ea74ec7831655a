/**
 * Test harness: a real server (Fastify inject) on a fresh database of the backend named by
 * TEST_DB (sqlite, or postgres: a throwaway database on 127.0.0.1:5432 dropped afterwards),
 * with a temporary data folder, and a client that keeps cookies and sends the CSRF header
 * like the console does.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import pg from 'pg';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { loadConfig } from '../config';
import { buildApp, type BuildOptions } from '../app';
import type { AppContext } from '../context';
import { ensureFirstTeam } from '../features/company/first-run';
import { sha256Hex } from '../lib/crypto';
import { passwordColumns } from '../features/auth/passwords';
import { newAccountRow } from '../features/accounts';

export const ADMIN_EMAIL = 'admin@demo.local';
export const ADMIN_PASSWORD = 'Admin#Pass2026';
export const TEAM = 'demo';

const PG_ADMIN_URL = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface TestApp {
  app: FastifyInstance;
  ctx: AppContext;
  dataDir: string;
  /** Everything the server logged, as text. */
  logs: () => string;
  client: () => TestClient;
  close: () => Promise<void>;
}

export async function createTestApp(
  env: Record<string, string> = {},
  options: BuildOptions = {},
): Promise<TestApp> {
  const backend = process.env.TEST_DB ?? 'sqlite';
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pc-test-'));
  let databaseUrl = '';
  let dropDatabase = async () => {};
  if (backend === 'postgres') {
    const name = `pc_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
    const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const url = new URL(PG_ADMIN_URL);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
    dropDatabase = async () => {
      const c = new pg.Client({ connectionString: PG_ADMIN_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    };
  }
  const config = loadConfig({
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    CONSOLE_DIST: '',
    LOG_LEVEL: 'info',
    PORTCULLIS_TEAM: TEAM,
    PORTCULLIS_ADMIN_EMAIL: ADMIN_EMAIL,
    PORTCULLIS_ADMIN_PASSWORD: ADMIN_PASSWORD,
    ...env,
  });
  const logStream = new PassThrough();
  const chunks: string[] = [];
  logStream.on('data', (c: Buffer) => chunks.push(c.toString('utf8')));
  const { app, ctx } = await buildApp(config, { logStream, ...options });
  await ensureFirstTeam(ctx);
  await app.ready();
  return {
    app,
    ctx,
    dataDir,
    logs: () => chunks.join(''),
    client: () => new TestClient(app),
    close: async () => {
      await app.close();
      await dropDatabase();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A browser-like client: cookie jar plus the CSRF header on every state-changing call. */
export class TestClient {
  readonly cookies = new Map<string, string>();
  csrf = true;
  constructor(private readonly app: FastifyInstance) {}

  async request(
    method: Method,
    url: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<LightMyRequestResponse> {
    if (!this.cookies.has('pc_csrf'))
      await this.raw('GET', '/api/v2/utils/notification_banner/csos');
    const h: Record<string, string> = { ...headers };
    // Like the console: the header goes with every call (a few GETs change state and need it).
    if (this.csrf) h['x-csrf-token'] = this.cookies.get('pc_csrf') ?? '';
    return this.raw(method, url, body, h);
  }

  private async raw(
    method: Method,
    url: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<LightMyRequestResponse> {
    const cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await this.app.inject({
      method,
      url,
      headers: { ...(cookie && { cookie }), ...headers },
      ...(body !== undefined && { payload: body as object }),
    });
    for (const c of res.cookies) {
      if (c.value === '' || (c.expires && c.expires.getTime() < Date.now()))
        this.cookies.delete(c.name);
      else this.cookies.set(c.name, c.value);
    }
    return res;
  }

  get(url: string) {
    return this.request('GET', url);
  }
  post(url: string, body?: unknown) {
    return this.request('POST', url, body ?? {});
  }
  patch(url: string, body?: unknown) {
    return this.request('PATCH', url, body ?? {});
  }
  delete(url: string) {
    return this.request('DELETE', url);
  }

  async login(domain: string, username: string, password: string, captcha?: string) {
    return this.post('/api/auth/login', {
      domain,
      username,
      password,
      ...(captcha !== undefined && { captcha }),
    });
  }
}

/** Fetches a captcha image for this client and reads its answer back from the database. */
export async function solveCaptcha(t: TestApp, client: TestClient): Promise<string> {
  const res = await client.get('/api/auth/captcha');
  if (res.statusCode !== 200) throw new Error(`captcha: ${res.statusCode}`);
  const id = client.cookies.get('pc_captcha');
  if (!id) throw new Error('no captcha cookie');
  const row = await t.ctx.db
    .selectFrom('captcha')
    .select('answer')
    .where('id', '=', sha256Hex(id))
    .executeTakeFirstOrThrow();
  return row.answer;
}

export function outbox(t: TestApp, kind: 'mail' | 'sms'): string[] {
  const dir = path.join(t.dataDir, 'outbox', kind);
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .sort()
    .map((f) => fs.readFileSync(path.join(dir, f), 'utf8'));
}

/** The reset link of the last mail in the outbox, decoded from quoted-printable. */
export function lastMailLink(t: TestApp): URL {
  const mails = outbox(t, 'mail');
  const last = mails[mails.length - 1];
  if (!last) throw new Error('no mail in the outbox');
  const text = last.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
  const match = /https?:\/\/\S+\/resetpassword\?\S+/.exec(text);
  if (!match) throw new Error('no link in the mail');
  return new URL(match[0]);
}

/** Adds a member with a role and a password they chose themselves. */
export async function addMember(
  t: TestApp,
  email: string,
  role: number,
  password = 'Member#Pass1',
  companyId = 1,
) {
  const cols = await passwordColumns(password, false);
  return t.ctx.db
    .insertInto('account')
    .values(
      newAccountRow({
        company_id: companyId,
        account: email,
        name: email.split('@')[0] ?? 'member',
        ...cols,
        is_admin: role,
      }),
    )
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function signedIn(
  t: TestApp,
  email = ADMIN_EMAIL,
  password = ADMIN_PASSWORD,
): Promise<TestClient> {
  const c = t.client();
  const res = await c.login(TEAM, email, password);
  if (res.statusCode !== 200) throw new Error(`login failed: ${res.body}`);
  return c;
}

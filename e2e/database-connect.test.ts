/**
 * The Connect panel of databases in Chromium against the real server, a real gateway and the
 * real PostgreSQL and MariaDB: a member opens Connect on each database, copies the command it
 * shows, and that command, run as shown in a shell, connects and answers a query. SQL Server
 * says it is not available yet. Screenshots in en_US and zh_CN go to .test-artifacts/.
 *
 * The gateway's host is localhost, as the local gateway of `npm start` reports it: a MySQL
 * client given `-h localhost` takes the Unix socket (the local MariaDB) unless the command says
 * --protocol=TCP. A command longer than the panel wraps inside one code box.
 */
import { exec, execSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import type { Gateway } from '../apps/gateway/src/control/client';
import { ADMIN_EMAIL, ADMIN_PASSWORD, screenshot, startE2E, type E2E } from './harness';
import { api, login, UI_TIMEOUT, waitForNoticesGone } from './console';
import { addMember, clusterWithKey, connectedGateway, workgroupWith } from './fixtures';
import { freePort } from '../apps/gateway/src/test/net';

const MEMBER = { account: 'hana@demo.local', name: 'Hana', password: 'Member#Pass2026' };
const SCRATCH = `portcullis_e2e_db_${process.pid}`;
const MARIA_USER = `pc_e2e_${process.pid}`;

interface Database {
  name: string;
  os: 'postgresql' | 'mysql' | 'mssql';
  port: number;
  username: string;
  password: string;
}
const DATABASES: Database[] = [
  // Loopback PostgreSQL trusts its clients: the password is stored and not asked.
  { name: 'pg-orders', os: 'postgresql', port: 5432, username: 'postgres', password: 'Unused#1' },
  { name: 'maria-orders', os: 'mysql', port: 3306, username: MARIA_USER, password: 'Maria#Pass1' },
  { name: 'mssql-orders', os: 'mssql', port: 1433, username: 'sa', password: 'Sa#Secret1' },
];

let e2e: E2E;
let gateway: Gateway | undefined;
let tmpDir: string;
let workgroupId = 0;
let member: { context: BrowserContext; page: Page };
const opened: BrowserContext[] = [];

async function fresh(locale?: string): Promise<{ context: BrowserContext; page: Page }> {
  const made = await e2e.newPage(locale ? { locale } : {});
  opened.push(made.context);
  return made;
}

/** Runs statements in PostgreSQL as its superuser. */
async function asPostgres(...statements: string[]): Promise<void> {
  const superuser = new pg.Client({
    host: '127.0.0.1',
    port: 5432,
    user: 'postgres',
    database: 'postgres',
  });
  await superuser.connect();
  for (const sql of statements) await superuser.query(sql);
  await superuser.end();
}

beforeAll(async () => {
  await asPostgres(`DROP DATABASE IF EXISTS ${SCRATCH}`, `CREATE DATABASE ${SCRATCH}`);
  execSync(
    `mysql -h 127.0.0.1 -P 3306 -u root -e "CREATE DATABASE IF NOT EXISTS ${SCRATCH}; ` +
      `DROP USER IF EXISTS '${MARIA_USER}'@'%'; ` +
      `CREATE USER '${MARIA_USER}'@'%' IDENTIFIED BY 'Maria#Pass1'; ` +
      `GRANT ALL ON ${SCRATCH}.* TO '${MARIA_USER}'@'%'"`,
  );

  e2e = await startE2E();
  tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pc-e2e-db-connect-'));
  const admin = await fresh();
  await login(e2e, admin.context, admin.page, { username: ADMIN_EMAIL, password: ADMIN_PASSWORD });
  const { context } = admin;
  const { clusterId, key } = await clusterWithKey(context, 'Data');
  gateway = await connectedGateway(e2e, key, {
    host: 'localhost',
    ports: { postgresql_port: await freePort(), mysql_port: await freePort() },
    databaseProxies: { dataDir: path.join(tmpDir, 'gateway'), listenHost: '127.0.0.1' },
  });

  const ids: number[] = [];
  for (const db of DATABASES) {
    ids.push(
      (
        await api<{ id: number }>(context, 'POST', '/v1/resource', {
          network_id: clusterId,
          name: db.name,
          ip_address: '127.0.0.1',
          os: db.os,
          port: db.port,
          username: db.username,
          password: db.password,
          databases: SCRATCH,
        })
      ).id,
    );
  }
  const memberId = await addMember(e2e, context, MEMBER);
  const granted = await workgroupWith(context, 'Analysts', ids, [memberId], 'rds');
  workgroupId = granted.workgroupId;
  member = await fresh();
  await login(
    e2e,
    member.context,
    member.page,
    { username: MEMBER.account, password: MEMBER.password },
    '/operation/workgroup',
  );
  for (const id of granted.projectResourceIds) {
    await api(member.context, 'POST', '/tunnel', { project_resource_id: id });
  }
});

afterAll(async () => {
  await gateway?.stop();
  for (const context of opened) await context.close().catch(() => undefined);
  await e2e?.close();
  if (tmpDir) fs.rmSync(tmpDir, { recursive: true, force: true });
  await asPostgres(`DROP DATABASE IF EXISTS ${SCRATCH} WITH (FORCE)`);
  execSync(
    `mysql -h 127.0.0.1 -P 3306 -u root -e "DROP DATABASE IF EXISTS ${SCRATCH}; DROP USER IF EXISTS '${MARIA_USER}'@'%'"`,
  );
});

/** A screenshot once notices have gone and the panel has finished sliding in. */
async function picture(page: Page, name: string): Promise<void> {
  await waitForNoticesGone(page);
  await page.waitForTimeout(400);
  await screenshot(page, name);
}

async function openConnect(page: Page, name: string) {
  await page.goto(`/operation/workgroup/${workgroupId}?type=rds`);
  const row = page.getByRole('row').filter({ hasText: name });
  await row
    .getByRole('button', { name: new RegExp(`^(Connect to|连接) ${name}`) })
    .click({ timeout: UI_TIMEOUT });
  return page.getByRole('dialog').filter({ hasText: name });
}

describe('Connect panel of databases', () => {
  for (const db of DATABASES.filter((d) => d.os !== 'mssql')) {
    it(`shows a command for ${db.os} that connects as shown`, async () => {
      const { page } = member;
      const panel = await openConnect(page, db.name);
      const command = panel.locator('.pc-connect-command');
      await command.waitFor({ timeout: UI_TIMEOUT });
      const text = (await command.textContent()) ?? '';
      expect(text).toContain(SCRATCH);
      if (db.os === 'mysql') expect(text).toMatch(/^mysql --protocol=TCP -h localhost -P \d+ /);
      // A long command wraps inside one box (before, the inline code broke into one box a
      // line, its background and border cut at each line end) and stays inside the panel.
      const layout = await command.locator('code').evaluate((code) => {
        const box = code.getBoundingClientRect();
        const cell = code.closest('td')!.getBoundingClientRect();
        return {
          boxes: code.getClientRects().length,
          inside: box.left >= cell.left && box.right <= cell.right,
        };
      });
      expect(layout).toMatchObject({ boxes: 1, inside: true });
      await picture(page, `database-connect-${db.os}-en_US`);
      // Run as shown (asynchronously: the server and the gateway run in this process), the
      // query on the client's standard input.
      const out = await new Promise<string>((resolve, reject) => {
        const child = exec(text, { timeout: 20_000 }, (err, stdout, stderr) =>
          err ? reject(new Error(`${err.message}: ${stderr}`)) : resolve(stdout),
        );
        child.stdin?.end('SELECT 6 * 7 AS answer;\n');
      });
      expect(out).toMatch(/\b42\b/);
    });
  }

  it('says SQL Server is not available yet, in both languages', async () => {
    const { page } = member;
    const panel = await openConnect(page, 'mssql-orders');
    await panel
      .getByText('SQL Server sessions through the gateway are not available yet.')
      .waitFor({ timeout: UI_TIMEOUT });
    expect(await panel.locator('.pc-connect-command').count()).toBe(0);
    const zh = await fresh('zh-CN');
    await login(
      e2e,
      zh.context,
      zh.page,
      { username: MEMBER.account, password: MEMBER.password },
      '/operation/workgroup',
    );
    const zhPanel = await openConnect(zh.page, 'pg-orders');
    await zhPanel.getByText(/用户名为连接码，无需密码/).waitFor({ timeout: UI_TIMEOUT });
    await picture(zh.page, 'database-connect-postgresql-zh_CN');
  });
});

/**
 * What every route shares: the error envelope, security headers, OpenAPI, metrics, and the
 * console served at / with its client-side routes.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_ROUTES } from '@portcullis/contract';
import { ADMIN_EMAIL, ADMIN_PASSWORD, createTestApp, TEAM, type TestApp } from '../../test/harness';

describe('platform', () => {
  let t: TestApp;
  const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'pc-dist-'));

  beforeAll(async () => {
    fs.writeFileSync(
      path.join(dist, 'index.html'),
      '<!doctype html><title>Portcullis console</title>',
    );
    t = await createTestApp({
      CONSOLE_DIST: dist,
      PORTCULLIS_BANNER: 'Maintenance on Sunday 02:00',
    });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  it('describes every route in the OpenAPI document', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    for (const route of ALL_ROUTES) {
      const p = route.path.replace(/:([A-Za-z_]+)/g, '{$1}');
      const entry = doc.paths[p] ?? doc.paths[`/api${p}`];
      expect(entry?.[route.method.toLowerCase()], `${route.method} ${route.path}`).toBeDefined();
    }
    const ui = await t.app.inject({ method: 'GET', url: '/api/docs' });
    expect([200, 302]).toContain(ui.statusCode);
  });

  it('serves Prometheus metrics to loopback only, counting sign-ins by outcome', async () => {
    await t.client().login(TEAM, ADMIN_EMAIL, ADMIN_PASSWORD);
    await t.client().login(TEAM, ADMIN_EMAIL, 'wrong');
    const res = await t.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '127.0.0.1' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('portcullis_login_attempts_total{outcome="ok"} 1');
    expect(res.body).toContain('portcullis_login_attempts_total{outcome="PasswordError"} 1');
    expect(res.body).toContain('portcullis_http_request_duration_seconds_bucket');
    const remote = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      remoteAddress: '198.51.100.7',
    });
    expect(remote.statusCode).toBe(404);
  });

  it('sends security headers and a CSP without inline script', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/login' });
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(String(res.headers['content-security-policy'])).toContain("script-src 'self'");
    expect(String(res.headers['content-security-policy'])).not.toContain(
      "script-src 'self' 'unsafe-inline'",
    );
  });

  it('serves the console for its own routes and JSON errors for unknown API paths', async () => {
    for (const url of [
      '/',
      '/login',
      '/personal/security?changePwd=1',
      '/resetpassword?code=x&account=y',
    ]) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body).toContain('Portcullis console');
    }
    const api = await t.app.inject({ method: 'GET', url: '/api/no/such/route' });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toMatchObject({ code: 'RouteNotFound' });
  });

  it('shows the configured notification banner with a stable id', async () => {
    const a = (await t.client().get('/api/v2/utils/notification_banner/csos')).json();
    const b = (await t.client().get('/api/v2/utils/notification_banner/csos')).json();
    expect(a).toEqual({ id: expect.any(String), text: 'Maintenance on Sunday 02:00' });
    expect(b.id).toBe(a.id);
  });

  it('answers malformed JSON with InvalidParameter and no internals', async () => {
    const c = t.client();
    const res = await c.request('POST', '/api/auth/login', '{not json', {
      'content-type': 'application/json',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'InvalidParameter', field: 'body' });
    expect(res.body).not.toMatch(/stack|Unexpected token|\.ts/);
  });
});

/**
 * Walks every route of the contract with no session and with a full session of each role,
 * and checks the answer against the route's declared access. Access is checked before the
 * body, so a refused caller learns nothing about the route's rules.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ALL_ROLES,
  ALL_ROUTES,
  CLUSTER_KEY_ROUTES,
  buildPath,
  type RouteDescriptor,
} from '@portcullis/contract';

/** Public to the session model, but they answer only to a cluster key (gateway downloads). */
const KEYED = new Set<RouteDescriptor>(CLUSTER_KEY_ROUTES);
import {
  addMember,
  createTestApp,
  signedIn,
  type TestApp,
  type TestClient,
} from '../../test/harness';

function samplePath(route: RouteDescriptor): string {
  const values: Record<string, string> = {
    id: '999999',
    uuid: '00000000-0000-4000-8000-000000000000',
    domain: 'demo',
  };
  const names = [...route.path.matchAll(/:([A-Za-z_]+)/g)].map((m) => m[1] ?? '');
  return (
    '/api' + buildPath(route.path, Object.fromEntries(names.map((n) => [n, values[n] ?? '1'])))
  );
}

describe('permission matrix', () => {
  let t: TestApp;
  const clients = new Map<number, TestClient>();

  beforeAll(async () => {
    t = await createTestApp();
    for (const role of ALL_ROLES) {
      if (role === 1) {
        clients.set(role, await signedIn(t));
      } else {
        await addMember(t, `role${role}@demo.local`, role);
        clients.set(role, await signedIn(t, `role${role}@demo.local`, 'Member#Pass1'));
      }
    }
  });
  afterAll(() => t.close());

  it('registers every route of the contract', () => {
    for (const route of ALL_ROUTES) {
      expect(
        t.app.hasRoute({ method: route.method, url: '/api' + route.path }),
        `${route.method} ${route.path}`,
      ).toBe(true);
    }
  });

  it.each(ALL_ROUTES.map((r) => [`${r.method} ${r.path}`, r] as const))(
    '%s',
    async (_name, route) => {
      const anon = t.client();
      const res = await anon.request(
        route.method,
        samplePath(route),
        route.method === 'GET' ? undefined : {},
      );
      if (KEYED.has(route)) {
        expect(res.statusCode).toBe(401);
        expect(res.json().code).toBe('InvalidToken');
      } else if (route.access.kind === 'public') {
        expect(res.statusCode).not.toBe(401);
        expect(res.statusCode).not.toBe(403);
      } else {
        expect(res.statusCode).toBe(401);
        expect(res.json().code).toBe('NeedLogin');
      }

      for (const role of ALL_ROLES) {
        const client = clients.get(role)!;
        // Logging out would end the session the next iterations use.
        if (route.path === '/auth/logout') continue;
        const r = await client.request(
          route.method,
          samplePath(route),
          route.method === 'GET' ? undefined : {},
        );
        const allowed =
          route.access.kind === 'public' ||
          (route.access.roles.includes(role) && (route.access.stages ?? ['full']).includes('full'));
        if (KEYED.has(route)) {
          // A session is not a cluster key.
          expect(r.statusCode, `${role} ${route.path}`).toBe(401);
        } else if (allowed) {
          expect([401, 403], `${role} ${route.path}: ${r.body}`).not.toContain(r.statusCode);
        } else {
          expect(r.statusCode, `${role} ${route.path}`).toBe(403);
        }
      }
    },
  );
});

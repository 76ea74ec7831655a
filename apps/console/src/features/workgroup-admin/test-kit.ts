/**
 * Test kit of the workgroup administration pages: a small in-memory server for one workgroup's
 * resources, and lookups the tests share. Only test files import it.
 */
import { screen, waitFor } from '@testing-library/react';
import type { ProjectResource, Workgroup } from '@portcullis/contract';
import { apiError, mockApi, type RecordedCall } from '../../test/api-mock';
import { paged, shellReplies } from '../../test/fixtures';
import { candidate, projectResource } from './fixtures';

export const WEB = projectResource({ id: 11, name: 'web-1', ip: '10.0.0.5' });
export const PG = projectResource({
  id: 12,
  name: 'pg-main',
  ip: '10.0.0.9',
  port: 5432,
  os: 'postgresql',
  type: 'rds',
  db_name: ['app', 'audit'],
});

/** One workgroup's servers and databases with add, remove and the login-user change. */
export function serveResources(wg: Workgroup, options: { exceeded?: boolean } = {}) {
  let rows: ProjectResource[] = [WEB, PG];
  const candidates = [
    candidate({ id: 301, name: 'db-replica', shared: true, network_name: 'Partner' }),
    candidate({ id: 302, name: 'cache' }),
  ];
  return mockApi({
    ...shellReplies(),
    'GET /api/v1/project/5': () => ({ ...wg, resource_count: rows.length }),
    'GET /api/v1/project/resources/5': (call: RecordedCall) =>
      paged(rows.filter((r) => r.type === call.query.get('type'))),
    'GET /api/v1/project/resources/5/candidates': () =>
      paged(candidates.filter((c) => !rows.some((r) => r.resource_id === c.id))),
    'POST /api/v1/project/resources/5': (call: RecordedCall) => {
      if (options.exceeded) return apiError(400, 'ResourceExceeded');
      const ids = (call.body as { resource_ids: number[] }).resource_ids;
      for (const id of ids) {
        const c = candidates.find((x) => x.id === id);
        if (c) rows = [...rows, projectResource({ id: id - 200, resource_id: id, name: c.name })];
      }
      return { ok: true };
    },
    'DELETE /api/v1/project/resources/5': (call: RecordedCall) => {
      const ids = (call.body as { resource_ids: number[] }).resource_ids;
      rows = rows.filter((r) => !ids.includes(r.resource_id));
      return { ok: true };
    },
    'PUT /api/project_resource/11/login_username': (call: RecordedCall) => {
      const users = (call.body as { login_username: string[] }).login_username;
      rows = rows.map((r) =>
        r.id === 11
          ? {
              ...r,
              resource: {
                ...r.resource,
                extension: { ...r.resource.extension, login_username: users },
              },
            }
          : r,
      );
      return rows.find((r) => r.id === 11);
    },
  });
}

/** An option of the open select dropdown (the chosen tags carry the same title). */
export async function option(title: string): Promise<HTMLElement> {
  let found: HTMLElement | null = null;
  await waitFor(() => {
    found = document.querySelector<HTMLElement>(`.ant-select-item-option[title="${title}"]`);
    if (!found) throw new Error(`no option ${title}`);
  });
  return found as unknown as HTMLElement;
}

export async function row(text: string): Promise<HTMLElement> {
  return (await screen.findByText(text)).closest('tr') as HTMLElement;
}

import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Workgroup } from '@portcullis/contract';
import { apiError, mockApi, type RecordedCall } from '../../test/api-mock';
import { paged, shellReplies } from '../../test/fixtures';
import { renderApp } from '../../test/render';
import { workgroup } from './fixtures';

afterEach(() => vi.unstubAllGlobals());

const DEFAULT = workgroup({
  id: 1,
  name: 'Lab',
  network_id: 3,
  is_default: true,
  resource_count: 4,
  account_count: 2,
});
const OPS = workgroup({ id: 2, name: 'Ops', desc: 'On call', resource_count: 7, account_count: 3 });

/** A small in-memory server: the list (paged, by q_name or q_ip), create, update, delete. */
function serve(initial: Workgroup[]) {
  let rows = [...initial];
  let nextId = 100;
  return mockApi({
    ...shellReplies(),
    'GET /api/v1/project/list': (call: RecordedCall) => {
      const name = call.query.get('q_name');
      const ip = call.query.get('q_ip');
      const found = rows.filter(
        (w) => (!name || w.name.includes(name)) && (!ip || (ip === '10.0.0' && w.id === 1)),
      );
      return paged(found, Number(call.query.get('page') ?? 1));
    },
    'POST /api/v1/project': (call: RecordedCall) => {
      const body = call.body as { name: string; desc: string };
      if (rows.some((w) => w.name === body.name)) return apiError(409, 'ProjectNameExist');
      const made = workgroup({ id: nextId++, name: body.name, desc: body.desc });
      rows = [made, ...rows];
      return made;
    },
    'PATCH /api/v1/project/2': (call: RecordedCall) => {
      const body = call.body as { name: string; desc: string };
      rows = rows.map((w) => (w.id === 2 ? { ...w, ...body } : w));
      return rows.find((w) => w.id === 2);
    },
    'DELETE /api/v1/project/2': () => {
      rows = rows.filter((w) => w.id !== 2);
      return { ok: true };
    },
  });
}

async function row(name: string): Promise<HTMLElement> {
  return (await screen.findByRole('link', { name })).closest('tr') as HTMLElement;
}

describe('workgroup list', () => {
  it('shows description and counts, marks the default workgroup, searches by a chosen field and pages', async () => {
    const user = userEvent.setup({ delay: null });
    const many = Array.from({ length: 11 }, (_, i) => workgroup({ id: 10 + i, name: `team-${i}` }));
    const { calls } = serve([DEFAULT, OPS, ...many]);
    renderApp('/settings/workgroup');

    const lab = await row('Lab');
    expect(within(lab).getByRole('img', { name: 'Default workgroup' })).toBeInTheDocument();
    expect(within(lab).getByRole('button', { name: 'Delete workgroup Lab' })).toBeDisabled();
    const ops = await row('Ops');
    expect(within(ops).getByText('On call')).toBeInTheDocument();
    expect(within(ops).getByText('7')).toBeInTheDocument();
    expect(within(ops).getByText('3')).toBeInTheDocument();
    expect(within(ops).queryByRole('img', { name: 'Default workgroup' })).not.toBeInTheDocument();
    expect(within(ops).getByRole('button', { name: 'Delete workgroup Ops' })).toBeEnabled();
    expect(within(ops).getByRole('link', { name: 'Details of workgroup Ops' })).toHaveAttribute(
      'href',
      '/settings/workgroup/2?type=ecs',
    );
    // The menu entry is there and highlighted.
    const nav = screen.getByRole('menu', { name: 'Main navigation' });
    expect(within(nav).getByRole('menuitem', { name: /WorkGroup Manage/ })).toHaveClass(
      'ant-menu-item-selected',
    );

    // Thirteen workgroups: ten a page, the pager shows.
    await user.click(screen.getByRole('listitem', { name: '2' }));
    expect(await screen.findByRole('link', { name: 'team-10' })).toBeInTheDocument();
    const listCalls = () => calls.filter((c) => c.path === '/api/v1/project/list');
    expect(listCalls().at(-1)?.query.get('page')).toBe('2');

    // Search by IP: the field goes as q_ip, from page 1.
    await user.click(screen.getByRole('combobox', { name: 'Search by' }));
    await user.click(await screen.findByTitle('IP'));
    await user.type(screen.getByRole('searchbox', { name: 'Search' }), '10.0.0{Enter}');
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Ops' })).toBeNull());
    const last = listCalls().at(-1);
    expect(last?.query.get('q_ip')).toBe('10.0.0');
    expect(last?.query.get('q_name')).toBeNull();
    expect(last?.query.get('page')).toBe('1');
    expect(screen.getByRole('link', { name: 'Lab' })).toBeInTheDocument();
  });
});

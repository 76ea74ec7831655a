import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Workgroup } from '@portcullis/contract';
import { apiError, mockApi, type RecordedCall } from '../../test/api-mock';
import { paged, shellReplies } from '../../test/fixtures';
import { findDialog, renderApp } from '../../test/render';
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

describe('workgroup list: create, setting, delete', () => {
  it('creates with the form rules, shows a taken name in words, edits, and deletes after confirming', async () => {
    const user = userEvent.setup({ delay: null });
    const { calls } = serve([DEFAULT, OPS]);
    renderApp('/settings/workgroup');
    await row('Ops');

    await user.click(screen.getByRole('button', { name: /Add workgroup/ }));
    const panel = await findDialog('Add workgroup');
    const name = within(panel).getByRole('textbox', { name: 'Workgroup name' });
    await user.click(within(panel).getByRole('button', { name: 'Add' }));
    expect(await within(panel).findByText('Please input the workgroup name')).toBeInTheDocument();
    await user.type(name, 'x');
    expect(
      await within(panel).findByText('The workgroup name is 2 to 255 characters'),
    ).toBeInTheDocument();
    const desc = within(panel).getByRole('textbox', { name: 'Description' });
    await user.click(desc);
    await user.paste('d'.repeat(141));
    expect(
      await within(panel).findByText('The description can be at most 140 characters'),
    ).toBeInTheDocument();
    await user.clear(desc);
    await user.paste('Night shift');
    await user.clear(name);
    await user.paste('Lab');
    await user.click(within(panel).getByRole('button', { name: 'Add' }));
    expect(await screen.findByText('The workgroup name already exists')).toBeInTheDocument();
    await user.clear(name);
    await user.paste('  Night  ');
    await user.click(within(panel).getByRole('button', { name: 'Add' }));
    expect(await screen.findByText('Add Successfully!')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST').at(-1)?.body).toEqual({
      name: 'Night',
      desc: 'Night shift',
    });
    expect(await screen.findByRole('link', { name: 'Night' })).toBeInTheDocument();

    await user.click(
      within(await row('Ops')).getByRole('button', { name: 'Setting of workgroup Ops' }),
    );
    const setting = await findDialog('Workgroup setting');
    const editName = within(setting).getByRole('textbox', { name: 'Workgroup name' });
    expect(editName).toHaveValue('Ops');
    await user.clear(editName);
    await user.paste('Operations');
    await user.click(within(setting).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Update successfully!')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({
      name: 'Operations',
      desc: 'On call',
    });

    const operations = await row('Operations');
    await user.click(
      within(operations).getByRole('button', { name: 'Delete workgroup Operations' }),
    );
    const confirm = await screen.findByRole('tooltip', { name: /Delete this workgroup/ });
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Delete successfully!')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'DELETE' && c.path === '/api/v1/project/2')).toBe(true);
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Operations' })).toBeNull());
  });
});

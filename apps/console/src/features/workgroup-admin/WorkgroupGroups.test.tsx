import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { apiError, mockApi, type RecordedCall } from '../../test/api-mock';
import { group, paged, shellReplies } from '../../test/fixtures';
import { findDialog, renderApp } from '../../test/render';
import { workgroup } from './fixtures';
import { option, row } from './test-kit';

afterEach(() => vi.unstubAllGlobals());

const WG = workgroup({ id: 5, name: 'Ops' });

describe('workgroup detail: groups', () => {
  it("adds groups by name, shows a group's members ten a page, says ProjectGroupExist, deletes", async () => {
    const user = userEvent.setup({ delay: null });
    const OPS = group({ id: 7, name: 'Ops team', member_count: 12 });
    const DEV = group({ id: 8, name: 'Developers' });
    const DBA = group({ id: 9, name: 'DBA' });
    let held = [OPS];
    const people = Array.from({ length: 12 }, (_, i) => ({
      id: 100 + i,
      name: `Person ${i}`,
      account: `p${i}@demo.local`,
      avatar: '',
    }));
    const { calls } = mockApi({
      ...shellReplies(),
      'GET /api/v1/project/5': WG,
      'GET /api/v1/project/groups/5': () => paged(held),
      'GET /api/v1/group/list': paged([OPS, DEV, DBA]),
      'POST /api/v1/project/groups/5': (call: RecordedCall) => {
        const ids = (call.body as { group_ids: number[] }).group_ids;
        if (ids.includes(DBA.id)) return apiError(409, 'ProjectGroupExist');
        held = [...held, ...[DEV, DBA].filter((g) => ids.includes(g.id))];
        return { ok: true };
      },
      'DELETE /api/v1/project/groups/5': (call: RecordedCall) => {
        const ids = (call.body as { group_ids: number[] }).group_ids;
        held = held.filter((g) => !ids.includes(g.id));
        return { ok: true };
      },
      'GET /api/project/5/group': (call: RecordedCall) =>
        paged(people, Number(call.query.get('page') ?? 1)),
    });
    renderApp('/settings/workgroup/5?type=group');
    const ops = await row('Ops team');
    expect(within(ops).getByText('12')).toBeInTheDocument();

    await user.click(within(ops).getByRole('button', { name: 'View the members of Ops team' }));
    const view = await findDialog('View group members: Ops team');
    expect(await within(view).findByText('p0@demo.local')).toBeInTheDocument();
    expect(within(view).queryByText('p10@demo.local')).not.toBeInTheDocument();
    await user.click(within(view).getByRole('listitem', { name: '2' }));
    expect(await within(view).findByText('p10@demo.local')).toBeInTheDocument();
    const pageTwo = calls.filter((c) => c.path === '/api/project/5/group').at(-1);
    expect(pageTwo?.query.get('group_id')).toBe('7');
    expect(pageTwo?.query.get('page_size')).toBe('10');

    await user.click(screen.getByRole('button', { name: /Distribute/ }));
    const panel = await findDialog('Add group');
    await user.click(within(panel).getByRole('button', { name: 'Add' }));
    expect(await within(panel).findByText('Group is not found')).toBeInTheDocument();
    const input = within(panel).getByRole('combobox');
    await user.click(input);
    await user.paste('DB');
    // Typing narrows the team's groups; the one that holds it already is not offered.
    await user.click(await option('DBA'));
    expect(document.querySelector('.ant-select-item-option[title="Ops team"]')).toBeNull();
    await user.click(within(panel).getByRole('button', { name: 'Add' }));
    expect(await screen.findByText('The group is already in the workgroup')).toBeInTheDocument();
    await user.click(within(panel).getByRole('combobox'));
    await user.click(await option('DBA'));
    await user.paste('Dev');
    await user.click(await option('Developers'));
    await user.click(within(panel).getByRole('button', { name: 'Add' }));
    expect(await screen.findByText('Add Successfully!')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST').at(-1)?.body).toEqual({ group_ids: [8] });

    await user.click(
      within(await row('Developers')).getByRole('button', {
        name: 'Delete group Developers from the workgroup',
      }),
    );
    const confirm = await screen.findByRole('tooltip', { name: /Delete this group/ });
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Delete successfully!')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'DELETE')?.body).toEqual({ group_ids: [8] });
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { apiError, mockApi, type RecordedCall } from '../../test/api-mock';
import { group, member, paged, shellReplies } from '../../test/fixtures';
import { findDialog, renderApp } from '../../test/render';

afterEach(() => vi.unstubAllGlobals());

/** Sets an input's value in one change event (antd forms re-validate on each key). */
function set(input: HTMLElement, value: string): void {
  fireEvent.change(input, { target: { value } });
}

describe('team page, group tab', () => {
  it('lists groups linking to their detail, and checks the group form', async () => {
    const user = userEvent.setup({ delay: null });
    const { calls } = mockApi({
      ...shellReplies(),
      'GET /api/v1/group/list': paged([group({ id: 4, name: 'Ops', member_count: 3 })]),
      'POST /api/v1/group': (call: RecordedCall) =>
        (call.body as { name: string }).name === 'Ops'
          ? apiError(409, 'GroupNameExist')
          : group({ id: 5 }),
    });
    renderApp('/settings/team?type=group');
    expect(await screen.findByRole('tab', { name: 'Groups', selected: true })).toBeInTheDocument();
    const link = await screen.findByRole('link', { name: 'Ops' });
    expect(link).toHaveAttribute('href', '/settings/group/4?name=Ops');

    await user.click(screen.getByRole('button', { name: /Add group/ }));
    const panel = await findDialog('Add group');
    await user.click(within(panel).getByRole('button', { name: 'Add' }));
    expect(await within(panel).findByText('Please enter the group name')).toBeInTheDocument();
    set(within(panel).getByRole('textbox', { name: 'Group name' }), 'O');
    expect(
      await within(panel).findByText('The group name is 2 to 20 characters'),
    ).toBeInTheDocument();
    set(within(panel).getByRole('textbox', { name: 'Group name' }), 'x'.repeat(21));
    expect(
      await within(panel).findByText('The group name is 2 to 20 characters'),
    ).toBeInTheDocument();
    set(within(panel).getByRole('textbox', { name: 'Note' }), 'n'.repeat(141));
    expect(
      await within(panel).findByText('The note can be at most 140 characters'),
    ).toBeInTheDocument();

    set(within(panel).getByRole('textbox', { name: 'Group name' }), 'Ops');
    set(within(panel).getByRole('textbox', { name: 'Note' }), ' on call ');
    await user.click(within(panel).getByRole('button', { name: 'Add' }));
    expect(await screen.findByText('The group name already exists')).toBeInTheDocument();
    set(within(panel).getByRole('textbox', { name: 'Group name' }), ' Night shift ');
    await user.click(within(panel).getByRole('button', { name: 'Add' }));
    expect(await screen.findByText('Add Successfully!')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST').at(-1)?.body).toEqual({
      name: 'Night shift',
      note: 'on call',
    });
  });

  it('edits a group (name up to 20, no minimum) and deletes one after confirming', async () => {
    const user = userEvent.setup({ delay: null });
    const { calls } = mockApi({
      ...shellReplies(),
      'GET /api/v1/group/list': paged([group({ id: 4, name: 'Ops', note: 'old' })]),
      'PATCH /api/v1/group/4': group({ id: 4, name: 'O' }),
      'DELETE /api/group/4': { ok: true },
    });
    renderApp('/settings/team?type=group');
    await user.click(await screen.findByRole('button', { name: 'Setting of group Ops' }));
    const panel = await findDialog('Group setting');
    expect(within(panel).getByRole('textbox', { name: 'Group name' })).toHaveValue('Ops');
    set(within(panel).getByRole('textbox', { name: 'Group name' }), 'O');
    await user.click(within(panel).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Update successfully!')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({ name: 'O', note: 'old' });

    await user.click(screen.getByRole('button', { name: 'Delete group Ops' }));
    const confirm = await screen.findByRole('tooltip');
    expect(within(confirm).getByText('Delete this group?')).toBeInTheDocument();
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Delete successfully!')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'DELETE' && c.path === '/api/group/4')).toBe(true);
  });

  it('searches by name from page 1', async () => {
    const user = userEvent.setup({ delay: null });
    const { calls } = mockApi({
      ...shellReplies(),
      'GET /api/v1/group/list': (call: RecordedCall) =>
        paged(
          [group({ id: 1, name: 'Ops' }), group({ id: 2, name: 'Dev' })].filter(
            (g) => !call.query.get('q_name') || g.name.includes(call.query.get('q_name') ?? ''),
          ),
        ),
    });
    renderApp('/settings/team?type=group');
    await screen.findByText('Dev');
    await user.type(screen.getByRole('searchbox', { name: 'Search groups' }), 'Op{Enter}');
    await waitFor(() => expect(screen.queryByText('Dev')).not.toBeInTheDocument());
    expect(calls.at(-1)?.query.get('q_name')).toBe('Op');
  });
});

describe('group detail', () => {
  const NEWTON = member({ id: 7, name: 'Newton', account: 'newton@demo.local' });
  const GRACE = member({ id: 8, name: 'Grace', account: 'grace@demo.local', is_admin: 1 });

  function serve() {
    let inGroup = [GRACE];
    return mockApi({
      ...shellReplies(),
      'GET /api/v1/group/4': group({ id: 4, name: 'Ops', note: 'On call' }),
      'GET /api/v1/group/members/4': (call: RecordedCall) => {
        const key = call.query.get('key');
        return paged(
          inGroup.filter((m) => !key || m.name.includes(key) || m.account.includes(key)),
          Number(call.query.get('page') ?? 1),
          Number(call.query.get('page_size') ?? 10),
        );
      },
      'GET /api/v1/account/list': [NEWTON, GRACE].map(({ id, name, account }) => ({
        id,
        name,
        account,
      })),
      'POST /api/v1/group/members/4': (call: RecordedCall) => {
        const ids = (call.body as { members: number[] }).members;
        inGroup = [...inGroup, ...[NEWTON, GRACE].filter((m) => ids.includes(m.id))];
        return { ok: true };
      },
      'DELETE /api/v1/group/members/4': (call: RecordedCall) => {
        const ids = (call.body as { members: number[] }).members;
        inGroup = inGroup.filter((m) => !ids.includes(m.id));
        return { ok: true };
      },
    });
  }

  it('shows the name, a back link, and the members with search', async () => {
    const user = userEvent.setup({ delay: null });
    const { calls } = serve();
    const app = renderApp('/settings/group/4?name=Ops');
    expect(await screen.findByRole('heading', { name: 'Ops' })).toBeInTheDocument();
    expect(await screen.findByText('grace@demo.local')).toBeInTheDocument();
    // The menu keeps Team Manage highlighted on the detail page.
    const nav = screen.getByRole('menu', { name: 'Main navigation' });
    expect(within(nav).getByRole('menuitem', { name: /Team Manage/ })).toHaveClass(
      'ant-menu-item-selected',
    );
    await user.type(
      screen.getByRole('searchbox', { name: "Search the group's members" }),
      'nobody{Enter}',
    );
    expect(await screen.findByText('No Data')).toBeInTheDocument();
    expect(
      calls
        .filter((c) => c.path === '/api/v1/group/members/4')
        .at(-1)
        ?.query.get('key'),
    ).toBe('nobody');
    await user.click(screen.getByRole('link', { name: /Back to groups/ }));
    await waitFor(() => expect(app.location()).toBe('/settings/team?type=group'));
  });

  it("adds members ('Member is found' when none is picked) and removes after confirming", async () => {
    const user = userEvent.setup({ delay: null });
    const { calls } = serve();
    renderApp('/settings/group/4?name=Ops');
    await screen.findByText('grace@demo.local');
    await user.click(screen.getByRole('button', { name: /Add Member/ }));
    const panel = await findDialog('Add members to the group');
    await user.click(within(panel).getByRole('button', { name: 'Add' }));
    expect(await within(panel).findByText('Member is found')).toBeInTheDocument();
    await user.click(within(panel).getByRole('combobox'));
    // Grace is in the group already: only Newton is offered.
    expect(await screen.findByTitle('Newton (newton@demo.local)')).toBeInTheDocument();
    expect(screen.queryByTitle('Grace (grace@demo.local)')).not.toBeInTheDocument();
    await user.click(screen.getByTitle('Newton (newton@demo.local)'));
    await user.click(within(panel).getByRole('button', { name: 'Add' }));
    expect(await screen.findByText('Add Successfully!')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ members: [7] });
    expect(await screen.findByText('newton@demo.local')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Remove Grace' }));
    const confirm = await screen.findByRole('tooltip');
    await user.click(within(confirm).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText('Remove successfully!')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'DELETE')?.body).toEqual({ members: [8] });
    await waitFor(() => expect(screen.queryByText('grace@demo.local')).not.toBeInTheDocument());
  });
});

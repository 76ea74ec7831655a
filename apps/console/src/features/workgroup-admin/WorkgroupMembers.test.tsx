import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { apiError, mockApi, type RecordedCall } from '../../test/api-mock';
import { paged, shellReplies } from '../../test/fixtures';
import { findDialog, renderApp } from '../../test/render';
import { workgroup, workgroupMember } from './fixtures';
import { option, row } from './test-kit';

afterEach(() => vi.unstubAllGlobals());

const WG = workgroup({ id: 5, name: 'Ops' });
const ADA = { id: 1, name: 'Ada', account: 'ada@demo.local' };
const BOB = { id: 2, name: 'Bob', account: 'bob@demo.local' };
const CLEO = { id: 3, name: 'Cleo', account: 'cleo@demo.local' };

describe('workgroup detail: members', () => {
  it('distributes members as administrators, says ProjectAccountExist, changes the type and deletes', async () => {
    const user = userEvent.setup({ delay: null });
    let members = [workgroupMember({ ...ADA, role: 1 })];
    let taken = false;
    const { calls } = mockApi({
      ...shellReplies(),
      'GET /api/v1/project/5': WG,
      'GET /api/v1/project/members/5': (call: RecordedCall) =>
        paged(members, 1, Number(call.query.get('page_size') ?? 10)),
      // The server leaves out who is a member already and searches by name or account.
      'GET /api/v1/project/members/5/candidates': (call: RecordedCall) => {
        const key = (call.query.get('key') ?? '').toLowerCase();
        return [ADA, BOB, CLEO].filter(
          (m) =>
            !members.some((x) => x.id === m.id) &&
            (m.name.toLowerCase().includes(key) || m.account.includes(key)),
        );
      },
      'POST /api/v1/project/members/5': (call: RecordedCall) => {
        const body = call.body as { account_ids: number[]; role: 0 | 1 };
        // Someone else added Cleo meanwhile: the first try is refused.
        if (!taken) {
          taken = true;
          return apiError(409, 'ProjectAccountExist');
        }
        for (const id of body.account_ids) {
          const who = [BOB, CLEO].find((m) => m.id === id);
          if (who) members = [...members, workgroupMember({ ...who, role: body.role })];
        }
        return { ok: true };
      },
      'PATCH /api/project/5/member': (call: RecordedCall) => {
        const body = call.body as { account_id: number; role: 0 | 1 };
        members = members.map((m) => (m.id === body.account_id ? { ...m, role: body.role } : m));
        return members.find((m) => m.id === body.account_id);
      },
      'DELETE /api/v1/project/members/5': (call: RecordedCall) => {
        const ids = (call.body as { account_ids: number[] }).account_ids;
        members = members.filter((m) => !ids.includes(m.id));
        return { ok: true };
      },
    });
    renderApp('/settings/workgroup/5?type=member');
    const ada = await row('ada@demo.local');
    expect(within(ada).getByRole('link', { name: 'Ada' })).toHaveAttribute(
      'href',
      '/settings/account/1?type=workgroup&accountName=Ada',
    );
    expect(within(ada).getByText('Administrator')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: /Distribute/ }));
    const panel = await findDialog('Add member');
    await user.click(within(panel).getByRole('button', { name: 'Add' }));
    expect(await within(panel).findByText('Member is found')).toBeInTheDocument();
    await user.click(within(panel).getByRole('combobox'));
    // Ada is a member already: only Bob and Cleo are offered; typing asks the server.
    expect(await option('Cleo (cleo@demo.local)')).toBeInTheDocument();
    expect(document.querySelector('.ant-select-item-option[title^="Ada"]')).toBeNull();
    await user.type(within(panel).getByRole('combobox'), 'bo');
    await waitFor(() =>
      expect(calls.some((c) => c.path.endsWith('/candidates') && c.query.get('key') === 'bo')).toBe(
        true,
      ),
    );
    await waitFor(() =>
      expect(document.querySelector('.ant-select-item-option[title^="Cleo"]')).toBeNull(),
    );
    await user.click(await option('Bob (bob@demo.local)'));
    await user.click(within(panel).getByRole('radio', { name: 'Administrator' }));
    await user.click(within(panel).getByRole('button', { name: 'Add' }));
    expect(await screen.findByText('The member is already in the workgroup')).toBeInTheDocument();
    await user.click(within(panel).getByRole('button', { name: 'Add' }));
    expect(await screen.findByText('Add Successfully!')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST').at(-1)?.body).toEqual({
      account_ids: [2],
      role: 1,
    });
    const bob = await row('bob@demo.local');

    await user.click(within(bob).getByRole('combobox', { name: 'Type of Bob' }));
    await user.click(await option('Ordinary member'));
    expect(await screen.findByText('Change successfully!')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({ account_id: 2, role: 0 });

    await user.click(
      within(await row('bob@demo.local')).getByRole('button', {
        name: 'Delete Bob from the workgroup',
      }),
    );
    const confirm = await screen.findByRole('tooltip', { name: /Delete this member/ });
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Delete successfully!')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'DELETE')?.body).toEqual({ account_ids: [2] });
    await waitFor(() => expect(screen.queryByText('bob@demo.local')).not.toBeInTheDocument());
  });
});

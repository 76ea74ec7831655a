import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { apiError, mockApi, type RecordedCall } from '../../test/api-mock';
import { account, paged, shellReplies } from '../../test/fixtures';
import { findDialog, renderApp } from '../../test/render';
import type { AccountWorkgroup } from './api';
import { accountWorkgroup, workgroup } from './fixtures';
import { option, row } from './test-kit';

afterEach(async () => {
  vi.unstubAllGlobals();
  await i18next.changeLanguage('en_US');
});

const OPS = accountWorkgroup({ id: 5, name: 'Ops', role: 1 });
const LAB = accountWorkgroup({
  id: 6,
  name: 'Lab',
  network_id: 3,
  is_default: true,
  role: null,
  groups: ['Night shift'],
});
const DEV = accountWorkgroup({ id: 7, name: 'Dev', role: 0, desc: 'Builds' });

/** Cleo (id 3): her workgroups, bulk add and bulk delete. */
function serve(initial: AccountWorkgroup[], options: { refuseAdd?: boolean } = {}) {
  let rows = [...initial];
  const all = [
    workgroup({ id: 5, name: 'Ops' }),
    workgroup({ id: 6, name: 'Lab', is_default: true, network_id: 3 }),
    workgroup({ id: 7, name: 'Dev' }),
    workgroup({ id: 8, name: 'Billing' }),
  ];
  return mockApi({
    ...shellReplies(),
    'GET /api/v1/project/get_project_by_account/3': (call: RecordedCall) =>
      paged(rows, Number(call.query.get('page') ?? 1), Number(call.query.get('page_size') ?? 10)),
    'GET /api/v1/project/list': paged(all, 1, 65535),
    'POST /api/project/bulk_add_project': (call: RecordedCall) => {
      if (options.refuseAdd) return apiError(409, 'ProjectAccountExist');
      const body = call.body as { project_ids: number[]; role: 0 | 1 };
      for (const id of body.project_ids) {
        const w = all.find((x) => x.id === id);
        if (!w) continue;
        // A workgroup reached through a group becomes a direct one.
        rows = rows.some((r) => r.id === id)
          ? rows.map((r) => (r.id === id ? { ...r, role: body.role } : r))
          : [...rows, accountWorkgroup({ id, name: w.name, role: body.role })];
      }
      return { ok: true };
    },
    'DELETE /api/project/bulk_delete_project': (call: RecordedCall) => {
      const ids = (call.body as { project_ids: number[] }).project_ids;
      rows = rows.filter((w) => !ids.includes(w.id));
      return { ok: true };
    },
  });
}

describe("a member's workgroups", () => {
  it('lists direct and group workgroups, exits one and several, and distributes to more', async () => {
    const user = userEvent.setup({ delay: null });
    const { calls } = serve([OPS, LAB, DEV]);
    const app = renderApp('/settings/account/3?type=workgroup&accountName=Cleo');
    expect(await screen.findByRole('heading', { name: 'Workgroups of Cleo' })).toBeInTheDocument();
    const ops = await row('Ops');
    expect(within(ops).getByText('Administrator')).toBeInTheDocument();
    const lab = await row('Lab');
    expect(within(lab).getByText('Through groups')).toBeInTheDocument();
    expect(within(lab).getByText('Night shift')).toBeInTheDocument();
    expect(within(lab).getByRole('img', { name: 'Default workgroup' })).toBeInTheDocument();
    // Reached only through a group: nothing to exit here.
    expect(within(lab).getByRole('button', { name: 'Exit workgroup Lab' })).toBeDisabled();
    expect(within(lab).getByRole('checkbox')).toBeDisabled();
    // Team Manage stays highlighted.
    const nav = screen.getByRole('menu', { name: 'Main navigation' });
    expect(within(nav).getByRole('menuitem', { name: /Team Manage/ })).toHaveClass(
      'ant-menu-item-selected',
    );

    await user.click(within(ops).getByRole('button', { name: 'Exit workgroup Ops' }));
    const confirm = await screen.findByRole('tooltip', { name: /Exit this workgroup/ });
    expect(within(confirm).getByText('Cleo leaves Ops.')).toBeInTheDocument();
    await user.click(within(confirm).getByRole('button', { name: 'Exit' }));
    expect(await screen.findByText('Exit successfully!')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'DELETE')?.body).toEqual({
      account_id: 3,
      project_ids: [5],
    });
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Ops' })).toBeNull());

    // Distribute: the picker leaves out Dev (joined directly) but offers Lab (only via a group).
    await user.click(screen.getByRole('button', { name: /Distribute/ }));
    const panel = await findDialog('Join WorkGroup');
    await user.click(within(panel).getByRole('button', { name: 'Join' }));
    expect(await within(panel).findByText('Choose at least one workgroup')).toBeInTheDocument();
    await user.click(within(panel).getByRole('combobox'));
    await user.click(await option('Billing'));
    await user.click(await option('Lab'));
    expect(document.querySelector('.ant-select-item-option[title="Dev"]')).toBeNull();
    await user.click(within(panel).getByRole('button', { name: 'Join' }));
    expect(await screen.findByText('Add Successfully!')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      account_id: 3,
      project_ids: [8, 6],
      role: 0,
    });
    expect(await screen.findByRole('link', { name: 'Billing' })).toBeInTheDocument();

    // Exit several at once.
    await user.click(within(await row('Billing')).getByRole('checkbox'));
    await user.click(within(await row('Dev')).getByRole('checkbox'));
    await user.click(screen.getByRole('button', { name: /^logout Exit$/ }));
    const many = await screen.findByRole('tooltip', { name: /Exit the chosen workgroups/ });
    await user.click(within(many).getByRole('button', { name: 'Exit' }));
    await waitFor(() =>
      expect(calls.filter((c) => c.method === 'DELETE').at(-1)?.body).toEqual({
        account_id: 3,
        project_ids: [8, 7],
      }),
    );
    await user.click(screen.getByRole('link', { name: /Back to members/ }));
    await waitFor(() => expect(app.location()).toBe('/settings/team?type=members'));
  });

  it('shows an empty list, and a refusal in the reader’s language', async () => {
    const user = userEvent.setup({ delay: null });
    await i18next.changeLanguage('zh_CN');
    serve([], { refuseAdd: true });
    renderApp('/settings/account/3?type=workgroup&accountName=Cleo');
    expect(await screen.findByRole('heading', { name: 'Cleo 的工作组' })).toBeInTheDocument();
    expect(
      await screen.findByText('暂无数据', { selector: '.ant-empty-description' }),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: /分配/ }));
    const panel = await findDialog('加入工作组');
    await user.click(within(panel).getByRole('combobox'));
    await user.click(await option('Billing'));
    await user.click(within(panel).getByRole('button', { name: '加入' }));
    expect(await screen.findByText('成员已在工作组中')).toBeInTheDocument();
  });

  it('keeps roles without WorkGroup Manage out', async () => {
    mockApi(shellReplies(account({ is_admin: 2 })));
    const app = renderApp('/settings/account/3?type=workgroup&accountName=Cleo');
    await waitFor(() => expect(app.location()).toBe('/operation/dashboard'));
  });
});

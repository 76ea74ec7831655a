/**
 * The database security form and sessions already open: it says they keep the rules they
 * started with, and disconnects them on save only when asked.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mockApi } from '../../../test/api-mock';
import { account, shellReplies } from '../../../test/fixtures';
import { renderInApp } from '../../../test/render';
import { PanelProvider } from '../../../shared/panel/PanelProvider';
import { DatabaseSecurityForm } from './DatabaseSecurityForm';

afterEach(() => vi.unstubAllGlobals());

const SECURITY = {
  status: 1,
  block_pattern: [{ op: 'drop' }],
  notice_pattern: [],
  notice_status: 0,
  approve_accounts: [],
  notice_accounts: [],
};

function renderForm(online: number) {
  const saved: unknown[] = [];
  mockApi({
    ...shellReplies(account()),
    'GET /api/v1/resource/7/security': { ...SECURITY, online },
    'PATCH /api/v1/resource/7/security': (call: { body: unknown }) => {
      saved.push(call.body);
      return { ...SECURITY, online: 0 };
    },
    'GET /api/account': { objects: [], num_results: 0 },
  });
  renderInApp(
    <PanelProvider>
      <DatabaseSecurityForm resourceId={7} panelKey="security" />
    </PanelProvider>,
  );
  return saved;
}

describe('database security form', () => {
  it('says open sessions keep their rules, and disconnects them on save when ticked', async () => {
    const user = userEvent.setup({ delay: null });
    const saved = renderForm(2);
    expect(
      await screen.findByText(
        '2 sessions are open on this database: they keep the rules they started with.',
      ),
    ).toBeInTheDocument();
    await user.click(
      screen.getByRole('checkbox', {
        name: 'Disconnect them when saving, so the new rules apply at once',
      }),
    );
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]).toMatchObject({ block_pattern: [{ op: 'drop' }], cut_sessions: true });
  });

  it('leaves open sessions alone unless asked, and says nothing when none is open', async () => {
    const user = userEvent.setup({ delay: null });
    const saved = renderForm(0);
    await user.click(await screen.findByRole('button', { name: 'Save' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]).toMatchObject({ cut_sessions: false });
    expect(screen.queryByText(/are open on this database/)).toBeNull();
  });
});

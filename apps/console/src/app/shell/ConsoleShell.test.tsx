import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { CurrentAccount, Summary } from '@portcullis/contract';
import { apiError, mockApi } from '../../test/api-mock';
import { account, DAY_SECONDS, plan, summary } from '../../test/fixtures';
import { findDialog, queryDialog, renderApp } from '../../test/render';
import { BANNER_DISMISS_STORAGE_KEY, QUOTA_SILENCE_STORAGE_KEY } from './plan';

afterEach(() => vi.unstubAllGlobals());

const now = () => Math.floor(Date.now() / 1000);

function serve(
  me: CurrentAccount = account(),
  options: {
    summary?: Summary;
    banner?: { id: string; text: string } | null;
    online?: number;
  } = {},
) {
  return mockApi({
    'GET /api/current_account': me,
    'GET /api/v1/summary': options.summary ?? summary(),
    'GET /api/v2/utils/notification_banner/csos': options.banner ?? null,
    'GET /api/v1/tunnel_connection/count': { count: options.online ?? 0 },
    'POST /api/auth/logout': { ok: true },
  });
}

describe('console shell', () => {
  it('shows the online count, the team and the plan', async () => {
    serve(account(), { online: 3 });
    renderApp('/personal/info');
    expect(await screen.findByText('Online sessions: 3')).toBeInTheDocument();
    expect(screen.getByText('Demo Ltd')).toBeInTheDocument();
    expect(screen.getByTestId('plan-expiry')).toHaveAttribute('data-warn', 'false');
  });

  it('flags a plan with 30 days or fewer left', async () => {
    serve(account({ current_plan: plan({ name: 'Trial', expire: now() + 10 * DAY_SECONDS }) }));
    renderApp('/personal/info');
    const tag = await screen.findByTestId('plan-expiry');
    expect(tag).toHaveAttribute('data-warn', 'true');
    expect(tag).toHaveTextContent(/Trial · Expires \d{4}-\d{2}-\d{2} \(10 days left\)/);
  });

  it("says 'none' for a plan without expiry", async () => {
    serve(account({ current_plan: plan({ name: 'Enterprise', expire: null }) }));
    renderApp('/personal/info');
    expect(await screen.findByTestId('plan-expiry')).toHaveTextContent('Enterprise · Expiry: none');
  });

  it('shows the banner until it is closed, and remembers that by id', async () => {
    const user = userEvent.setup({ delay: null });
    serve(account(), { banner: { id: 'maint-1', text: 'Maintenance tonight at 22:00' } });
    const first = renderApp('/personal/info');
    const banner = await screen.findByText('Maintenance tonight at 22:00');
    const alert = banner.closest('[role="alert"]') as HTMLElement;
    await user.click(within(alert).getByRole('button', { name: /close/i }));
    await waitFor(() =>
      expect(screen.queryByText('Maintenance tonight at 22:00')).not.toBeInTheDocument(),
    );
    expect(localStorage.getItem(BANNER_DISMISS_STORAGE_KEY)).toBe('maint-1');
    first.unmount();

    renderApp('/personal/info');
    await screen.findByText('Online sessions: 0');
    expect(screen.queryByText('Maintenance tonight at 22:00')).not.toBeInTheDocument();
  });

  it('warns about quota overruns and can be silenced for 7 days', async () => {
    const user = userEvent.setup({ delay: null });
    const basic = plan({ name: 'Basic', account_limit: 5, network_limit: 0, resource_limit: 10 });
    serve(account({ current_plan: basic }), {
      summary: summary({ accounts: 7, networks: 40, resources: 3, current_plan: basic }),
    });
    renderApp('/personal/info');
    expect(await screen.findByText("Your team is over the Basic plan's quota")).toBeInTheDocument();
    expect(screen.getByText('Members: 7 of 5')).toBeInTheDocument();
    // 0 is unlimited; resources are under the limit.
    expect(screen.queryByText(/Clusters:/)).not.toBeInTheDocument();
    expect(screen.queryByText(/Resources:/)).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: "Don't remind me for 7 days" }));
    await waitFor(() =>
      expect(
        screen.queryByText("Your team is over the Basic plan's quota"),
      ).not.toBeInTheDocument(),
    );
    const until = Number(localStorage.getItem(QUOTA_SILENCE_STORAGE_KEY));
    expect(until - Date.now()).toBeGreaterThan(6.9 * DAY_SECONDS * 1000);
  });

  it('words the reminder more softly for a trial', async () => {
    const trial = plan({ name: 'Trial', account_limit: 2, network_limit: 1, resource_limit: 5 });
    serve(account({ current_plan: trial }), {
      summary: summary({ accounts: 1, networks: 2, resources: 1, current_plan: trial }),
    });
    renderApp('/personal/info');
    expect(await screen.findByText('Your team has outgrown the trial')).toBeInTheDocument();
    expect(screen.getByText('Clusters: 2 of 1')).toBeInTheDocument();
  });

  it('forces a weak password to Account security with the change panel open', async () => {
    const user = userEvent.setup({ delay: null });
    serve(account({ password_strength: { level: 2, password_ok: false } }));
    const app = renderApp('/personal/info');
    const dialog = await findDialog('Please change your password');
    expect(within(dialog).queryByRole('button', { name: /close/i })).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Change password' }));
    await waitFor(() => expect(app.location()).toBe('/personal/security?changePwd=1'));
    expect(await findDialog('Change password')).toBeInTheDocument();
    await waitFor(() => expect(queryDialog('Please change your password')).toBeUndefined());
  });

  it('builds the menu for the role and highlights the route', async () => {
    serve(account({ is_admin: 0 }));
    renderApp('/personal/sshkey');
    const nav = await screen.findByRole('menu', { name: 'Main navigation' });
    const items = within(nav).getAllByRole('menuitem');
    expect(items.map((i) => i.textContent)).toEqual([
      'WorkGroup',
      'Logs',
      'Account info',
      'Account security',
      'SSH keys',
    ]);
    expect(items[4]).toHaveClass('ant-menu-item-selected');
    expect(within(nav).queryByText('Dashboard')).not.toBeInTheDocument();
  });

  it('sends a member away from the dashboard to the workgroup list', async () => {
    serve(account({ is_admin: 0 }));
    const app = renderApp('/dashboard');
    await waitFor(() => expect(app.location()).toBe('/operation/workgroup'));
    expect(await screen.findByRole('heading', { name: 'Workgroups' })).toBeInTheDocument();
  });

  it('redirects the empty path to the dashboard for an administrator', async () => {
    serve(account({ is_admin: 2 }));
    const app = renderApp('/');
    await waitFor(() => expect(app.location()).toBe('/operation/dashboard'));
    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeInTheDocument();
  });

  it('goes to /login on NeedLogin', async () => {
    mockApi({ 'GET /api/current_account': apiError(401, 'NeedLogin') });
    const app = renderApp('/personal/info');
    await waitFor(() => expect(app.location()).toBe('/login'));
  });

  it('logs out', async () => {
    const user = userEvent.setup({ delay: null });
    const { calls } = serve();
    const app = renderApp('/personal/info');
    await user.click(await screen.findByRole('button', { name: /log out/i }));
    await waitFor(() => expect(app.location()).toBe('/login'));
    expect(calls.some((c) => c.method === 'POST' && c.path === '/api/auth/logout')).toBe(true);
  });
});

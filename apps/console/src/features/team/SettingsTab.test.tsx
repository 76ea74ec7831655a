import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mockApi, type RecordedCall } from '../../test/api-mock';
import { member, paged, shellReplies, teamSettings } from '../../test/fixtures';
import { findDialog, renderApp } from '../../test/render';

afterEach(() => vi.unstubAllGlobals());

const PLAN = {
  name: 'Basic',
  resources: 50,
  networks: 2,
  accounts: 10,
  shared_resources: 5,
  shared_networks: 0,
  expire: null,
  used: { resources: 3, networks: 1, accounts: 4 },
};

function serve(extra: Record<string, unknown> = {}) {
  let settings = teamSettings();
  return mockApi({
    ...shellReplies(),
    'GET /api/v1/company/settings': () => settings,
    'GET /api/v1/plan': PLAN,
    'GET /api/account': paged([member({ id: 1, is_admin: 1, account: 'ada@demo.local' })]),
    'PATCH /api/current_company': (call: RecordedCall) => {
      const body = call.body as Record<string, unknown>;
      if (body.admin_whitelist === '10.9.9.9') {
        return {
          status: 400,
          body: {
            code: 'WhitelistExcludesSelf',
            error_message: 'The admin whitelist must include your current address 192.0.2.7',
          },
        };
      }
      settings = {
        ...settings,
        ...(body as object),
        company_mfa: body.company_mfa === 1,
        reset_password: body.reset_password === 1,
      };
      return settings;
    },
    ...extra,
  });
}

function set(label: string, value: string): void {
  fireEvent.change(screen.getByRole('textbox', { name: label }), { target: { value } });
}

async function save(user: ReturnType<typeof userEvent.setup>): Promise<void> {
  await user.click(screen.getByRole('button', { name: 'Save' }));
}

describe('team settings tab', () => {
  it('shows the plan with usage, unlimited limits and no expiry', async () => {
    serve();
    renderApp('/settings/team?type=settings');
    expect(await screen.findByText('Plan information')).toBeInTheDocument();
    expect(await screen.findByText('3 of 50')).toBeInTheDocument();
    expect(screen.getByText('4 of 10')).toBeInTheDocument();
    // Shared clusters: 0 means unlimited.
    expect(screen.getByText('Unlimited')).toBeInTheDocument();
    expect(screen.getByText('Never')).toBeInTheDocument();
    expect(screen.getByText('tok-abc')).toBeInTheDocument();
  });

  it('checks the phone, whitelists and hold time with their rules', async () => {
    const user = userEvent.setup({ delay: null });
    const { calls } = serve();
    renderApp('/settings/team?type=settings');
    await screen.findByRole('textbox', { name: 'Team name' });
    set('Team name', '  ');
    set('Contact phone', '12800000000');
    set('IP whitelist', '10.0.0.0/24');
    set('Admin whitelist', '10.0.0.1,300.1.1.1');
    fireEvent.change(screen.getByRole('spinbutton', { name: 'Session hold time' }), {
      target: { value: '20' },
    });
    await save(user);
    expect(await screen.findByText('Please enter the team name')).toBeInTheDocument();
    expect(screen.getByText('Please enter a valid mobile number')).toBeInTheDocument();
    expect(
      screen.getAllByText(/Comma-separated IPv4 addresses; \* stands for any number/),
    ).toHaveLength(2);
    expect(screen.getByText('Enter a whole number of minutes from 30 to 480')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'PATCH')).toBe(false);
  });

  it('saves the form as the contract body, and the strength change reaches the account', async () => {
    const user = userEvent.setup({ delay: null });
    const { calls } = serve();
    renderApp('/settings/team?type=settings');
    await screen.findByRole('textbox', { name: 'Team name' });
    set('IP whitelist', ' 10.0.*.*, 192.168.1.8 ');
    await user.click(screen.getByRole('radio', { name: /At least 8 characters/ }));
    await user.click(screen.getByRole('switch', { name: 'Require MFA' }));
    const before = calls.filter((c) => c.path === '/api/current_account').length;
    await save(user);
    expect(await screen.findByText('Update successfully!')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({
      full_name: 'Demo Ltd',
      contact_name: 'Ada',
      contact_address: '1 Main Street',
      contact_phone: '13800000000',
      ip_whitelist: '10.0.*.*, 192.168.1.8',
      admin_whitelist: '',
      session_expire_time: 30,
      company_mfa: 1,
      reset_password: 0,
      password_strength: 2,
    });
    // The shell's gate reads the account again.
    await waitFor(() =>
      expect(calls.filter((c) => c.path === '/api/current_account').length).toBeGreaterThan(before),
    );
  });

  it('asks before an admin whitelist, shows the refusal with its address, and saves again', async () => {
    const user = userEvent.setup({ delay: null });
    const { calls } = serve();
    renderApp('/settings/team?type=settings');
    await screen.findByRole('textbox', { name: 'Team name' });
    set('Admin whitelist', '10.9.9.9');
    await save(user);
    const confirm = await findDialog('Restrict administrators to these addresses?');
    expect(calls.some((c) => c.method === 'PATCH')).toBe(false);
    await user.click(within(confirm).getByRole('button', { name: 'Save' }));
    expect(
      await screen.findByText('The admin whitelist must include your current address 192.0.2.7'),
    ).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Save' })).not.toHaveClass('ant-btn-loading'),
    );
    set('Admin whitelist', '');
    await save(user);
    expect(await screen.findByText('Update successfully!')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'PATCH')).toHaveLength(2);
  });

  it('renews the domain token after confirming', async () => {
    const user = userEvent.setup({ delay: null });
    const { calls } = serve({
      'POST /api/company/update_domain_token': teamSettings({ domain_token: 'tok-new' }),
    });
    renderApp('/settings/team?type=settings');
    await screen.findByText('tok-abc');
    await user.click(screen.getByRole('button', { name: 'Update' }));
    const popover = await screen.findByRole('tooltip');
    expect(within(popover).getByText('Issue a new domain token?')).toBeInTheDocument();
    await user.click(within(popover).getByRole('button', { name: 'Update' }));
    expect(await screen.findByText('tok-new')).toBeInTheDocument();
    expect(calls.some((c) => c.path === '/api/company/update_domain_token')).toBe(true);
  });
});

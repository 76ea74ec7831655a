import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MESSAGES } from '@portcullis/contract';
import { apiError, mockApi } from '../../test/api-mock';
import { account, summary } from '../../test/fixtures';
import { renderApp } from '../../test/render';

afterEach(() => vi.unstubAllGlobals());

describe('MFA confirm', () => {
  it('asks for six digits and lands after a good code', async () => {
    const user = userEvent.setup({ delay: null });
    const { calls } = mockApi({
      'POST /api/auth/mfa': { otp_enabled: true, op: '', company_mfa: false, is_admin: 0 },
      'GET /api/current_account': account({ is_admin: 0, otp_enabled: true }),
      'GET /api/v1/summary': summary(),
    });
    const app = renderApp('/mfaComfirm');
    const input = await screen.findByRole('textbox', { name: 'Security code' });
    await user.type(input, '12a');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText(MESSAGES.mfaCode.en)).toBeInTheDocument();
    await user.clear(input);
    await user.type(input, '123456{Enter}');
    await waitFor(() => expect(app.location()).toBe('/operation/workgroup'));
    expect(calls.find((c) => c.path === '/api/auth/mfa')?.body).toEqual({ code: '123456' });
  });

  it('goes on to the forced password change when the reply asks for it', async () => {
    const user = userEvent.setup({ delay: null });
    mockApi({
      'POST /api/auth/mfa': {
        otp_enabled: true,
        op: 'change_pwd',
        company_mfa: false,
        is_admin: 1,
      },
      'GET /api/current_account': account({ op: 'change_pwd' }),
    });
    const app = renderApp('/mfaComfirm');
    await user.type(await screen.findByRole('textbox', { name: 'Security code' }), '123456{Enter}');
    await waitFor(() => expect(app.location()).toBe('/compelChangePassword'));
  });

  it('shows a wrong code as an error', async () => {
    const user = userEvent.setup({ delay: null });
    mockApi({ 'POST /api/auth/mfa': apiError(400, 'MfaCodeError') });
    renderApp('/mfaComfirm');
    await user.type(await screen.findByRole('textbox', { name: 'Security code' }), '000000{Enter}');
    expect(await screen.findByText('The MFA code is incorrect')).toBeInTheDocument();
  });
});

describe('MFA open', () => {
  it('explains first, binds with two codes, then lands', async () => {
    const user = userEvent.setup({ delay: null });
    const { calls } = mockApi({
      'GET /api/mfa/secret': { secret: 'JBSWY3DPEHPK3PXP', issuer: 'Portcullis', account: 'ada' },
      'POST /api/account/mfa': { ok: true },
      'GET /api/current_account': account({ company_mfa: true, otp_enabled: true }),
    });
    const app = renderApp('/mfaOpen');
    expect(await screen.findByText(/authenticator app on your phone/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByRole('img', { name: 'QR code of the MFA key' })).toHaveAttribute(
      'height',
      '150',
    );
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.type(await screen.findByRole('textbox', { name: 'First code' }), '111111');
    await user.type(screen.getByRole('textbox', { name: 'Next code' }), '222222');
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(app.location()).toBe('/operation/dashboard'));
    expect(calls.find((c) => c.path === '/api/account/mfa')?.body).toEqual({
      first_code: '111111',
      second_code: '222222',
      otp_enabled: 1,
    });
  });

  it('signs out on cancel', async () => {
    const user = userEvent.setup({ delay: null });
    const { calls } = mockApi({ 'POST /api/auth/logout': { ok: true } });
    const app = renderApp('/mfaOpen');
    await user.click(await screen.findByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(app.location()).toBe('/login'));
    expect(calls.some((c) => c.path === '/api/auth/logout')).toBe(true);
  });
});

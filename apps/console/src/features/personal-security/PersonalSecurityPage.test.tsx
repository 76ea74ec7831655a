import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { CurrentAccount } from '@portcullis/contract';
import { apiError, mockApi } from '../../test/api-mock';
import { account, summary } from '../../test/fixtures';
import { findDialog, renderApp } from '../../test/render';

afterEach(() => vi.unstubAllGlobals());

function serve(me: CurrentAccount, extra: Record<string, unknown> = {}) {
  return mockApi({
    'GET /api/current_account': me,
    'GET /api/v1/summary': summary(),
    'GET /api/v2/utils/notification_banner/csos': null,
    'GET /api/v1/tunnel_connection/count': { count: 0 },
    ...extra,
  });
}

describe('account security', () => {
  it('shows the last sign-in', async () => {
    serve(account({ last_login_time: 1_700_000_000, last_login_ip: '10.0.0.8' }));
    renderApp('/personal/security');
    expect(
      await screen.findByText(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} from 10\.0\.0\.8$/),
    ).toBeInTheDocument();
  });

  it('changes the password under the team level', async () => {
    const user = userEvent.setup({ delay: null });
    const { calls } = serve(account({ password_strength: { level: 2, password_ok: true } }), {
      'POST /api/current_account/change_password': { ok: true },
    });
    renderApp('/personal/security?changePwd=1');
    const panel = await findDialog('Change password');
    await user.type(within(panel).getByLabelText('New password'), 'weakpass');
    await user.type(within(panel).getByLabelText('Repeat the new password'), 'weakpass');
    await user.click(within(panel).getByRole('button', { name: 'Save' }));
    // The level text is both the hint under the field and, now, its error.
    await waitFor(() =>
      expect(panel.querySelector('.ant-form-item-explain-error')).toHaveTextContent(
        /must be at least 8 characters long and must contain uppercase/,
      ),
    );
    await user.clear(within(panel).getByLabelText('New password'));
    await user.clear(within(panel).getByLabelText('Repeat the new password'));
    await user.type(within(panel).getByLabelText('New password'), 'Strong#Pass1');
    await user.type(within(panel).getByLabelText('Repeat the new password'), 'Strong#Pass1');
    await user.click(within(panel).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Change successfully!')).toBeInTheDocument();
    expect(calls.find((c) => c.path === '/api/current_account/change_password')?.body).toEqual({
      pwd: 'Strong#Pass1',
    });
  });

  it("binds a mobile and says 'Verification code error' on a wrong code", async () => {
    const user = userEvent.setup({ delay: null });
    const { calls } = serve(account({ mobile: '' }), {
      'POST /api/current_account/send_verify_sms': { ok: true },
      'POST /api/current_account/verify_mobile': apiError(400, 'VerificationCodeIncorrect'),
    });
    renderApp('/personal/security');
    await user.click(await screen.findByRole('button', { name: 'Bind' }));
    const panel = await findDialog('Bind a mobile number');
    await user.type(within(panel).getByRole('textbox', { name: 'Mobile number' }), '13912345678');
    await user.click(within(panel).getByRole('button', { name: 'Send code' }));
    expect(await within(panel).findByRole('button', { name: /Resend in \d+ s/ })).toBeDisabled();
    await user.type(within(panel).getByRole('textbox', { name: 'Verification code' }), '123456');
    await user.click(within(panel).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('Verification code error')).toBeInTheDocument();
    expect(calls.find((c) => c.path === '/api/current_account/send_verify_sms')?.body).toEqual({
      mobile: '13912345678',
    });
  });

  it('opening the MFA shows the binding steps; closing asks for two codes', async () => {
    const user = userEvent.setup({ delay: null });
    serve(account({ otp_enabled: false }), {
      'GET /api/mfa/secret': {
        secret: 'JBSWY3DPEHPK3PXP',
        issuer: 'Portcullis',
        account: 'ada@demo.local (demo)',
      },
    });
    const first = renderApp('/personal/security');
    await user.click(await screen.findByRole('switch', { name: 'Virtual MFA' }));
    const panel = await findDialog('Turn on virtual MFA');
    const qr = within(panel).getByRole('img', { name: 'QR code of the MFA key' });
    expect(qr).toHaveAttribute('width', '150');
    expect(qr.getAttribute('src')).toMatch(/^\/api\/mfa\/img/);
    await user.click(within(panel).getByRole('tab', { name: 'Enter the key manually' }));
    expect(await within(panel).findByText('JBSWY3DPEHPK3PXP')).toBeInTheDocument();
    first.unmount();
    vi.unstubAllGlobals();

    const { calls } = serve(account({ otp_enabled: true }), {
      'POST /api/account/mfa': { ok: true },
    });
    renderApp('/personal/security');
    await user.click(await screen.findByRole('switch', { name: 'Virtual MFA' }));
    const close = await findDialog('Turn off virtual MFA');
    await user.type(within(close).getByRole('textbox', { name: 'First code' }), '123456');
    await user.type(within(close).getByRole('textbox', { name: 'Next code' }), '654321');
    await user.click(within(close).getByRole('button', { name: 'Turn off' }));
    await waitFor(() =>
      expect(calls.find((c) => c.path === '/api/account/mfa')?.body).toEqual({
        first_code: '123456',
        second_code: '654321',
        otp_enabled: 0,
      }),
    );
  });
});

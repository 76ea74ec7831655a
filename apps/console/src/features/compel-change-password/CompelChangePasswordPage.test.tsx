import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MESSAGES } from '@portcullis/contract';
import { mockApi } from '../../test/api-mock';
import { account } from '../../test/fixtures';
import { renderApp } from '../../test/render';

afterEach(() => vi.unstubAllGlobals());

describe('forced password change', () => {
  it('changes the password, signs out and asks to log in again', async () => {
    const user = userEvent.setup({ delay: null });
    const { calls } = mockApi({
      'GET /api/current_account': account({
        op: 'change_pwd',
        password_strength: { level: 1, password_ok: false },
      }),
      'POST /api/current_account/change_password': { ok: true },
      'POST /api/auth/logout': { ok: true },
    });
    const app = renderApp('/compelChangePassword');
    await user.type(await screen.findByLabelText('New password'), 'abcdef');
    await user.type(screen.getByLabelText('Repeat the new password'), 'abcdef');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect((await screen.findAllByText(MESSAGES.passwordLevel1.en)).length).toBeGreaterThan(1);
    await user.clear(screen.getByLabelText('New password'));
    await user.clear(screen.getByLabelText('Repeat the new password'));
    await user.type(screen.getByLabelText('New password'), 'abc#def');
    await user.type(screen.getByLabelText('Repeat the new password'), 'abc#def');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    await waitFor(() => expect(app.location()).toBe('/login'));
    expect(await screen.findByText(MESSAGES.passwordChangedRelogin.en)).toBeInTheDocument();
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual(
      expect.arrayContaining([
        'POST /api/current_account/change_password',
        'POST /api/auth/logout',
      ]),
    );
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MESSAGES } from '@portcullis/contract';
import { apiError, mockApi } from '../../test/api-mock';
import { renderApp } from '../../test/render';

afterEach(() => vi.unstubAllGlobals());

const LINK = '/resetpassword?code=c0de&account=ada%40demo.local&password_strength=1';

async function setPassword(user: ReturnType<typeof userEvent.setup>, pwd: string) {
  await user.type(await screen.findByLabelText('New password'), pwd);
  await user.type(screen.getByLabelText('Repeat the new password'), pwd);
  await user.click(screen.getByRole('button', { name: 'Set password' }));
}

describe('reset password', () => {
  it('shows the account read-only and the strength hint', async () => {
    mockApi({});
    renderApp(LINK);
    const accountField = await screen.findByRole('textbox', { name: 'Account' });
    expect(accountField).toHaveValue('ada@demo.local');
    expect(accountField).toHaveAttribute('readonly');
    expect(screen.getByText(MESSAGES.passwordLevel1.en)).toBeInTheDocument();
  });

  it('sets the password once and goes to /login', async () => {
    const user = userEvent.setup({ delay: null });
    const { calls } = mockApi({ 'POST /api/auth/reset_passwd': { ok: true } });
    const app = renderApp(LINK);
    await setPassword(user, 'Abc#123');
    await waitFor(() => expect(app.location()).toBe('/login'));
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      code: 'c0de',
      account: 'ada@demo.local',
      pwd: 'Abc#123',
    });
  });

  it('says when the link has expired or was used', async () => {
    const user = userEvent.setup({ delay: null });
    mockApi({ 'POST /api/auth/reset_passwd': apiError(410, 'ResetLinkExpire') });
    renderApp(LINK);
    await setPassword(user, 'Abc#123');
    expect(
      await screen.findByText('The link has expired or has already been used'),
    ).toBeInTheDocument();
  });
});

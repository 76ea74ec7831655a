import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MESSAGES } from '@portcullis/contract';
import { apiError, mockApi } from '../../test/api-mock';
import { renderApp } from '../../test/render';

afterEach(() => vi.unstubAllGlobals());

async function fill(user: ReturnType<typeof userEvent.setup>, email: string) {
  await user.type(await screen.findByRole('textbox', { name: 'Team ID' }), 'demo');
  await user.type(screen.getByRole('textbox', { name: 'Account e-mail' }), email);
  await user.type(screen.getByRole('textbox', { name: 'Captcha' }), 'abcd');
  await user.click(screen.getByRole('button', { name: 'Send the link' }));
}

describe('forgot password', () => {
  it('needs an e-mail address', async () => {
    const user = userEvent.setup({ delay: null });
    mockApi({});
    renderApp('/forgetPsw');
    await fill(user, 'not-an-email');
    expect(await screen.findByText('Please enter a valid e-mail address')).toBeInTheDocument();
  });

  it('refreshes and clears the captcha on failure', async () => {
    const user = userEvent.setup({ delay: null });
    mockApi({ 'POST /api/auth/reset_passwd_mail': apiError(400, 'CaptchaIncorrect') });
    renderApp('/forgetPsw');
    const before = (await screen.findByRole('button', { name: 'Captcha image' })).getAttribute(
      'src',
    );
    await fill(user, 'ada@demo.local');
    expect(await screen.findByText('The captcha is incorrect')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Captcha' })).toHaveValue('');
    expect(screen.getByRole('button', { name: 'Captcha image' }).getAttribute('src')).not.toBe(
      before,
    );
  });

  it('tells the user to read the mail', async () => {
    const user = userEvent.setup({ delay: null });
    const { calls } = mockApi({ 'POST /api/auth/reset_passwd_mail': { ok: true } });
    renderApp('/forgetPsw');
    await fill(user, ' ada@demo.local ');
    expect((await screen.findAllByText(MESSAGES.resetMailSent.en.trim())).length).toBeGreaterThan(
      0,
    );
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      domain: 'demo',
      account: 'ada@demo.local',
      captcha: 'abcd',
    });
  });
});

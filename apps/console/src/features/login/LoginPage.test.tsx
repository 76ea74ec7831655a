import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MESSAGES, type CurrentAccount, type LoginReply } from '@portcullis/contract';
import { apiError, mockApi, type Handler, type MockReply } from '../../test/api-mock';
import { account } from '../../test/fixtures';
import { renderApp } from '../../test/render';
import { rememberReturn } from '../../shared/session/return-to';

afterEach(() => vi.unstubAllGlobals());

const REPLY: LoginReply = { otp_enabled: false, op: '', company_mfa: false, is_admin: 1 };

function serve(
  reply: LoginReply | MockReply | Handler,
  me: CurrentAccount = account(),
  extra: Record<string, unknown> = {},
) {
  let signedIn = false;
  return mockApi({
    'GET /api/current_account': () => (signedIn ? me : apiError(401, 'NeedLogin')),
    'GET /api/auth/show_captcha': { captcha: false },
    'GET /api/auth/is_open_sso/demo': {
      is_open_sso: false,
      mfa: false,
      is_account_password: true,
      sso_service: '',
    },
    'POST /api/auth/login': (call: Parameters<Handler>[0]) => {
      const result = typeof reply === 'function' ? reply(call) : reply;
      if (!(typeof result === 'object' && result !== null && 'status' in result)) signedIn = true;
      return result;
    },
    ...extra,
  });
}

async function fillAndSubmit(user: ReturnType<typeof userEvent.setup>) {
  await user.type(await screen.findByRole('textbox', { name: 'Team ID' }), '  demo ');
  await user.type(screen.getByRole('textbox', { name: 'Account' }), ' ada@demo.local ');
  await user.type(screen.getByLabelText('Password'), 'Secret#1');
  const submit = screen.getByRole('button', { name: 'Sign in' });
  await waitFor(() => expect(submit).toBeEnabled());
  await user.keyboard('{Enter}');
}

describe('login', () => {
  it('enables submit only when valid, trims team and account, and lands an administrator', async () => {
    const user = userEvent.setup({ delay: null });
    const { calls } = serve(REPLY);
    const app = renderApp('/login');
    const submit = await screen.findByRole('button', { name: 'Sign in' });
    expect(submit).toBeDisabled();
    await fillAndSubmit(user);
    await waitFor(() => expect(app.location()).toBe('/operation/dashboard'));
    expect(await screen.findByText(MESSAGES.loginSuccess.en)).toBeInTheDocument();
    const body = calls.find((c) => c.path === '/api/auth/login')?.body;
    expect(body).toEqual({
      domain: 'demo',
      username: 'ada@demo.local',
      password: 'Secret#1',
      captcha: '',
    });
  });

  it.each([
    ['a bound MFA', { ...REPLY, otp_enabled: true }, '/mfaComfirm'],
    ['a forced password change', { ...REPLY, op: 'change_pwd' as const }, '/compelChangePassword'],
    ['a team MFA without a binding', { ...REPLY, company_mfa: true }, '/mfaOpen'],
  ])('sends %s to its screen', async (_name, reply, path) => {
    const user = userEvent.setup({ delay: null });
    serve(reply);
    const app = renderApp('/login');
    await fillAndSubmit(user);
    await waitFor(() => expect(app.location()).toBe(path));
  });

  it('lands a member on the workgroup list', async () => {
    const user = userEvent.setup({ delay: null });
    serve({ ...REPLY, is_admin: 0 }, account({ is_admin: 0 }));
    const app = renderApp('/login');
    await fillAndSubmit(user);
    await waitFor(() => expect(app.location()).toBe('/operation/workgroup'));
  });

  it('lands on the page that sent the member to sign in (a playback tab)', async () => {
    const user = userEvent.setup({ delay: null });
    serve({ ...REPLY, is_admin: 0 }, account({ is_admin: 0 }));
    rememberReturn('/playlog.html?connection_id=9&way=terminal');
    const app = renderApp('/login');
    await fillAndSubmit(user);
    await waitFor(() => expect(app.location()).toBe('/playlog.html?connection_id=9&way=terminal'));
    expect(sessionStorage.getItem('portcullis.returnTo')).toBeNull(); // taken once
  });

  it('sends a team without a plan to /purchase', async () => {
    const user = userEvent.setup({ delay: null });
    serve(REPLY, account({ current_plan: null }));
    const app = renderApp('/login');
    await fillAndSubmit(user);
    await waitFor(() => expect(app.location()).toBe('/purchase'));
  });

  it('shows the captcha after CaptchaIncorrect and loads a new picture', async () => {
    const user = userEvent.setup({ delay: null });
    serve(apiError(400, 'CaptchaIncorrect', 'The captcha is incorrect'));
    renderApp('/login');
    expect(screen.queryByRole('button', { name: 'Captcha image' })).not.toBeInTheDocument();
    await fillAndSubmit(user);
    const image = await screen.findByRole('button', { name: 'Captcha image' });
    expect(await screen.findByText('The captcha is incorrect')).toBeInTheDocument();
    const first = image.getAttribute('src');
    await user.click(image);
    expect(screen.getByRole('button', { name: 'Captcha image' }).getAttribute('src')).not.toBe(
      first,
    );
    // The captcha is now required before submitting again.
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeDisabled();
  });

  it('asks for the captcha when the server says so', async () => {
    const user = userEvent.setup({ delay: null });
    serve(REPLY, account(), { 'GET /api/auth/show_captcha': { captcha: true } });
    renderApp('/login');
    await user.type(await screen.findByRole('textbox', { name: 'Team ID' }), 'demo');
    await user.type(screen.getByRole('textbox', { name: 'Account' }), 'ada');
    expect(await screen.findByRole('textbox', { name: 'Captcha' })).toBeInTheDocument();
  });

  it('offers single sign-on when the team has it', async () => {
    const user = userEvent.setup({ delay: null });
    serve(REPLY, account(), {
      'GET /api/auth/is_open_sso/demo': {
        is_open_sso: true,
        mfa: false,
        is_account_password: true,
        sso_service: 'https://idp.example/sso',
      },
    });
    renderApp('/login');
    await user.type(await screen.findByRole('textbox', { name: 'Team ID' }), 'demo');
    await user.type(screen.getByRole('textbox', { name: 'Account' }), 'ada');
    const sso = await screen.findByRole('link', { name: /single sign-on/i });
    expect(sso).toHaveAttribute('href', 'https://idp.example/sso');
  });

  it('sends a signed-in browser straight to its landing page', async () => {
    mockApi({ 'GET /api/current_account': account({ is_admin: 0 }) });
    const app = renderApp('/login');
    await waitFor(() => expect(app.location()).toBe('/operation/workgroup'));
  });

  it('shows why a member may not use a password when SSO turned passwords off', async () => {
    const user = userEvent.setup({ delay: null });
    serve(apiError(403, 'PasswordLoginDisabled'));
    renderApp('/login');
    await fillAndSubmit(user);
    expect(
      await screen.findByText(
        'Sign in with single sign-on: account passwords are off for members of this team',
      ),
    ).toBeInTheDocument();
  });
});

describe('single sign-on return', () => {
  const TOKEN = 'a'.repeat(43);

  it('trades the credential, takes it out of the address, and lands like a login', async () => {
    const { calls } = serve(REPLY, account({ is_admin: 0 }), {
      [`POST /api/auth/pw_sso/${TOKEN}`]: { ...REPLY, is_admin: 0 },
      'GET /api/current_account': account({ is_admin: 0 }),
    });
    const app = renderApp(`/login?sso_token=${TOKEN}`);
    await waitFor(() => expect(app.location()).toBe('/operation/workgroup'));
    expect(await screen.findByText(MESSAGES.loginSuccess.en)).toBeInTheDocument();
    const exchanges = calls.filter((c) => c.path === `/api/auth/pw_sso/${TOKEN}`);
    expect(exchanges).toHaveLength(1);
    expect(exchanges[0]?.method).toBe('POST');
    // The browser never showed the token after the first render.
    expect(app.router.state.location.search).toBe('');
  });

  it('follows the reply to the MFA step', async () => {
    serve(REPLY, account(), {
      [`POST /api/auth/pw_sso/${TOKEN}`]: { ...REPLY, otp_enabled: true },
    });
    const app = renderApp(`/login?sso_token=${TOKEN}`);
    await waitFor(() => expect(app.location()).toBe('/mfaComfirm'));
  });

  it("says 'Check SSO Failed' when the credential is refused", async () => {
    serve(REPLY, account(), {
      [`POST /api/auth/pw_sso/${TOKEN}`]: apiError(401, 'InvalidToken'),
    });
    const app = renderApp(`/login?sso_token=${TOKEN}`);
    expect(await screen.findByText(MESSAGES.checkSsoFailed.en)).toBeInTheDocument();
    expect(app.location()).toBe('/login');
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeInTheDocument();
  });
});

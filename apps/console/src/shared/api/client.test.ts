import { afterEach, describe, expect, it, vi } from 'vitest';
import { accountRoutes, authRoutes, teamRoutes } from '@portcullis/contract';
import { apiError, mockApi } from '../../test/api-mock';
import { account } from '../../test/fixtures';
import { ApiError, callApi, setSessionErrorHandler } from './client';

afterEach(() => {
  vi.unstubAllGlobals();
  setSessionErrorHandler(() => undefined);
});

describe('callApi', () => {
  it('sends the CSRF cookie back in a header on state-changing calls only', async () => {
    document.cookie = 'pc_csrf=tok123; path=/';
    const { calls } = mockApi({
      'POST /api/auth/logout': { ok: true },
      'GET /api/current_account': account(),
    });
    await callApi(authRoutes.logout);
    await callApi(accountRoutes.currentAccount);
    expect(calls[0]?.headers['x-csrf-token']).toBe('tok123');
    expect(calls[1]?.headers['x-csrf-token']).toBeUndefined();
  });

  it('sends the CSRF header on a GET that changes state (reset_mfa)', async () => {
    document.cookie = 'pc_csrf=tok456; path=/';
    const { calls } = mockApi({ 'GET /api/v1/account/reset_mfa': { ok: true } });
    await callApi(teamRoutes.resetMemberMfa, { query: { account_id: 7 } });
    expect(calls[0]?.headers['x-csrf-token']).toBe('tok456');
    expect(calls[0]?.query.get('account_id')).toBe('7');
  });

  it('fills path parameters and the query string', async () => {
    const { calls } = mockApi({
      'GET /api/auth/is_open_sso/my%20team': {
        is_open_sso: false,
        mfa: false,
        is_account_password: true,
        sso_service: '',
      },
      'GET /api/account_pubkey': { objects: [], num_results: 0, total_pages: 0, page: 2 },
    });
    await callApi(authRoutes.isOpenSso, { params: { domain: 'my team' } });
    await callApi(accountRoutes.listSshKeys, { query: { page: 2, page_size: 10 } });
    expect(calls[1]?.query.get('page')).toBe('2');
  });

  it('turns the error envelope into an ApiError and reports session codes', async () => {
    const onSession = vi.fn();
    setSessionErrorHandler(onSession);
    mockApi({
      'GET /api/current_account': apiError(401, 'NeedLogin', 'Need login.'),
      'POST /api/auth/login': apiError(400, 'CaptchaIncorrect'),
    });
    await expect(callApi(accountRoutes.currentAccount)).rejects.toMatchObject({
      code: 'NeedLogin',
      status: 401,
    });
    expect(onSession).toHaveBeenCalledWith('NeedLogin');
    const error = await callApi(authRoutes.login, {
      body: { domain: 'd', username: 'u', password: 'p' },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('CaptchaIncorrect');
    expect(onSession).toHaveBeenCalledTimes(1);
  });

  it('refuses a reply that does not match the contract', async () => {
    mockApi({ 'GET /api/current_account': { name: 'no id' } });
    await expect(callApi(accountRoutes.currentAccount)).rejects.toMatchObject({
      code: 'UnknowError',
    });
  });
});

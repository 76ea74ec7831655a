import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { authRoutes, ssoRoutes, type LoginBody, type LoginReply } from '@portcullis/contract';
import { callApi } from '../../shared/api/client';

export const loginKeys = {
  showCaptcha: (domain: string, username: string) => ['show_captcha', domain, username] as const,
  sso: (domain: string) => ['is_open_sso', domain] as const,
};

export function login(body: LoginBody): Promise<LoginReply> {
  return callApi(authRoutes.login, { body });
}

/** Trades the single-use credential of `/login?sso_token=` for a session. */
export function exchangeSsoToken(token: string): Promise<LoginReply> {
  return callApi(ssoRoutes.pwSso, { params: { token } });
}

/** Whether this team and account must answer a captcha (after a failed attempt). */
export function useShowCaptchaQuery(domain: string, username: string): UseQueryResult<boolean> {
  return useQuery({
    queryKey: loginKeys.showCaptcha(domain, username),
    queryFn: async () =>
      (await callApi(authRoutes.showCaptcha, { query: { domain, username } })).captcha,
    enabled: domain !== '' && username !== '',
    staleTime: 0,
    meta: { silent: true },
  });
}

/** Single sign-on for the team, when it is open. */
export function useSsoQuery(
  domain: string,
): UseQueryResult<{ is_open_sso: boolean; sso_service: string }> {
  return useQuery({
    queryKey: loginKeys.sso(domain),
    queryFn: () => callApi(authRoutes.isOpenSso, { params: { domain } }),
    enabled: domain !== '',
    staleTime: 60_000,
    meta: { silent: true },
  });
}

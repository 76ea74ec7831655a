/**
 * The signed-in session as every screen sees it: the current account query, logout, and the
 * step that follows a successful login (spec 1 §2.2), shared by the login, MFA and
 * forced-password screens.
 */
import { useCallback } from 'react';
import { useNavigate } from 'react-router-dom';
import { useMutation, useQuery, useQueryClient, type UseQueryResult } from '@tanstack/react-query';
import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  accountRoutes,
  authRoutes,
  isRole,
  landingPath,
  nextLoginStep,
  type CurrentAccount,
  type LoginReply,
  type Role,
} from '@portcullis/contract';
import { callApi } from '../api/client';
import { useErrorText } from '../i18n/errors';
import { PATHS } from '../routes';
import { takeReturn } from './return-to';

export const sessionKeys = {
  currentAccount: ['current_account'] as const,
};

export function fetchCurrentAccount(): Promise<CurrentAccount> {
  return callApi(accountRoutes.currentAccount);
}

export interface CurrentAccountQueryOptions {
  enabled?: boolean;
  /** Keep a failure to oneself: no notice (the login page probes for a session this way). */
  silent?: boolean;
}

export function useCurrentAccountQuery(
  options: CurrentAccountQueryOptions = {},
): UseQueryResult<CurrentAccount> {
  return useQuery({
    queryKey: sessionKeys.currentAccount,
    queryFn: fetchCurrentAccount,
    enabled: options.enabled ?? true,
    meta: options.silent ? { silent: true } : undefined,
  });
}

/** The account's role; an unexpected value is treated as the least privileged one. */
export function roleOf(account: Pick<CurrentAccount, 'is_admin'>): Role {
  return isRole(account.is_admin) ? account.is_admin : 0;
}

/**
 * Where a signed-in account belongs: an unfinished login step, /purchase without a plan, or
 * null when it may use the console (the password gate, if owed, shows there).
 */
export function pendingStepPath(account: CurrentAccount): string | null {
  // A password below the team's strength level (the level was raised during this session) is
  // the shell's gate: a modal leading to Account security. The server reports it as op
  // change_pwd as well; a fresh login in that state gets the forced-change screen from its
  // login reply, and calls its session may not make answer NeedChangePassword.
  if (account.op === 'change_pwd' && account.password_strength.password_ok) {
    return PATHS.compelChangePassword;
  }
  if (account.company_mfa && !account.otp_enabled) return PATHS.mfaOpen;
  if (!account.current_plan) return PATHS.purchase;
  return null;
}

/** Signs out (ignoring a session that is already gone), forgets cached data, goes to /login. */
export function useLogout(): { logout: (notice?: string) => Promise<void>; pending: boolean } {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { message } = App.useApp();
  const mutation = useMutation({
    mutationFn: () => callApi(authRoutes.logout),
    meta: { silent: true },
  });
  const { mutateAsync } = mutation;
  const logout = useCallback(
    async (notice?: string) => {
      try {
        await mutateAsync();
      } catch {
        // Already signed out: the destination is the same.
      }
      queryClient.clear();
      navigate(PATHS.login, { replace: true });
      if (notice) void message.success(notice);
    },
    [mutateAsync, queryClient, navigate, message],
  );
  return { logout, pending: mutation.isPending };
}

export interface ContinueLoginOptions {
  /** The TOTP code was just given: skip the one-time-password step. */
  afterOtp?: boolean;
}

/**
 * Sends the browser where a login reply says it goes next: /mfaComfirm, /compelChangePassword,
 * /mfaOpen, or (after loading the account) /purchase without a plan, else the role's landing
 * page with 'Login Successfully!'.
 */
export function useContinueLogin(): (
  reply: LoginReply,
  options?: ContinueLoginOptions,
) => Promise<void> {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { message } = App.useApp();
  const errorText = useErrorText();
  const finish = useFinishLogin();

  return useCallback(
    async (reply: LoginReply, options: ContinueLoginOptions = {}) => {
      const step = nextLoginStep(options.afterOtp ? { ...reply, otp_enabled: false } : reply);
      // Nothing cached from an earlier session may show in this one.
      queryClient.removeQueries({ predicate: (query) => query.getObserversCount() === 0 });
      queryClient.removeQueries({ queryKey: sessionKeys.currentAccount });
      if (step === 'mfaComfirm') navigate(PATHS.mfaConfirm);
      else if (step === 'compelChangePassword') navigate(PATHS.compelChangePassword);
      else if (step === 'mfaOpen') navigate(PATHS.mfaOpen);
      else {
        try {
          await finish();
        } catch (error) {
          void message.error(errorText(error));
        }
      }
    },
    [navigate, queryClient, message, errorText, finish],
  );
}

/** Loads the account and lands: /purchase without a plan, else the role's page. */
export function useFinishLogin(): () => Promise<void> {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { message } = App.useApp();
  const { t } = useTranslation();
  return useCallback(async () => {
    const account = await queryClient.fetchQuery({
      queryKey: sessionKeys.currentAccount,
      queryFn: fetchCurrentAccount,
      staleTime: 0,
    });
    const pending = pendingStepPath(account);
    if (pending) {
      navigate(pending, { replace: true });
      return;
    }
    navigate(takeReturn() ?? landingPath(roleOf(account)), { replace: true });
    void message.success(t('messages.loginSuccess'));
  }, [navigate, queryClient, message, t]);
}

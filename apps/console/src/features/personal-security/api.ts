import { useMutation, useQueryClient, type UseMutationResult } from '@tanstack/react-query';
import { accountRoutes } from '@portcullis/contract';
import { callApi } from '../../shared/api/client';
import { sessionKeys } from '../../shared/session/session';

function useInvalidateAccount(): () => Promise<void> {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: sessionKeys.currentAccount });
}

export function useChangePasswordMutation(): UseMutationResult<unknown, Error, string> {
  const invalidate = useInvalidateAccount();
  return useMutation({
    mutationFn: (pwd: string) => callApi(accountRoutes.changePassword, { body: { pwd } }),
    meta: { silent: true },
    onSuccess: invalidate,
  });
}

export function useSendSmsMutation(): UseMutationResult<unknown, Error, string> {
  return useMutation({
    mutationFn: (mobile: string) =>
      callApi(accountRoutes.sendVerifySms, { body: { mobile: mobile.trim() } }),
    meta: { silent: true },
  });
}

export function useVerifyMobileMutation(): UseMutationResult<
  unknown,
  Error,
  { mobile: string; code: string }
> {
  const invalidate = useInvalidateAccount();
  return useMutation({
    mutationFn: ({ mobile, code }) =>
      callApi(accountRoutes.verifyMobile, { body: { mobile: mobile.trim(), code: code.trim() } }),
    meta: { silent: true },
    onSuccess: invalidate,
  });
}

export function useDisableMfaMutation(): UseMutationResult<
  unknown,
  Error,
  { first_code: string; second_code: string }
> {
  const invalidate = useInvalidateAccount();
  return useMutation({
    mutationFn: (codes) =>
      callApi(accountRoutes.accountMfa, {
        body: {
          first_code: codes.first_code.trim(),
          second_code: codes.second_code.trim(),
          otp_enabled: 0,
        },
      }),
    meta: { silent: true },
    onSuccess: invalidate,
  });
}

import {
  keepPreviousData,
  useMutation,
  useQuery,
  useQueryClient,
  type UseMutationResult,
  type UseQueryResult,
} from '@tanstack/react-query';
import { accountRoutes, PAGE_SIZE_DEFAULT, type SshKey } from '@portcullis/contract';
import { callApi } from '../../shared/api/client';

export const sshKeyKeys = {
  all: ['account_pubkey'] as const,
  page: (page: number) => ['account_pubkey', page] as const,
};

export interface SshKeyPage {
  objects: SshKey[];
  num_results: number;
  total_pages: number;
  page: number;
}

export function useSshKeysQuery(page: number): UseQueryResult<SshKeyPage> {
  return useQuery({
    queryKey: sshKeyKeys.page(page),
    queryFn: () =>
      callApi(accountRoutes.listSshKeys, { query: { page, page_size: PAGE_SIZE_DEFAULT } }),
    placeholderData: keepPreviousData,
  });
}

export function useCreateSshKeyMutation(): UseMutationResult<
  SshKey,
  Error,
  { title: string; pubkey: string }
> {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body) =>
      callApi(accountRoutes.createSshKey, {
        body: { title: body.title.trim(), pubkey: body.pubkey.trim() },
      }),
    meta: { silent: true },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sshKeyKeys.all }),
  });
}

export function useDeleteSshKeyMutation(): UseMutationResult<unknown, Error, number> {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => callApi(accountRoutes.deleteSshKey, { params: { id } }),
    meta: { silent: true },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sshKeyKeys.all }),
  });
}

import { useMutation, useQueryClient, type UseMutationResult } from '@tanstack/react-query';
import { accountRoutes } from '@portcullis/contract';
import { callApi } from '../../shared/api/client';
import { readFileAsBase64 } from '../../shared/files';
import { avatarExtension } from '../../shared/form/rules';
import { sessionKeys } from '../../shared/session/session';

export function useUpdateNameMutation(): UseMutationResult<unknown, Error, string> {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) =>
      callApi(accountRoutes.updateCurrentAccount, { body: { name: name.trim() } }),
    meta: { silent: true },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sessionKeys.currentAccount }),
  });
}

/** Uploads an avatar through POST /file, then points the account at it. */
export function useUploadAvatarMutation(): UseMutationResult<unknown, Error, File> {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (file: File) => {
      const extension = avatarExtension(file);
      if (!extension) throw new Error('unsupported file type');
      const content = await readFileAsBase64(file);
      const uploaded = await callApi(accountRoutes.uploadFile, {
        body: { content, extension, file_name: file.name, file_size: file.size },
      });
      await callApi(accountRoutes.updateCurrentAccount, { body: { avatar: uploaded.file_uuid } });
    },
    meta: { silent: true },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sessionKeys.currentAccount }),
  });
}

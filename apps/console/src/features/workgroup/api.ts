/**
 * The members' workgroup calls (spec 1 §7 Workgroups and codes): the workgroup list with its
 * star, one workgroup, its servers and databases, the default login user, and connection codes
 * with temporary authorizations, each a query or mutation over the contract's descriptors. A
 * write refreshes every list it can change (a new code changes the resource rows' masked code).
 */
import {
  keepPreviousData,
  useMutation,
  useQuery,
  useQueryClient,
  type UseMutationResult,
  type UseQueryResult,
} from '@tanstack/react-query';
import type { z } from 'zod';
import {
  codeRoutes,
  PAGE_SIZE_DEFAULT,
  PAGER_THRESHOLD_WORKGROUP_LIST,
  workgroupRoutes,
  type Code,
  type CreateCodeBodySchema,
  type ProjectResource,
  type SearchTunnelReply,
  type TmpShareBodySchema,
  type TmpShareReplySchema,
  type UpdateCodeBodySchema,
  type WebTerminalTokenReply,
  type Workgroup,
  webTerminalRoutes,
} from '@portcullis/contract';
import { callApi } from '../../shared/api/client';
import { searchTunnelList } from '../action-log/api';
import type { ResourceTab } from './paths';

export interface Paged<T> {
  objects: T[];
  num_results: number;
  total_pages: number;
  page: number;
}

export type CreateCodeBody = z.input<typeof CreateCodeBodySchema>;
export type UpdateCodeBody = z.input<typeof UpdateCodeBodySchema>;
export type TmpShareBody = z.input<typeof TmpShareBodySchema>;
export type TmpShareReply = z.infer<typeof TmpShareReplySchema>;

/** The list is a grid of nine cards: the pager shows only above nine (spec 1 §2.6, §9). */
export const WORKGROUP_PAGE_SIZE = PAGER_THRESHOLD_WORKGROUP_LIST;

export type SearchField = 'q_name' | 'q_ip';

export interface WorkgroupFilter {
  page: number;
  field: SearchField;
  text?: string | undefined;
  /** Only the starred workgroups. */
  starred: boolean;
}

export interface ResourceFilter {
  page: number;
  q_name?: string | undefined;
  q_ip?: string | undefined;
}

export const workgroupKeys = {
  all: ['workgroups'] as const,
  lists: ['workgroups', 'list'] as const,
  list: (filter: WorkgroupFilter) => ['workgroups', 'list', filter] as const,
  starredCount: ['workgroups', 'list', 'starred-count'] as const,
  one: (id: number) => ['workgroups', 'one', id] as const,
  resources: (id: number) => ['workgroups', 'resources', id] as const,
  resourcePage: (id: number, tab: ResourceTab, filter: ResourceFilter) =>
    ['workgroups', 'resources', id, tab, filter] as const,
};

export const connectLogKeys = {
  page: (resourceId: number, page: number) => ['action-log', 'resource', resourceId, page] as const,
};

export const codeKeys = {
  all: ['codes'] as const,
  clientIp: ['client-ip'] as const,
  list: (projectResourceId: number, page: number) => ['codes', projectResourceId, page] as const,
};

/** An empty search means no filter: the key is left out rather than sent empty. */
function text(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

// Workgroups

export function useWorkgroupsQuery(filter: WorkgroupFilter): UseQueryResult<Paged<Workgroup>> {
  return useQuery({
    queryKey: workgroupKeys.list(filter),
    queryFn: () =>
      callApi(workgroupRoutes.listWorkgroups, {
        query: {
          page: filter.page,
          page_size: WORKGROUP_PAGE_SIZE,
          [filter.field]: text(filter.text),
          q_favourite: filter.starred ? 1 : undefined,
        },
      }),
    placeholderData: keepPreviousData,
  });
}

/** How many workgroups the member starred (the Star toggle is off without any). */
export function useStarredCountQuery(): UseQueryResult<number> {
  return useQuery({
    queryKey: workgroupKeys.starredCount,
    queryFn: async () =>
      (
        await callApi(workgroupRoutes.listWorkgroups, {
          query: { page: 1, page_size: 1, q_favourite: 1 },
        })
      ).num_results,
  });
}

export function useFavouriteMutation(): UseMutationResult<
  unknown,
  Error,
  { id: number; favourite: 0 | 1 }
> {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, favourite }) =>
      callApi(workgroupRoutes.setFavourite, { params: { id }, body: { favourite } }),
    meta: { silent: true },
    onSuccess: (_reply, { id }) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: workgroupKeys.lists }),
        queryClient.invalidateQueries({ queryKey: workgroupKeys.one(id) }),
      ]),
  });
}

export function useWorkgroupQuery(id: number): UseQueryResult<Workgroup> {
  return useQuery({
    queryKey: workgroupKeys.one(id),
    queryFn: () => callApi(workgroupRoutes.getWorkgroup, { params: { id } }),
    enabled: id > 0,
    meta: { silent: true },
  });
}

/**
 * A workgroup's servers or databases, refreshed every 10 s so the availability dot and the
 * session counts follow the gateways.
 */
export function useProjectResourcesQuery(
  id: number,
  tab: ResourceTab,
  filter: ResourceFilter,
): UseQueryResult<Paged<ProjectResource>> {
  return useQuery({
    queryKey: workgroupKeys.resourcePage(id, tab, filter),
    queryFn: () =>
      callApi(workgroupRoutes.listWorkgroupResources, {
        params: { id },
        query: {
          page: filter.page,
          page_size: PAGE_SIZE_DEFAULT,
          type: tab,
          q_name: text(filter.q_name),
          q_ip: text(filter.q_ip),
        },
      }),
    enabled: id > 0,
    placeholderData: keepPreviousData,
    refetchInterval: 10_000,
  });
}

export function useDefaultUsernameMutation(
  projectId: number,
): UseMutationResult<ProjectResource, Error, { id: number; username: string }> {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, username }) =>
      callApi(workgroupRoutes.setDefaultUsername, {
        params: { id },
        body: { default_username: username },
      }),
    meta: { silent: true },
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: workgroupKeys.resources(projectId) }),
  });
}

// Codes

/** The enabled codes of one resource the member may manage (their own, or all as its admin). */
export function useCodesQuery(
  projectResourceId: number,
  page: number,
  enabled: boolean,
): UseQueryResult<Paged<Code>> {
  return useQuery({
    queryKey: codeKeys.list(projectResourceId, page),
    queryFn: () =>
      callApi(codeRoutes.listCodes, {
        query: {
          project_resource_id: projectResourceId,
          status: 'enable',
          page,
          page_size: PAGE_SIZE_DEFAULT,
        },
      }),
    enabled: enabled && projectResourceId > 0,
    placeholderData: keepPreviousData,
  });
}

/**
 * The member's own valid code for one resource (what Connect shows), or null. Asked for by
 * owner, type and expiry rather than looked for in a page of every code the caller manages,
 * where newer codes (temporary authorizations, other members' for an administrator) hid it.
 */
export function useOwnCodeQuery(
  projectResourceId: number,
  accountId: number | undefined,
): UseQueryResult<Code | null> {
  return useQuery({
    queryKey: [...codeKeys.all, 'own', projectResourceId, accountId],
    queryFn: async () => {
      const found = await callApi(codeRoutes.listCodes, {
        query: {
          project_resource_id: projectResourceId,
          account_id: accountId,
          type: 'normal',
          status: 'enable',
          expire_time_gt: Math.floor(Date.now() / 1000),
          page: 1,
          page_size: PAGE_SIZE_DEFAULT,
        },
      });
      return found.objects.find((c) => !c.masked) ?? null;
    },
    enabled: accountId !== undefined && projectResourceId > 0,
  });
}

/** The caller's address as the server sees it (offered as an allowed IP). */
export function useClientIpQuery(): UseQueryResult<{ ip: string }> {
  return useQuery({
    queryKey: codeKeys.clientIp,
    queryFn: () => callApi(codeRoutes.clientIp),
    staleTime: Infinity,
    meta: { silent: true },
  });
}

function useCodeWrite<TBody, TReply>(
  projectId: number,
  mutationFn: (body: TBody) => Promise<TReply>,
  options: { gcTime?: number } = {},
): UseMutationResult<TReply, Error, TBody> {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    meta: { silent: true },
    ...options,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: codeKeys.all }),
        queryClient.invalidateQueries({ queryKey: workgroupKeys.resources(projectId) }),
      ]),
  });
}

export function useCreateCodeMutation(
  projectId: number,
): UseMutationResult<Code, Error, CreateCodeBody> {
  return useCodeWrite(projectId, (body: CreateCodeBody) =>
    callApi(codeRoutes.createCode, { body }),
  );
}

/** Changes a code, or deletes it with `{ status: 'disable' }` (spec 1 §2.7). */
export function useUpdateCodeMutation(
  projectId: number,
): UseMutationResult<Code, Error, { id: number; body: UpdateCodeBody }> {
  return useCodeWrite(projectId, ({ id, body }: { id: number; body: UpdateCodeBody }) =>
    callApi(codeRoutes.updateCode, { params: { id }, body }),
  );
}

/**
 * A temporary authorization. Its reply carries the one-time password: the mutation is dropped
 * from the cache as soon as nothing observes it (gcTime 0), and the caller resets it once the
 * result dialog holds the reply, so the password lives only while that dialog is open.
 */
export function useTmpShareMutation(
  projectId: number,
): UseMutationResult<TmpShareReply, Error, TmpShareBody> {
  return useCodeWrite(
    projectId,
    (body: TmpShareBody) => callApi(codeRoutes.createTmpShare, { body }),
    { gcTime: 0 },
  );
}

/** A single-use token (60 s) opening the web terminal with the caller's own code. */
export function useWebTerminalTokenMutation(): UseMutationResult<
  WebTerminalTokenReply,
  Error,
  number
> {
  return useMutation({
    mutationFn: (projectResourceId: number) =>
      callApi(webTerminalRoutes.createWebTerminalToken, {
        body: { project_resource_id: projectResourceId },
      }),
    // The terminal shows the failure in place (an Alert with the catalogue's text).
    meta: { silent: true },
  });
}

/**
 * One resource's sessions for the Connect Logs panel (spec 1 §2.7): the action log narrowed to
 * the resource, 10 a page. The server answers a member with their own sessions only.
 */
export function useConnectLogsQuery(
  resourceId: number,
  page: number,
  enabled: boolean,
): UseQueryResult<SearchTunnelReply> {
  return useQuery({
    queryKey: connectLogKeys.page(resourceId, page),
    queryFn: ({ signal }) =>
      callApi(searchTunnelList, {
        query: { resource_id: resourceId, page_index: page, page_size: PAGE_SIZE_DEFAULT },
        signal,
      }),
    enabled: enabled && resourceId > 0,
    placeholderData: keepPreviousData,
  });
}

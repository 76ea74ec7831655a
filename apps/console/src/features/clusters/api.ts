/**
 * The cluster pages' calls (spec 2 §7 Cluster, Resources and Scan): clusters, their gateway
 * scripts, sharing, log filters, safe mode, resources, database security, spreadsheet import,
 * the connectivity test, the key upload and key test, and the scan, each a query or mutation
 * over the contract's route descriptors. A write refreshes every list it can change.
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
  agentRoutes,
  clusterRoutes,
  clusterSettingRoutes,
  PAGE_SIZE_CLUSTER_LIST,
  PAGE_SIZE_DEFAULT,
  PAGE_SIZE_MAX,
  POLL_KEY_TEST_MS,
  POLL_KEY_UPLOAD_MS,
  POLL_SCAN_MS,
  resourceRoutes,
  teamRoutes,
  type AgentScriptsSchema,
  type Cluster,
  type ConnectionTestStatusSchema,
  type CreateResourceBodySchema,
  type DatabaseSecuritySchema,
  type InterceptCommandSchema,
  type KeyTaskStatus,
  type LogFilterSchema,
  type Member,
  type Resource,
  type SafeModeSchema,
  type ScanStartBodySchema,
  type ScanStatusSchema,
  type ShareSchema,
  type UpdateClusterBodySchema,
  type UpdateDatabaseSecurityBodySchema,
  type UpdateResourceBodySchema,
} from '@portcullis/contract';
import { callApi } from '../../shared/api/client';
import { onlineKeys } from '../../shared/online/api';

export interface Paged<T> {
  objects: T[];
  num_results: number;
  total_pages: number;
  page: number;
}

export type AgentScripts = z.infer<typeof AgentScriptsSchema>;
export type Share = z.infer<typeof ShareSchema>;
export type LogFilter = z.infer<typeof LogFilterSchema>;
export type SafeMode = z.infer<typeof SafeModeSchema>;
export type InterceptCommand = z.infer<typeof InterceptCommandSchema>;
export type UpdateClusterBody = z.input<typeof UpdateClusterBodySchema>;
export type CreateResourceBody = z.input<typeof CreateResourceBodySchema>;
export type UpdateResourceBody = z.input<typeof UpdateResourceBodySchema>;
export type DatabaseSecurity = z.infer<typeof DatabaseSecuritySchema>;
export type UpdateDatabaseSecurityBody = z.input<typeof UpdateDatabaseSecurityBodySchema>;
export type ScanStartBody = z.input<typeof ScanStartBodySchema>;
export type ScanStatus = z.infer<typeof ScanStatusSchema>;
export type TestOutcome = z.infer<typeof ConnectionTestStatusSchema>;
export type TestStatus = TestOutcome['status'];
export type ResourceKind = 'ecs' | 'rds';
export type { KeyTaskStatus };
/** A key upload installs the resource's key for a login user; a key test logs in with it. */
export type KeyTaskKind = 'upload' | 'test';

/**
 * The connectivity test is polled every second while pending (spec 2 §4: "polled every 1 s";
 * the contract's POLL_CONNECTION_TEST_MS is the other reading of the resource flow, 3 s).
 */
export const CONNECTION_TEST_POLL_MS = 1000;

export interface ClusterFilter {
  page: number;
  name?: string | undefined;
}

export interface ResourceFilter {
  page: number;
  name?: string | undefined;
  os?: Resource['os'] | undefined;
}

export const clusterKeys = {
  all: ['clusters'] as const,
  list: ['clusters', 'list'] as const,
  listPage: (filter: ClusterFilter) => ['clusters', 'list', filter] as const,
  one: (id: number) => ['clusters', 'one', id] as const,
  scripts: (id: number) => ['clusters', 'scripts', id] as const,
  shares: (id: number) => ['clusters', 'shares', id] as const,
  logFilters: (id: number) => ['clusters', 'log-filters', id] as const,
  safeMode: (id: number) => ['clusters', 'safe-mode', id] as const,
  intercepts: (id: number) => ['clusters', 'intercepts', id] as const,
  members: ['clusters', 'members'] as const,
  resources: (id: number) => ['clusters', 'resources', id] as const,
  resourcePage: (id: number, kind: ResourceKind, filter: ResourceFilter) =>
    ['clusters', 'resources', id, kind, filter] as const,
  security: (id: number) => ['clusters', 'security', id] as const,
  test: (taskId: string) => ['clusters', 'test', taskId] as const,
  keyTask: (kind: KeyTaskKind, taskId: string) => ['clusters', 'key-task', kind, taskId] as const,
  scan: (taskId: string, hide: boolean) => ['clusters', 'scan', taskId, hide] as const,
};

/** An empty search means no filter: the key is left out rather than sent empty. */
function text(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

// Clusters

export function useClustersQuery(filter: ClusterFilter): UseQueryResult<Paged<Cluster>> {
  return useQuery({
    queryKey: clusterKeys.listPage(filter),
    queryFn: () =>
      callApi(clusterRoutes.listClusters, {
        query: { page: filter.page, page_size: PAGE_SIZE_CLUSTER_LIST, q_name: text(filter.name) },
      }),
    placeholderData: keepPreviousData,
  });
}

/** One cluster; refreshed every 10 s so the available badge follows the gateway. */
export function useClusterQuery(id: number): UseQueryResult<Cluster> {
  return useQuery({
    queryKey: clusterKeys.one(id),
    queryFn: () => callApi(clusterRoutes.getCluster, { params: { id } }),
    enabled: id > 0,
    refetchInterval: 10_000,
  });
}

export function useCreateClusterMutation(): UseMutationResult<Cluster, Error, string> {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name) => callApi(clusterRoutes.createCluster, { body: { name: name.trim() } }),
    meta: { silent: true },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: clusterKeys.list }),
  });
}

export function useUpdateClusterMutation(
  id: number,
): UseMutationResult<Cluster, Error, UpdateClusterBody> {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body) => callApi(clusterRoutes.updateCluster, { params: { id }, body }),
    meta: { silent: true },
    onSuccess: (cluster) => {
      queryClient.setQueryData(clusterKeys.one(id), cluster);
      return queryClient.invalidateQueries({ queryKey: clusterKeys.list });
    },
  });
}

/** Deletes an own cluster, or returns a shared one (the same call). */
export function useDeleteClusterMutation(): UseMutationResult<unknown, Error, number> {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id) => callApi(clusterRoutes.deleteCluster, { params: { id } }),
    meta: { silent: true },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: clusterKeys.list }),
  });
}

export function useAgentScriptsQuery(id: number, enabled: boolean): UseQueryResult<AgentScripts> {
  return useQuery({
    queryKey: clusterKeys.scripts(id),
    queryFn: () => callApi(clusterRoutes.agentScripts, { params: { id } }),
    enabled: enabled && id > 0,
  });
}

// Sharing and log filters

export function useSharesQuery(id: number, enabled: boolean): UseQueryResult<Share[]> {
  return useQuery({
    queryKey: clusterKeys.shares(id),
    queryFn: () => callApi(clusterSettingRoutes.listShares, { params: { id } }),
    enabled: enabled && id > 0,
  });
}

export type ShareChange =
  { action: 'add'; domain: string } | { action: 'cancel'; share_id: number };

export function useChangeSharesMutation(
  id: number,
): UseMutationResult<Share[], Error, ShareChange> {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body) => callApi(clusterSettingRoutes.changeShares, { params: { id }, body }),
    meta: { silent: true },
    onSuccess: (shares) => queryClient.setQueryData(clusterKeys.shares(id), shares),
  });
}

export function useLogFiltersQuery(id: number): UseQueryResult<LogFilter[]> {
  return useQuery({
    queryKey: clusterKeys.logFilters(id),
    queryFn: () => callApi(clusterSettingRoutes.listLogFilters, { params: { id } }),
    enabled: id > 0,
  });
}

export function useCreateLogFilterMutation(
  id: number,
): UseMutationResult<LogFilter, Error, string> {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (condition) =>
      callApi(clusterSettingRoutes.createLogFilter, {
        body: { network_id: id, condition: condition.trim() },
      }),
    meta: { silent: true },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: clusterKeys.logFilters(id) }),
  });
}

export function useDeleteLogFiltersMutation(
  id: number,
): UseMutationResult<unknown, Error, number[]> {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (ids) =>
      ids.length === 1
        ? callApi(clusterSettingRoutes.deleteLogFilter, { params: { id: ids[0] ?? 0 } })
        : callApi(clusterSettingRoutes.batchDeleteLogFilters, { params: { ids: ids.join(',') } }),
    meta: { silent: true },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: clusterKeys.logFilters(id) }),
  });
}

// Safe mode

export function useSafeModeQuery(id: number, enabled: boolean): UseQueryResult<SafeMode> {
  return useQuery({
    queryKey: clusterKeys.safeMode(id),
    queryFn: () => callApi(clusterSettingRoutes.safeMode, { params: { id } }),
    enabled: enabled && id > 0,
  });
}

export function useInterceptsQuery(
  id: number,
  enabled: boolean,
): UseQueryResult<InterceptCommand[]> {
  return useQuery({
    queryKey: clusterKeys.intercepts(id),
    queryFn: () => callApi(clusterSettingRoutes.listIntercepts, { query: { network_id: id } }),
    enabled: enabled && id > 0,
  });
}

/** Approvers and notifiers are picked among the team's members. */
export function useMembersQuery(enabled: boolean): UseQueryResult<Member[]> {
  return useQuery({
    queryKey: clusterKeys.members,
    queryFn: async () =>
      (await callApi(teamRoutes.listMembers, { query: { page: 1, page_size: PAGE_SIZE_MAX } }))
        .objects,
    enabled,
  });
}

export interface SafeModeSave {
  settings: {
    safe_mode: boolean;
    safe_mode_approver: boolean;
    safe_mode_notice: boolean;
    approver_accounts: number[];
    notice_accounts: number[];
    /** Disconnect the terminals open in the cluster, so that the new settings apply at once. */
    cut_sessions: boolean;
  };
  intercept: string[];
  notice: string[];
}

/**
 * Saves the Safe mode panel in the spec's order (§4): removed commands are deleted, then the
 * new ones added, then the cluster's safe-mode settings patched.
 */
export function useSaveSafeModeMutation(
  id: number,
  current: InterceptCommand[],
): UseMutationResult<SafeMode, Error, SafeModeSave> {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ settings, intercept, notice }) => {
      const keep = { intercept: new Set(intercept), notice: new Set(notice) };
      const removed = current.filter((c) => !keep[c.kind].has(c.command));
      const removedIntercepts = removed.filter((c) => c.kind === 'intercept').map((c) => c.id);
      const removedNotices = removed.filter((c) => c.kind === 'notice').map((c) => c.id);
      if (removedIntercepts.length > 0) {
        await callApi(clusterSettingRoutes.deleteIntercepts, {
          params: { ids: removedIntercepts.join(',') },
        });
      }
      if (removedNotices.length > 0) {
        await callApi(clusterSettingRoutes.deleteNotices, {
          params: { ids: removedNotices.join(',') },
        });
      }
      const have = (kind: InterceptCommand['kind'], command: string): boolean =>
        current.some((c) => c.kind === kind && c.command === command);
      const added = {
        intercept: intercept.filter((c) => !have('intercept', c)),
        notice: notice.filter((c) => !have('notice', c)),
      };
      if (added.intercept.length > 0 || added.notice.length > 0) {
        await callApi(clusterSettingRoutes.addIntercepts, { body: { network_id: id, ...added } });
      }
      // Last, after the lists: a save that disconnects the open terminals does it here.
      return callApi(clusterSettingRoutes.updateSafeMode, { params: { id }, body: settings });
    },
    meta: { silent: true },
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: onlineKeys.all }),
        queryClient.invalidateQueries({ queryKey: clusterKeys.safeMode(id) }),
        queryClient.invalidateQueries({ queryKey: clusterKeys.intercepts(id) }),
        queryClient.invalidateQueries({ queryKey: clusterKeys.one(id) }),
      ]),
  });
}

// Resources

export function useResourcesQuery(
  id: number,
  kind: ResourceKind,
  filter: ResourceFilter,
): UseQueryResult<Paged<Resource>> {
  return useQuery({
    queryKey: clusterKeys.resourcePage(id, kind, filter),
    queryFn: () =>
      callApi(resourceRoutes.listResources, {
        params: { id },
        query: {
          type: kind,
          page: filter.page,
          page_size: PAGE_SIZE_DEFAULT,
          q_name: text(filter.name),
          q_os: filter.os,
        },
      }),
    placeholderData: keepPreviousData,
    enabled: id > 0,
  });
}

function useRefreshResources(id: number): () => Promise<unknown> {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: clusterKeys.resources(id) }),
      queryClient.invalidateQueries({ queryKey: clusterKeys.one(id) }),
      queryClient.invalidateQueries({ queryKey: clusterKeys.list }),
    ]);
}

export function useCreateResourceMutation(
  id: number,
): UseMutationResult<Resource, Error, CreateResourceBody> {
  const refresh = useRefreshResources(id);
  return useMutation({
    mutationFn: (body) => callApi(resourceRoutes.createResource, { body }),
    meta: { silent: true },
    onSuccess: refresh,
  });
}

/** Creates several resources one after the other (scan import); stops at the first failure. */
export function useCreateResourcesMutation(
  id: number,
): UseMutationResult<number, Error, CreateResourceBody[]> {
  const refresh = useRefreshResources(id);
  return useMutation({
    mutationFn: async (bodies) => {
      for (const body of bodies) await callApi(resourceRoutes.createResource, { body });
      return bodies.length;
    },
    meta: { silent: true },
    onSettled: refresh,
  });
}

export function useUpdateResourceMutation(
  id: number,
): UseMutationResult<Resource, Error, { resourceId: number; body: UpdateResourceBody }> {
  const refresh = useRefreshResources(id);
  return useMutation({
    mutationFn: ({ resourceId, body }) =>
      callApi(resourceRoutes.updateResource, { params: { id: resourceId }, body }),
    meta: { silent: true },
    onSuccess: refresh,
  });
}

export function useDeleteResourcesMutation(
  id: number,
): UseMutationResult<unknown, Error, number[]> {
  const refresh = useRefreshResources(id);
  return useMutation({
    mutationFn: (ids) =>
      ids.length === 1
        ? callApi(resourceRoutes.deleteResource, { params: { id: ids[0] ?? 0 } })
        : callApi(resourceRoutes.batchDeleteResources, { params: { ids: ids.join(',') } }),
    meta: { silent: true },
    onSuccess: refresh,
  });
}

export function useDatabaseSecurityQuery(resourceId: number): UseQueryResult<DatabaseSecurity> {
  return useQuery({
    queryKey: clusterKeys.security(resourceId),
    queryFn: () => callApi(resourceRoutes.databaseSecurity, { params: { id: resourceId } }),
    enabled: resourceId > 0,
  });
}

export function useUpdateDatabaseSecurityMutation(
  resourceId: number,
): UseMutationResult<DatabaseSecurity, Error, UpdateDatabaseSecurityBody> {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body) =>
      callApi(resourceRoutes.updateDatabaseSecurity, { params: { id: resourceId }, body }),
    meta: { silent: true },
    onSuccess: (security) => queryClient.setQueryData(clusterKeys.security(resourceId), security),
  });
}

export interface BatchImportInput {
  resource_type: 'ecs' | 'database';
  data: string;
  file_name: string;
  extension: string;
}

export function useBatchImportMutation(
  id: number,
): UseMutationResult<{ imported: number }, Error, BatchImportInput> {
  const refresh = useRefreshResources(id);
  return useMutation({
    mutationFn: ({ resource_type, ...file }) =>
      callApi(resourceRoutes.batchImport, {
        body: { network_id: id, resource_type, content: [file] },
      }),
    meta: { silent: true },
    onSuccess: refresh,
  });
}

// Connectivity test and scan

export function useStartTestMutation(): UseMutationResult<
  { task_id: string },
  Error,
  { resource_id: number; username?: string | undefined }
> {
  return useMutation({
    mutationFn: (body) => callApi(resourceRoutes.connectionTest, { body }),
    meta: { silent: true },
  });
}

/** A running test's state, polled every second while pending. */
/** The test's status and, once it failed, the gateway's reason word (auth_failed, …). */
export function useTestStatusQuery(taskId: string | null): UseQueryResult<TestOutcome> {
  return useQuery({
    queryKey: clusterKeys.test(taskId ?? ''),
    queryFn: () =>
      callApi(resourceRoutes.connectionTestStatus, { query: { task_id: taskId ?? '' } }),
    enabled: taskId !== null,
    refetchInterval: (query) =>
      query.state.data?.status === 'pending' ? CONNECTION_TEST_POLL_MS : false,
    meta: { silent: true },
  });
}

// Key upload and key test (Linux servers)

/**
 * Starts a key upload: the gateway installs the resource's own key pair in the login user's
 * authorized_keys, signing in once with `password`. Deliberately not a mutation: TanStack Query
 * keeps a mutation's variables in its cache, and the password must not outlive this call.
 */
export async function startKeyUpload(
  resourceId: number,
  username: string,
  password: string,
): Promise<string> {
  const { task_id } = await callApi(agentRoutes.uploadKey, {
    params: { id: resourceId },
    body: { username, password },
  });
  return task_id;
}

export function useStartKeyTestMutation(): UseMutationResult<
  { task_id: string },
  Error,
  { resourceId: number; username: string }
> {
  return useMutation({
    mutationFn: ({ resourceId, username }) =>
      callApi(agentRoutes.testKey, { params: { id: resourceId }, body: { username } }),
    meta: { silent: true },
  });
}

/**
 * A key task's state, polled every second while pending (spec 1 §9 SSH key upload, spec 2 §9
 * key test). Its end changes the login user's test result, so the cluster's resources reload.
 */
export function useKeyTaskQuery(
  clusterId: number,
  kind: KeyTaskKind,
  taskId: string | null,
): UseQueryResult<KeyTaskStatus> {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: clusterKeys.keyTask(kind, taskId ?? ''),
    queryFn: async () => {
      const route = kind === 'upload' ? agentRoutes.uploadKeyStatus : agentRoutes.testKeyStatus;
      const status = await callApi(route, { query: { task_id: taskId ?? '' } });
      if (status.status !== 'pending') {
        void queryClient.invalidateQueries({ queryKey: clusterKeys.resources(clusterId) });
      }
      return status;
    },
    enabled: taskId !== null,
    refetchInterval: (query) =>
      query.state.data?.status === 'pending'
        ? kind === 'upload'
          ? POLL_KEY_UPLOAD_MS
          : POLL_KEY_TEST_MS
        : false,
    meta: { silent: true },
  });
}

export function useStartScanMutation(): UseMutationResult<
  { task_id: string },
  Error,
  ScanStartBody
> {
  return useMutation({
    mutationFn: (body) => callApi(resourceRoutes.scanStart, { body }),
    meta: { silent: true },
  });
}

/** A scan's rows, polled every 3 s while the gateway is still scanning. */
export function useScanStatusQuery(
  taskId: string | null,
  hideDuplicate: boolean,
): UseQueryResult<ScanStatus> {
  return useQuery({
    queryKey: clusterKeys.scan(taskId ?? '', hideDuplicate),
    queryFn: () =>
      callApi(resourceRoutes.scanStatus, {
        query: { task_id: taskId ?? '', hide_duplicate: hideDuplicate ? 1 : 0 },
      }),
    enabled: taskId !== null,
    refetchInterval: (query) => (query.state.data?.status === 'pending' ? POLL_SCAN_MS : false),
    meta: { silent: true },
  });
}

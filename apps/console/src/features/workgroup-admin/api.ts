/**
 * The workgroup administration calls (spec 2 §7 Workgroup): the list, one workgroup, its
 * resources and their candidates, login users, members, groups, and one member's workgroups
 * with bulk add and delete. Every write refreshes everything under `workgroupAdminKeys.all`:
 * the counts on the list and the candidates of the add panels all move together.
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
  PAGE_SIZE_DEFAULT,
  PAGE_SIZE_MAX,
  teamRoutes,
  workgroupRoutes,
  type AccountWorkgroupSchema,
  type GroupMemberRowSchema,
  type MemberCandidate,
  type ProjectResource,
  type ResourceCandidateSchema,
  type Workgroup,
  type WorkgroupGroupSchema,
  type WorkgroupMemberSchema,
  type WorkgroupRoleSchema,
} from '@portcullis/contract';
import { callApi } from '../../shared/api/client';

export type ResourceCandidate = z.infer<typeof ResourceCandidateSchema>;
export type WorkgroupMember = z.infer<typeof WorkgroupMemberSchema>;
export type WorkgroupGroup = z.infer<typeof WorkgroupGroupSchema>;
export type GroupMemberRow = z.infer<typeof GroupMemberRowSchema>;
export type AccountWorkgroup = z.infer<typeof AccountWorkgroupSchema>;
/** 0 ordinary, 1 administrator. */
export type MemberRole = z.infer<typeof WorkgroupRoleSchema>;

export interface Paged<T> {
  objects: T[];
  num_results: number;
  total_pages: number;
  page: number;
}

/** Servers (ecs) or databases (rds): the two resource tabs. */
export type ResourceKind = 'ecs' | 'rds';

/** The list's selectable search field (spec 2 §2: q_name by default, or q_ip). */
export type SearchField = 'q_name' | 'q_ip';

export interface SearchFilter {
  page: number;
  field: SearchField;
  text?: string | undefined;
}

export interface KeyFilter {
  page: number;
  key?: string | undefined;
}

export const workgroupAdminKeys = {
  all: ['workgroup-admin'] as const,
  list: (filter: SearchFilter) => ['workgroup-admin', 'list', filter] as const,
  allWorkgroups: ['workgroup-admin', 'list', 'all'] as const,
  one: (id: number) => ['workgroup-admin', 'one', id] as const,
  resources: (id: number, kind: ResourceKind, filter: SearchFilter) =>
    ['workgroup-admin', 'resources', id, kind, filter] as const,
  candidates: (id: number, kind: ResourceKind, filter: SearchFilter) =>
    ['workgroup-admin', 'candidates', id, kind, filter] as const,
  members: (id: number, filter: KeyFilter) => ['workgroup-admin', 'members', id, filter] as const,
  memberCandidates: (id: number, key: string) =>
    ['workgroup-admin', 'members', id, 'candidates', key] as const,
  groups: (id: number, page: number) => ['workgroup-admin', 'groups', id, page] as const,
  groupIds: (id: number) => ['workgroup-admin', 'groups', id, 'ids'] as const,
  groupMembers: (id: number, groupId: number, page: number) =>
    ['workgroup-admin', 'group-members', id, groupId, page] as const,
  accountWorkgroups: (accountId: number, page: number) =>
    ['workgroup-admin', 'account', accountId, page] as const,
  accountWorkgroupIds: (accountId: number) =>
    ['workgroup-admin', 'account', accountId, 'ids'] as const,
  teamGroups: ['workgroup-admin', 'team-groups'] as const,
};

/** An empty search means no filter: the key is left out rather than sent empty. */
function text(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

function searchQuery(filter: SearchFilter): { q_name?: string; q_ip?: string } {
  const value = text(filter.text);
  return value === undefined ? {} : { [filter.field]: value };
}

/** Refreshes every workgroup administration query (counts, lists, candidates). */
function useRefresh(): () => Promise<void> {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: workgroupAdminKeys.all });
}

// Workgroups

export function useWorkgroupsQuery(filter: SearchFilter): UseQueryResult<Paged<Workgroup>> {
  return useQuery({
    queryKey: workgroupAdminKeys.list(filter),
    queryFn: () =>
      callApi(workgroupRoutes.listWorkgroups, {
        query: { page: filter.page, page_size: PAGE_SIZE_DEFAULT, ...searchQuery(filter) },
      }),
    placeholderData: keepPreviousData,
  });
}

/** Every workgroup of the team (the Join WorkGroup picker). */
export function useAllWorkgroupsQuery(enabled: boolean): UseQueryResult<Workgroup[]> {
  return useQuery({
    queryKey: workgroupAdminKeys.allWorkgroups,
    queryFn: async () =>
      (
        await callApi(workgroupRoutes.listWorkgroups, {
          query: { page: 1, page_size: PAGE_SIZE_MAX },
        })
      ).objects,
    enabled,
  });
}

export function useWorkgroupQuery(id: number): UseQueryResult<Workgroup> {
  return useQuery({
    queryKey: workgroupAdminKeys.one(id),
    queryFn: () => callApi(workgroupRoutes.getWorkgroup, { params: { id } }),
    enabled: id > 0,
    // The page shows the not-found answer itself.
    meta: { silent: true },
  });
}

export interface WorkgroupInput {
  name: string;
  desc?: string | undefined;
}

export function useSaveWorkgroupMutation(): UseMutationResult<
  Workgroup,
  Error,
  WorkgroupInput & { id?: number | undefined }
> {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ id, name, desc }) => {
      const body = { name: name.trim(), desc: (desc ?? '').trim() };
      return id === undefined
        ? callApi(workgroupRoutes.createWorkgroup, { body })
        : callApi(workgroupRoutes.updateWorkgroup, { params: { id }, body });
    },
    meta: { silent: true },
    onSuccess: refresh,
  });
}

export function useDeleteWorkgroupMutation(): UseMutationResult<unknown, Error, number> {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (id) => callApi(workgroupRoutes.deleteWorkgroup, { params: { id } }),
    meta: { silent: true },
    onSuccess: refresh,
  });
}

// Resources

export function useWorkgroupResourcesQuery(
  id: number,
  kind: ResourceKind,
  filter: SearchFilter,
): UseQueryResult<Paged<ProjectResource>> {
  return useQuery({
    queryKey: workgroupAdminKeys.resources(id, kind, filter),
    queryFn: () =>
      callApi(workgroupRoutes.listWorkgroupResources, {
        params: { id },
        query: {
          type: kind,
          page: filter.page,
          page_size: PAGE_SIZE_DEFAULT,
          ...searchQuery(filter),
        },
      }),
    placeholderData: keepPreviousData,
    enabled: id > 0,
  });
}

export function useResourceCandidatesQuery(
  id: number,
  kind: ResourceKind,
  filter: SearchFilter,
): UseQueryResult<Paged<ResourceCandidate>> {
  return useQuery({
    queryKey: workgroupAdminKeys.candidates(id, kind, filter),
    queryFn: () =>
      callApi(workgroupRoutes.listResourceCandidates, {
        params: { id },
        query: {
          type: kind,
          page: filter.page,
          page_size: PAGE_SIZE_DEFAULT,
          ...searchQuery(filter),
        },
      }),
    placeholderData: keepPreviousData,
    enabled: id > 0,
  });
}

/** Adds or removes resources (by resource id, not project-resource id). */
export function useWorkgroupResourcesMutation(
  id: number,
  action: 'add' | 'remove',
): UseMutationResult<unknown, Error, number[]> {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (resourceIds) =>
      callApi(
        action === 'add'
          ? workgroupRoutes.addWorkgroupResources
          : workgroupRoutes.removeWorkgroupResources,
        { params: { id }, body: { resource_ids: resourceIds } },
      ),
    meta: { silent: true },
    onSuccess: refresh,
  });
}

export function useLoginUsernamesMutation(): UseMutationResult<
  ProjectResource,
  Error,
  { projectResourceId: number; usernames: string[] }
> {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ projectResourceId, usernames }) =>
      callApi(workgroupRoutes.setLoginUsernames, {
        params: { id: projectResourceId },
        body: { login_username: usernames },
      }),
    meta: { silent: true },
    onSuccess: refresh,
  });
}

// Members

export function useWorkgroupMembersQuery(
  id: number,
  filter: KeyFilter,
): UseQueryResult<Paged<WorkgroupMember>> {
  return useQuery({
    queryKey: workgroupAdminKeys.members(id, filter),
    queryFn: () =>
      callApi(workgroupRoutes.listWorkgroupMembers, {
        params: { id },
        query: { page: filter.page, page_size: PAGE_SIZE_DEFAULT, key: text(filter.key) },
      }),
    placeholderData: keepPreviousData,
    enabled: id > 0,
  });
}

/** Team members not in the workgroup yet, by name or account (the Distribute picker). */
export function useMemberCandidatesQuery(
  id: number,
  key: string,
): UseQueryResult<MemberCandidate[]> {
  return useQuery({
    queryKey: workgroupAdminKeys.memberCandidates(id, key),
    queryFn: () =>
      callApi(workgroupRoutes.workgroupMemberCandidates, {
        params: { id },
        query: { key: text(key) },
      }),
    placeholderData: keepPreviousData,
    enabled: id > 0,
  });
}

export function useAddWorkgroupMembersMutation(
  id: number,
): UseMutationResult<unknown, Error, { accountIds: number[]; role: MemberRole }> {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ accountIds, role }) =>
      callApi(workgroupRoutes.addWorkgroupMembers, {
        params: { id },
        body: { account_ids: accountIds, role },
      }),
    meta: { silent: true },
    onSuccess: refresh,
  });
}

export function useChangeMemberRoleMutation(
  id: number,
): UseMutationResult<WorkgroupMember, Error, { accountId: number; role: MemberRole }> {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ accountId, role }) =>
      callApi(workgroupRoutes.changeMemberRole, {
        params: { id },
        body: { account_id: accountId, role },
      }),
    meta: { silent: true },
    onSuccess: refresh,
  });
}

export function useRemoveWorkgroupMembersMutation(
  id: number,
): UseMutationResult<unknown, Error, number[]> {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (accountIds) =>
      callApi(workgroupRoutes.removeWorkgroupMembers, {
        params: { id },
        body: { account_ids: accountIds },
      }),
    meta: { silent: true },
    onSuccess: refresh,
  });
}

// Groups

export function useWorkgroupGroupsQuery(
  id: number,
  page: number,
): UseQueryResult<Paged<WorkgroupGroup>> {
  return useQuery({
    queryKey: workgroupAdminKeys.groups(id, page),
    queryFn: () =>
      callApi(workgroupRoutes.listWorkgroupGroups, {
        params: { id },
        query: { page, page_size: PAGE_SIZE_DEFAULT },
      }),
    placeholderData: keepPreviousData,
    enabled: id > 0,
  });
}

export function useWorkgroupGroupIdsQuery(
  id: number,
  enabled: boolean,
): UseQueryResult<Set<number>> {
  return useQuery({
    queryKey: workgroupAdminKeys.groupIds(id),
    queryFn: async () => {
      const page = await callApi(workgroupRoutes.listWorkgroupGroups, {
        params: { id },
        query: { page: 1, page_size: PAGE_SIZE_MAX },
      });
      return new Set(page.objects.map((g) => g.id));
    },
    enabled: enabled && id > 0,
  });
}

export function useWorkgroupGroupsMutation(
  id: number,
  action: 'add' | 'remove',
): UseMutationResult<unknown, Error, number[]> {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (groupIds) =>
      callApi(
        action === 'add'
          ? workgroupRoutes.addWorkgroupGroups
          : workgroupRoutes.removeWorkgroupGroups,
        { params: { id }, body: { group_ids: groupIds } },
      ),
    meta: { silent: true },
    onSuccess: refresh,
  });
}

/** Every group of the team, for the Add group autocomplete (which filters them by name). */
export function useTeamGroupsQuery(
  enabled: boolean,
): UseQueryResult<{ id: number; name: string; member_count: number }[]> {
  return useQuery({
    queryKey: workgroupAdminKeys.teamGroups,
    queryFn: async () =>
      (await callApi(teamRoutes.listGroups, { query: { page: 1, page_size: PAGE_SIZE_MAX } }))
        .objects,
    enabled,
  });
}

export function useGroupMembersQuery(
  id: number,
  groupId: number,
  page: number,
): UseQueryResult<Paged<GroupMemberRow>> {
  return useQuery({
    queryKey: workgroupAdminKeys.groupMembers(id, groupId, page),
    queryFn: () =>
      callApi(workgroupRoutes.workgroupGroupMembers, {
        params: { id },
        query: { group_id: groupId, page, page_size: PAGE_SIZE_DEFAULT },
      }),
    placeholderData: keepPreviousData,
    enabled: id > 0 && groupId > 0,
  });
}

// One member's workgroups

export function useAccountWorkgroupsQuery(
  accountId: number,
  page: number,
): UseQueryResult<Paged<AccountWorkgroup>> {
  return useQuery({
    queryKey: workgroupAdminKeys.accountWorkgroups(accountId, page),
    queryFn: () =>
      callApi(workgroupRoutes.accountWorkgroups, {
        params: { id: accountId },
        query: { page, page_size: PAGE_SIZE_DEFAULT },
      }),
    placeholderData: keepPreviousData,
    enabled: accountId > 0,
  });
}

/** The workgroups the member is a direct member of (the Join WorkGroup picker leaves them out). */
export function useAccountDirectWorkgroupIdsQuery(
  accountId: number,
  enabled: boolean,
): UseQueryResult<Set<number>> {
  return useQuery({
    queryKey: workgroupAdminKeys.accountWorkgroupIds(accountId),
    queryFn: async () => {
      const page = await callApi(workgroupRoutes.accountWorkgroups, {
        params: { id: accountId },
        query: { page: 1, page_size: PAGE_SIZE_MAX },
      });
      return new Set(page.objects.filter((w) => w.role !== null).map((w) => w.id));
    },
    enabled: enabled && accountId > 0,
  });
}

export function useBulkJoinMutation(
  accountId: number,
): UseMutationResult<unknown, Error, { projectIds: number[]; role: MemberRole }> {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ projectIds, role }) =>
      callApi(workgroupRoutes.bulkAddToWorkgroups, {
        body: { account_id: accountId, project_ids: projectIds, role },
      }),
    meta: { silent: true },
    onSuccess: refresh,
  });
}

export function useBulkExitMutation(
  accountId: number,
): UseMutationResult<unknown, Error, number[]> {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (projectIds) =>
      callApi(workgroupRoutes.bulkRemoveFromWorkgroups, {
        body: { account_id: accountId, project_ids: projectIds },
      }),
    meta: { silent: true },
    onSuccess: refresh,
  });
}

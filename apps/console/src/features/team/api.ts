/**
 * The team page's calls (spec 2 §7 Team): members, groups, team settings, plan and single
 * sign-on, each a query or mutation over the contract's route descriptors. A write refreshes
 * every list it can change; a write that can change the signed-in account (its own name, the
 * team's strength level) refreshes that too, so the shell's gate sees it at once.
 */
import {
  keepPreviousData,
  useMutation,
  useQuery,
  useQueryClient,
  type QueryClient,
  type UseMutationResult,
  type UseQueryResult,
} from '@tanstack/react-query';
import type { z } from 'zod';
import {
  PAGE_SIZE_DEFAULT,
  PAGE_SIZE_MAX,
  ssoRoutes,
  teamRoutes,
  type Group,
  type Member,
  type PlanInfoSchema,
  type SsoConfigReply,
  type SsoMetadataFile,
  type SsoMetadataInfo,
  type SsoUpdateBody,
  type TeamSettings,
  type UpdateTeamBodySchema,
} from '@portcullis/contract';
import { callApi } from '../../shared/api/client';
import { sessionKeys } from '../../shared/session/session';

export interface Paged<T> {
  objects: T[];
  num_results: number;
  total_pages: number;
  page: number;
}

export interface MemberFilter {
  page: number;
  role?: number | undefined;
  key?: string | undefined;
}

export interface GroupFilter {
  page: number;
  name?: string | undefined;
}

export interface GroupMemberFilter {
  page: number;
  key?: string | undefined;
}

export type PlanInfo = z.infer<typeof PlanInfoSchema>;
export type UpdateTeamBody = z.input<typeof UpdateTeamBodySchema>;
export interface NameListItem {
  id: number;
  name: string;
  account: string;
}

export const teamKeys = {
  all: ['team'] as const,
  members: ['team', 'members'] as const,
  memberPage: (filter: MemberFilter) => ['team', 'members', filter] as const,
  admins: ['team', 'members', 'admins'] as const,
  memberNames: ['team', 'member-names'] as const,
  groups: ['team', 'groups'] as const,
  groupPage: (filter: GroupFilter) => ['team', 'groups', filter] as const,
  group: (id: number) => ['team', 'groups', 'one', id] as const,
  allGroupMembers: ['team', 'group-members'] as const,
  groupMembers: (id: number) => ['team', 'group-members', id] as const,
  groupMemberPage: (id: number, filter: GroupMemberFilter) =>
    ['team', 'group-members', id, filter] as const,
  groupMemberIds: (id: number) => ['team', 'group-members', id, 'ids'] as const,
  settings: ['team', 'settings'] as const,
  plan: ['team', 'plan'] as const,
  sso: ['team', 'sso'] as const,
};

/** An empty search means no filter: the key is left out rather than sent empty. */
function text(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

// Members

export function useMembersQuery(filter: MemberFilter): UseQueryResult<Paged<Member>> {
  return useQuery({
    queryKey: teamKeys.memberPage(filter),
    queryFn: () =>
      callApi(teamRoutes.listMembers, {
        query: {
          page: filter.page,
          page_size: PAGE_SIZE_DEFAULT,
          q_is_admin: filter.role,
          key: text(filter.key),
        },
      }),
    placeholderData: keepPreviousData,
  });
}

/** Administrators (role 1), for the binding-administrator picker. */
export function useAdminsQuery(): UseQueryResult<Member[]> {
  return useQuery({
    queryKey: teamKeys.admins,
    queryFn: async () =>
      (
        await callApi(teamRoutes.listMembers, {
          query: { page: 1, page_size: PAGE_SIZE_MAX, q_is_admin: 1 },
        })
      ).objects,
  });
}

export function useMemberNamesQuery(enabled = true): UseQueryResult<NameListItem[]> {
  return useQuery({
    queryKey: teamKeys.memberNames,
    queryFn: () => callApi(teamRoutes.memberNames),
    enabled,
  });
}

function refreshMembers(queryClient: QueryClient): Promise<unknown> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: teamKeys.members }),
    queryClient.invalidateQueries({ queryKey: teamKeys.memberNames }),
    queryClient.invalidateQueries({ queryKey: teamKeys.plan }),
  ]);
}

export interface AddMemberInput {
  account: string;
  name: string;
  is_admin: 0 | 1 | 2 | 3;
}

export function useAddMemberMutation(): UseMutationResult<Member, Error, AddMemberInput> {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input) =>
      callApi(teamRoutes.addMember, {
        body: { account: input.account.trim(), name: input.name.trim(), is_admin: input.is_admin },
      }),
    meta: { silent: true },
    onSuccess: () => refreshMembers(queryClient),
  });
}

export interface UpdateMemberInput {
  id: number;
  change: { name?: string; is_admin?: number; pwd?: string; status?: boolean };
}

export function useUpdateMemberMutation(): UseMutationResult<Member, Error, UpdateMemberInput> {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, change }) =>
      callApi(teamRoutes.updateMember, { params: { id }, body: change }),
    meta: { silent: true },
    onSuccess: () =>
      Promise.all([
        refreshMembers(queryClient),
        queryClient.invalidateQueries({ queryKey: teamKeys.allGroupMembers }),
        queryClient.invalidateQueries({ queryKey: sessionKeys.currentAccount }),
      ]),
  });
}

export function useDeleteMemberMutation(): UseMutationResult<unknown, Error, number> {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id) => callApi(teamRoutes.deleteMember, { params: { id } }),
    meta: { silent: true },
    onSuccess: () => refreshMembers(queryClient),
  });
}

export function useResetMfaMutation(): UseMutationResult<unknown, Error, number> {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id) => callApi(teamRoutes.resetMemberMfa, { query: { account_id: id } }),
    meta: { silent: true },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: teamKeys.members }),
  });
}

// Groups

export function useGroupsQuery(filter: GroupFilter): UseQueryResult<Paged<Group>> {
  return useQuery({
    queryKey: teamKeys.groupPage(filter),
    queryFn: () =>
      callApi(teamRoutes.listGroups, {
        query: { page: filter.page, page_size: PAGE_SIZE_DEFAULT, q_name: text(filter.name) },
      }),
    placeholderData: keepPreviousData,
  });
}

export function useGroupQuery(id: number): UseQueryResult<Group> {
  return useQuery({
    queryKey: teamKeys.group(id),
    queryFn: () => callApi(teamRoutes.getGroup, { params: { id } }),
    enabled: id > 0,
  });
}

export interface GroupInput {
  name: string;
  note?: string | undefined;
}

export function useSaveGroupMutation(): UseMutationResult<
  Group,
  Error,
  GroupInput & { id?: number | undefined }
> {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, name, note }) => {
      const body = { name: name.trim(), note: (note ?? '').trim() };
      return id === undefined
        ? callApi(teamRoutes.createGroup, { body })
        : callApi(teamRoutes.updateGroup, { params: { id }, body });
    },
    meta: { silent: true },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: teamKeys.groups }),
  });
}

export function useDeleteGroupMutation(): UseMutationResult<unknown, Error, number> {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id) => callApi(teamRoutes.deleteGroup, { params: { id } }),
    meta: { silent: true },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: teamKeys.groups }),
  });
}

export function useGroupMembersQuery(
  id: number,
  filter: GroupMemberFilter,
): UseQueryResult<Paged<Member>> {
  return useQuery({
    queryKey: teamKeys.groupMemberPage(id, filter),
    queryFn: () =>
      callApi(teamRoutes.groupMembers, {
        params: { id },
        query: { page: filter.page, page_size: PAGE_SIZE_DEFAULT, key: text(filter.key) },
      }),
    placeholderData: keepPreviousData,
    enabled: id > 0,
  });
}

/** Every member id already in the group, so the add panel offers only the others. */
export function useGroupMemberIdsQuery(id: number, enabled: boolean): UseQueryResult<Set<number>> {
  return useQuery({
    queryKey: teamKeys.groupMemberIds(id),
    queryFn: async () => {
      const page = await callApi(teamRoutes.groupMembers, {
        params: { id },
        query: { page: 1, page_size: PAGE_SIZE_MAX },
      });
      return new Set(page.objects.map((m) => m.id));
    },
    enabled: enabled && id > 0,
  });
}

export function useGroupMembersMutation(
  id: number,
  action: 'add' | 'remove',
): UseMutationResult<unknown, Error, number[]> {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (members) =>
      callApi(action === 'add' ? teamRoutes.addGroupMembers : teamRoutes.removeGroupMembers, {
        params: { id },
        body: { members },
      }),
    meta: { silent: true },
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: teamKeys.groupMembers(id) }),
        queryClient.invalidateQueries({ queryKey: teamKeys.groups }),
      ]),
  });
}

// Team settings and plan

export function useTeamSettingsQuery(): UseQueryResult<TeamSettings> {
  return useQuery({
    queryKey: teamKeys.settings,
    queryFn: () => callApi(teamRoutes.teamSettings),
  });
}

export function usePlanQuery(): UseQueryResult<PlanInfo | null> {
  return useQuery({ queryKey: teamKeys.plan, queryFn: () => callApi(teamRoutes.plan) });
}

function settingsSaved(queryClient: QueryClient) {
  return (settings: TeamSettings): Promise<unknown> => {
    queryClient.setQueryData(teamKeys.settings, settings);
    return Promise.all([
      // Strength, company MFA and the owner flag change what the shell and the lists show.
      queryClient.invalidateQueries({ queryKey: sessionKeys.currentAccount }),
      queryClient.invalidateQueries({ queryKey: teamKeys.members }),
    ]);
  };
}

export function useUpdateTeamMutation(): UseMutationResult<TeamSettings, Error, UpdateTeamBody> {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body) => callApi(teamRoutes.updateTeam, { body }),
    meta: { silent: true },
    onSuccess: settingsSaved(queryClient),
  });
}

export function useRenewDomainTokenMutation(): UseMutationResult<TeamSettings, Error, void> {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => callApi(teamRoutes.updateDomainToken),
    meta: { silent: true },
    onSuccess: settingsSaved(queryClient),
  });
}

export function useUnbindWorkspaceMutation(): UseMutationResult<
  TeamSettings,
  Error,
  { work_space_id: string; domain: string }
> {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body) => callApi(teamRoutes.unbindWorkspace, { body }),
    meta: { silent: true },
    onSuccess: settingsSaved(queryClient),
  });
}

// Single sign-on

export function useSsoConfigQuery(): UseQueryResult<SsoConfigReply> {
  return useQuery({ queryKey: teamKeys.sso, queryFn: () => callApi(ssoRoutes.config) });
}

export function useParseMetadataMutation(): UseMutationResult<
  SsoMetadataInfo,
  Error,
  SsoMetadataFile
> {
  return useMutation({
    mutationFn: (file) => callApi(ssoRoutes.parseMetadata, { body: { metadata: [file] } }),
    meta: { silent: true },
  });
}

export function useUpdateSsoMutation(): UseMutationResult<SsoConfigReply, Error, SsoUpdateBody> {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body) => callApi(ssoRoutes.updateConfig, { body }),
    meta: { silent: true },
    onSuccess: (config) => queryClient.setQueryData(teamKeys.sso, config),
  });
}

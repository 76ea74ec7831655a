/** Paths of the standalone screens (spec 1 §2.1), used for navigation between them. */
export const PATHS = {
  login: '/login',
  mfaConfirm: '/mfaComfirm',
  mfaOpen: '/mfaOpen',
  compelChangePassword: '/compelChangePassword',
  register: '/register',
  forgotPassword: '/forgetPsw',
  resetPassword: '/resetpassword',
  purchase: '/purchase',
  dashboard: '/operation/dashboard',
  workgroup: '/operation/workgroup',
  /** The full-page web terminal of a workgroup resource (opened in its own tab from Connect). */
  terminal: '/operation/terminal/:id',
  personalInfo: '/personal/info',
  personalSecurity: '/personal/security',
  personalSshKey: '/personal/sshkey',
  team: '/settings/team',
  /** Route name settingTeamGroupDetail (spec 2 §2). */
  groupDetail: '/settings/group/:id',
  /** Route name settingTeamAccountWorkgroup (spec 2 §2): a member's workgroups. */
  accountWorkgroups: '/settings/account/:id',
  systemLog: '/system/log',
} as const;

/** A group's detail page; the name rides along in the query so the title shows at once. */
export function groupDetailPath(id: number, name: string): string {
  return `/settings/group/${id}?${new URLSearchParams({ name }).toString()}`;
}

/** A member's workgroups page; the name rides along in the query for the title. */
export function accountWorkgroupsPath(id: number, accountName: string): string {
  return `/settings/account/${id}?${new URLSearchParams({ type: 'workgroup', accountName }).toString()}`;
}

/** Screens reachable without a session: a NeedLogin there is expected, not a redirect. */
export const PUBLIC_PATHS: readonly string[] = [
  PATHS.login,
  PATHS.register,
  PATHS.forgotPassword,
  PATHS.resetPassword,
];

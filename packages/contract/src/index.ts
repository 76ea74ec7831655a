export * from './account';
export * from './action-log';
export * from './agent';
export * from './auth';
export * from './cluster';
export * from './code';
export * from './common';
export * from './connection';
export * from './constants';
export * from './control';
export * from './errors';
export * from './http';
export * from './kept-cuts';
export * from './logs';
export * from './loopback';
export * from './messages';
export * from './password';
export * from './recording';
export * from './recording-frame';
export * from './resource';
export * from './resource-names';
export * from './roles';
export * from './security-mode';
export * from './sso';
export * from './statistics';
export * from './team';
export * from './version';
export * from './web-terminal';
export * from './workgroup';

import { accountRoutes } from './account';
import { actionLogRoutes } from './action-log';
import { agentRoutes } from './agent';
import { authRoutes } from './auth';
import { clusterRoutes, clusterSettingRoutes } from './cluster';
import { codeRoutes } from './code';
import { connectionRoutes } from './connection';
import { resourceRoutes } from './resource';
import { resourceNameRoutes } from './resource-names';
import { logRoutes } from './logs';
import { recordingRoutes } from './recording';
import { ssoRoutes } from './sso';
import { statisticsRoutes } from './statistics';
import { teamRoutes } from './team';
import { webTerminalRoutes } from './web-terminal';
import { workgroupRoutes } from './workgroup';
import type { RouteDescriptor } from './http';

/** Every API route; the server registers exactly these and the role-walk test visits each. */
export const ALL_ROUTES: readonly RouteDescriptor[] = [
  ...Object.values(authRoutes),
  ...Object.values(accountRoutes),
  ...Object.values(teamRoutes),
  ...Object.values(logRoutes),
  ...Object.values(ssoRoutes),
  ...Object.values(clusterRoutes),
  ...Object.values(clusterSettingRoutes),
  ...Object.values(resourceRoutes),
  ...Object.values(agentRoutes),
  ...Object.values(workgroupRoutes),
  ...Object.values(codeRoutes),
  ...Object.values(connectionRoutes),
  ...Object.values(recordingRoutes),
  ...Object.values(webTerminalRoutes),
  ...Object.values(actionLogRoutes),
  ...Object.values(resourceNameRoutes),
  ...Object.values(statisticsRoutes),
];

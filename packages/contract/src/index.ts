export * from './account';
export * from './agent';
export * from './auth';
export * from './cluster';
export * from './common';
export * from './constants';
export * from './control';
export * from './errors';
export * from './http';
export * from './logs';
export * from './messages';
export * from './password';
export * from './resource';
export * from './roles';
export * from './sso';
export * from './team';
export * from './version';

import { accountRoutes } from './account';
import { agentRoutes } from './agent';
import { authRoutes } from './auth';
import { clusterRoutes, clusterSettingRoutes } from './cluster';
import { resourceRoutes } from './resource';
import { logRoutes } from './logs';
import { ssoRoutes } from './sso';
import { teamRoutes } from './team';
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
];

/**
 * Gateway distribution and key login set-up: the install script and bundle the server serves,
 * and the key test / key upload calls of a resource (spec 2 §7 Resources).
 */
import type { RouteDescriptor } from './http';

export const agentRoutes: Record<string, RouteDescriptor> = {};

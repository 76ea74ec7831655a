/**
 * Single sign-on (SAML 2.0): the team's SSO tab and the sign-in exchange (spec 1 §2.2,
 * spec 2 §2 SSO tab, §3 SSO config, §5 SSO rules).
 */
import type { RouteDescriptor } from './http';

export const ssoRoutes: Record<string, RouteDescriptor> = {};

/**
 * Route descriptors: one object per API call, shared by the server (which registers the route,
 * validates with the schemas and enforces `access`) and the console (which calls it).
 * Paths are relative to the `/api` prefix and use `:name` for path parameters.
 */
import type { z } from 'zod';
import type { Role } from './roles';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Where a signed-in session is in the login flow. A session that still owes a TOTP code,
 * a password change or an MFA binding may call only the routes that finish that step.
 */
export type SessionStage = 'mfa' | 'change_pwd' | 'bind_mfa' | 'full';

export type Access =
  /** Anyone, signed in or not (login, captcha, registration, banner). */
  | { kind: 'public' }
  /** A signed-in session with one of these roles, at one of these stages (default: full). */
  | { kind: 'roles'; roles: readonly Role[]; stages?: readonly SessionStage[] };

export interface RouteDescriptor<
  P extends z.ZodType = z.ZodType,
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
  R extends z.ZodType = z.ZodType,
> {
  method: HttpMethod;
  path: string;
  summary: string;
  access: Access;
  params?: P;
  query?: Q;
  body?: B;
  /** The JSON reply; absent for replies that are not JSON (images, files). */
  reply?: R;
  /**
   * A GET that changes state (the spec names a few, such as reset_mfa): it needs the CSRF
   * header like any POST.
   */
  changesState?: boolean;
  /**
   * A POST that another site's page sends by design (the SAML assertion consumer): it cannot
   * carry our CSRF token and is protected by its own signed payload instead.
   */
  csrfExempt?: boolean;
}

export const PUBLIC: Access = { kind: 'public' };

export function roles(list: readonly Role[], stages?: readonly SessionStage[]): Access {
  return stages ? { kind: 'roles', roles: list, stages } : { kind: 'roles', roles: list };
}

/** Every role, full session. */
export const ANY_MEMBER: Access = { kind: 'roles', roles: [0, 1, 2, 3, 4] };

/** Any role, at any stage: logout and the calls that finish a login step. */
export function anyStage(stages: readonly SessionStage[]): Access {
  return { kind: 'roles', roles: [0, 1, 2, 3, 4], stages };
}

/** Fills `:name` path parameters. */
export function buildPath(path: string, params: Record<string, string | number> = {}): string {
  return path.replace(/:([A-Za-z_]+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`missing path parameter ${name}`);
    return encodeURIComponent(String(value));
  });
}

export function defineRoute<
  P extends z.ZodType,
  Q extends z.ZodType,
  B extends z.ZodType,
  R extends z.ZodType,
>(route: RouteDescriptor<P, Q, B, R>): RouteDescriptor<P, Q, B, R> {
  return route;
}

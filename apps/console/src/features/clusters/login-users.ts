/**
 * The login users of a server as the instance panel edits them (spec 2 §3 instance resource:
 * one data entry per username with its own auth_type and test_result). The usernames field
 * ('a;b') decides which rows exist; each row keeps its own authentication and host password.
 */
import type { Resource } from '@portcullis/contract';
import { splitUsernames } from './rules';

/** 0 host password, 1 SSH key, 2 team account password. */
export type AuthType = 0 | 1 | 2;
export type TestResult = Resource['extension']['data'][number]['test_result'];

export interface LoginRow {
  username: string;
  auth_type: AuthType;
  /** The host password typed for this user (auth_type 0); empty keeps the stored one. */
  password?: string | undefined;
}

export interface LoginUserBody {
  username: string;
  auth_type: AuthType;
  password?: string;
}

export function toAuthType(value: number | undefined): AuthType {
  return value === 1 || value === 2 ? value : 0;
}

/** The ways a user of this OS can sign in: SSH keys are for Linux only. */
export function authTypesFor(os: Resource['os']): AuthType[] {
  return os === 'linux' ? [0, 1, 2] : [0, 2];
}

/**
 * SSH key and team-account login are offered only when the user's connectivity test did not
 * fail and is not running (spec 2 §4); host password is always offered.
 */
export function authLocked(result: TestResult | undefined): boolean {
  return result === 'disable' || result === 'pending';
}

/** The stored rows of a server, in its order. */
export function savedRows(resource: Resource): LoginRow[] {
  return resource.extension.username.map((username) => ({
    username,
    auth_type: toAuthType(resource.extension.data.find((d) => d.username === username)?.auth_type),
  }));
}

/**
 * The rows for what the usernames field now says: a row already there keeps what was typed in
 * it, a new username starts with host password (or its stored choice when it was saved).
 */
export function syncRows(
  usernames: string | undefined,
  current: readonly LoginRow[],
  saved: readonly LoginRow[] = [],
): LoginRow[] {
  return splitUsernames(usernames).map(
    (username) =>
      current.find((r) => r.username === username) ??
      saved.find((r) => r.username === username) ?? { username, auth_type: 0 },
  );
}

/** The login_users of the request: a password only with host-password login, when typed. */
export function loginUsersBody(rows: readonly LoginRow[]): LoginUserBody[] {
  return rows.map(({ username, auth_type, password }) => ({
    username,
    auth_type,
    ...(auth_type === 0 && password ? { password } : {}),
  }));
}

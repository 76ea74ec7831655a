/**
 * Grants: what a gateway earned by resolving a code, kept in this replica's memory for the
 * minute it takes to open the session. A grant is bound to the gateway connection that asked
 * (a gateway cannot spend another's), allows one credential fetch and one session start, and
 * then is gone. Limits: a grant lives in one replica; the gateway asks over the same socket, so
 * the same replica answers.
 */
import type { ResolvedCode } from '@portcullis/contract';
import type { ResourceRow } from '../resources/service';
import { randomToken } from '../../lib/crypto';
import { createExpiringMap } from '../../lib/expiring-map';

const GRANT_TTL_MS = 60_000;

export interface Grant {
  owner: object;
  resolved: ResolvedCode;
  /** The login user whose credential was fetched; set once. */
  username: string | null;
  /** The resource's row as the code check read it (its rules go with the session's start). */
  resource?: ResourceRow;
  /** revocationLookupCount() before the code check read (see revoke-sessions.ts). */
  lookupsBefore: number;
}

export type GrantFields = Omit<Grant, 'owner' | 'username'> & { username?: string | null };

export interface GrantStore {
  /** `username`: the login user whose credential went with the grant (its one fetch spent). */
  issue(owner: object, fields: GrantFields): string;
  /** The live grant of this owner, or null (unknown, expired, or another gateway's). */
  get(owner: object, token: string): Grant | null;
  spend(token: string): void;
}

export function createGrantStore(now: () => number = Date.now): GrantStore {
  const grants = createExpiringMap<Grant>(GRANT_TTL_MS, now);
  return {
    issue(owner, fields) {
      const token = randomToken(24);
      grants.set(token, { ...fields, owner, username: fields.username ?? null });
      return token;
    },
    get(owner, token) {
      const grant = grants.get(token);
      return grant && grant.owner === owner ? grant : null;
    },
    spend(token) {
      grants.delete(token);
    },
  };
}

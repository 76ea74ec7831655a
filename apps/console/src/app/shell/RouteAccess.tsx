import type { ReactNode } from 'react';
import { Navigate } from 'react-router-dom';
import { canSeeMenu, landingPath, type MenuKey } from '@portcullis/contract';
import { roleOf, useCurrentAccountQuery } from '../../shared/session/session';

export interface RouteAccessProps {
  access: MenuKey | readonly MenuKey[] | undefined;
  children: ReactNode;
}

/**
 * A shell route that the role may not see sends it to its landing page instead (spec 1 §2.1:
 * a member reaching the dashboard goes to the workgroup list). The server still enforces every
 * call; this only avoids showing a page that would fail.
 */
export function RouteAccess({ access, children }: RouteAccessProps): ReactNode {
  const account = useCurrentAccountQuery();
  if (!account.data) return null;
  const role = roleOf(account.data);
  const keys: readonly MenuKey[] =
    access === undefined ? [] : typeof access === 'string' ? [access] : access;
  if (!keys.every((key) => canSeeMenu(role, key)))
    return <Navigate to={landingPath(role)} replace />;
  return children;
}

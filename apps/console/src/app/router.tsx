/**
 * Routes, built from the features: standalone screens at the top level, shell pages inside the
 * console shell (each behind its menu key's role check), '' and /dashboard redirecting to the
 * dashboard (spec 1 §2.1). Session errors from any call land here and pick the screen.
 */
import { createElement, Suspense } from 'react';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router-dom';
import { setSessionErrorHandler } from '../shared/api/client';
import type { Feature } from '../shared/feature';
import { PATHS, PUBLIC_PATHS } from '../shared/routes';
import { ConsoleShell, PageLoading } from './shell/ConsoleShell';
import { RouteAccess } from './shell/RouteAccess';
import { NotFoundPage } from './NotFoundPage';

export function buildRoutes(features: readonly Feature[]): RouteObject[] {
  const routes = features.flatMap((feature) => feature.routes);
  const standalone: RouteObject[] = routes
    .filter((route) => route.layout === 'standalone')
    .map((route) => ({
      path: route.path,
      element: <Suspense fallback={<PageLoading />}>{createElement(route.page)}</Suspense>,
    }));
  const shell: RouteObject[] = routes
    .filter((route) => route.layout === 'shell')
    .map((route) => ({
      path: route.path,
      element: <RouteAccess access={route.access}>{createElement(route.page)}</RouteAccess>,
    }));
  return [
    ...standalone,
    {
      element: <ConsoleShell features={features} />,
      children: [
        { index: true, element: <Navigate to={PATHS.dashboard} replace /> },
        { path: '/dashboard', element: <Navigate to={PATHS.dashboard} replace /> },
        ...shell,
      ],
    },
    { path: '*', element: <NotFoundPage /> },
  ];
}

/** Where each session code sends the browser; null keeps it where it is. */
export function sessionRedirect(code: string, pathname: string): string | null {
  // The public screens expect to have no session.
  if (PUBLIC_PATHS.includes(pathname)) return null;
  const target =
    code === 'NeedLogin'
      ? PATHS.login
      : code === 'NeedMfaLogin'
        ? PATHS.mfaConfirm
        : code === 'NeedChangePassword'
          ? PATHS.compelChangePassword
          : code === 'NeedBindMfa'
            ? PATHS.mfaOpen
            : null;
  return target === pathname ? null : target;
}

export type AppRouter = ReturnType<typeof createBrowserRouter>;

export function createAppRouter(features: readonly Feature[]): AppRouter {
  const router = createBrowserRouter(buildRoutes(features));
  setSessionErrorHandler((code) => {
    const target = sessionRedirect(code, router.state.location.pathname);
    if (!target) return;
    void router.navigate(target, { replace: true });
  });
  return router;
}

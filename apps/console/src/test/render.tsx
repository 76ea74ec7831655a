/**
 * Renders console pages the way the app does: the real providers, router (in memory), features
 * and session-error handling, against the fetch stub of api-mock.ts.
 */
import type { ReactNode } from 'react';
import { render, screen, waitFor, type RenderResult } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router-dom';
import { StyleProvider } from '@ant-design/cssinjs';
import { AppProviders } from '../app/AppProviders';
import { FEATURES } from '../app/features';
import { createQueryClient } from '../app/query-client';
import { buildRoutes, sessionRedirect } from '../app/router';
import { setSessionErrorHandler } from '../shared/api/client';

export interface RenderAppResult extends RenderResult {
  router: ReturnType<typeof createMemoryRouter>;
  /** The router's current path and search. */
  location: () => string;
}

/** Where antd's CSS-in-JS styles go: off the document, so jsdom never matches them (setup.ts). */
const STYLE_SINK = document.createElement('div');

export function renderApp(
  path: string,
  routes: RouteObject[] = buildRoutes(FEATURES),
): RenderAppResult {
  const queryClient = createQueryClient();
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  setSessionErrorHandler((code) => {
    const target = sessionRedirect(code, router.state.location.pathname);
    if (target) void router.navigate(target, { replace: true });
  });
  const result = render(
    <StyleProvider container={STYLE_SINK}>
      <AppProviders queryClient={queryClient}>
        <RouterProvider router={router} />
      </AppProviders>
    </StyleProvider>,
  );
  return {
    ...result,
    router,
    location: () => `${router.state.location.pathname}${router.state.location.search}`,
  };
}

/** Renders a node inside the providers and a one-route memory router. */
export function renderInApp(node: ReactNode, path = '/'): RenderAppResult {
  return renderApp(path, [{ path: '*', element: node }]);
}

/**
 * The open dialog (modal or drawer) whose title is `title`. antd's ids are all "test-id" under
 * NODE_ENV=test, so aria-labelledby cannot name dialogs there; this looks at the title text.
 */
export async function findDialog(title: string): Promise<HTMLElement> {
  let found: HTMLElement | undefined;
  await waitFor(() => {
    found = screen
      .queryAllByRole('dialog')
      .find((d) => d.querySelector('.ant-modal-title, .ant-drawer-title')?.textContent === title);
    if (!found) throw new Error(`no dialog titled ${title}`);
  });
  return found as HTMLElement;
}

export function queryDialog(title: string): HTMLElement | undefined {
  return screen
    .queryAllByRole('dialog')
    .find((d) => d.querySelector('.ant-modal-title, .ant-drawer-title')?.textContent === title);
}

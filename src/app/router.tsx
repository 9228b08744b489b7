/**
 * The console's routes (issue 4): /connect, /w/:workspaceId (the overview, issue 24), /w/:workspaceId/<section> (lazy pages; `<section>/:recordId` opens a
 * record over its list for the sections whose records have addresses, issue 14 point 2), the post composer, and a
 * 404 page.
 *
 * Issue 16: react-router's declarative routes (`useRoutes` under `unstable_HistoryRouter`), not its data router,
 * whose loader and action engine the console does not use and which would be 16 KB of gzip on every first screen.
 * What the console used of it comes from src/lib/navigation-guard.tsx (`useBlocker`, over the history given here)
 * and src/components/route-error.tsx (each route's error boundary).
 */
import { Suspense, lazy, useState } from 'react';
import { type RouteObject, unstable_HistoryRouter as HistoryRouter, useRoutes } from 'react-router';
import { Loading } from '@/components/query-state';
import { loadArea } from '@/i18n/i18n';
import { RouteErrorBoundary } from '@/components/route-error';
import { NavigationGuardProvider, createGuardedHistory } from '@/lib/navigation-guard';
import { NotFoundPage, HomeRedirect } from './pages';
import { SECTIONS, type Section } from './sections';

// Every screen is its own chunk, the shell included, so the first screen loads only what it shows.
// Its texts (issue 23) are fetched beside its code.
const ConnectPage = lazy(() => Promise.all([import('@/features/connection/connect-page'), loadArea('connect')]).then(([m]) => ({ default: m.ConnectPage })));
// The workspace's texts (the `shell` catalog, issue 23) come with its layout, so /connect does not carry them.
const withShell = <M,>(module: Promise<M>) => Promise.all([module, loadArea('shell')]).then(([loaded]) => loaded);
const WorkspaceLayout = lazy(() => withShell(import('./workspace-layout')).then((m) => ({ default: m.WorkspaceLayout })));
// From the layout's chunk (loaded by then): the gate reads the workspace's API context, whose module brings the
// typed client, which /connect's first screen does not need (issue 16).
const ScopeGate = lazy(() => withShell(import('./workspace-layout')).then((m) => ({ default: m.ScopeGate })));

/** The workspace's home (issue 24): the overview of its contacts, posts and catalog; each section checks its own scope. */
const OverviewPage = lazy(() => Promise.all([import('@/features/overview/overview-page'), loadArea('overview')]).then(([m]) => ({ default: m.OverviewPage })));

/** The post composer (issue 7): a page of the Posts section, not in the navigation, that needs posts:read-write. */
const COMPOSER: Section = {
  path: 'posts/new',
  label: 'Post composer',
  labelKey: 'shell.sectionComposer',
  scope: 'posts:read-write',
  Page: lazy(() => Promise.all([import('@/features/posts/composer-page'), loadArea('posts'), loadArea('embed'), loadArea('lists')]).then(([m]) => ({ default: m.ComposerPage }))),
};

const routes: RouteObject[] = [
  {
    path: '/',
    element: (
      <RouteErrorBoundary>
        <HomeRedirect />
      </RouteErrorBoundary>
    ),
  },
  {
    path: '/connect',
    element: (
      <RouteErrorBoundary>
        <Suspense fallback={<Loading />}>
          <ConnectPage />
        </Suspense>
      </RouteErrorBoundary>
    ),
  },
  {
    path: '/w/:workspaceId',
    element: (
      <RouteErrorBoundary>
        <Suspense fallback={<Loading />}>
          <WorkspaceLayout />
        </Suspense>
      </RouteErrorBoundary>
    ),
    children: [
      {
        index: true,
        element: (
          <RouteErrorBoundary>
            <OverviewPage />
          </RouteErrorBoundary>
        ),
      },
      ...[...SECTIONS, COMPOSER].map((section) => ({
        // One route with an optional segment, so opening a record keeps the list page mounted.
        path: section.records ? `${section.path}/:recordId?` : section.path,
        element: (
          <RouteErrorBoundary>
            <ScopeGate section={section}>
              <section.Page />
            </ScopeGate>
          </RouteErrorBoundary>
        ),
      })),
    ],
  },
  { path: '*', element: <NotFoundPage /> },
];

function AppRoutes() {
  return useRoutes(routes);
}

/** The router of the console: its routes over the browser history, with leave guards (`useBlocker`). */
export function AppRouter() {
  const [guard] = useState(createGuardedHistory);
  return (
    <HistoryRouter history={guard.history}>
      <NavigationGuardProvider guard={guard}>
        <AppRoutes />
      </NavigationGuardProvider>
    </HistoryRouter>
  );
}

/**
 * The console's routes (issue 4): /connect, /w/:workspaceId/<section> (lazy pages; `<section>/:recordId` opens a
 * record over its list for the sections whose records have addresses, issue 14 point 2), the post composer, and a
 * 404 page.
 */
import { Suspense, lazy } from 'react';
import { Navigate, createBrowserRouter } from 'react-router';
import { Loading } from '@/components/query-state';
import { RouteError } from '@/components/route-error';
import { NotFoundPage, HomeRedirect } from './pages';
import { ScopeGate } from './scope-gate';
import { SECTIONS, type Section } from './sections';

// Every screen is its own chunk, the shell included, so the first screen loads only what it shows.
const ConnectPage = lazy(() => import('@/features/connection/connect-page').then((m) => ({ default: m.ConnectPage })));
const WorkspaceLayout = lazy(() => import('./workspace-layout').then((m) => ({ default: m.WorkspaceLayout })));

/** The post composer (issue 7): a page of the Posts section, not in the navigation, that needs posts:read-write. */
const COMPOSER: Section = {
  path: 'posts/new',
  label: 'Post composer',
  scope: 'posts:read-write',
  Page: lazy(() => import('@/features/posts/composer-page').then((m) => ({ default: m.ComposerPage }))),
};

export function createRouter() {
  return createBrowserRouter([
    { path: '/', element: <HomeRedirect />, errorElement: <RouteError /> },
    {
      path: '/connect',
      element: (
        <Suspense fallback={<Loading label="Loading page" />}>
          <ConnectPage />
        </Suspense>
      ),
      errorElement: <RouteError />,
    },
    {
      path: '/w/:workspaceId',
      element: (
        <Suspense fallback={<Loading label="Loading workspace" />}>
          <WorkspaceLayout />
        </Suspense>
      ),
      errorElement: <RouteError />,
      children: [
        { index: true, element: <Navigate to="contacts" replace /> },
        ...[...SECTIONS, COMPOSER].map((section) => ({
          // One route with an optional segment, so opening a record keeps the list page mounted.
          path: section.records ? `${section.path}/:recordId?` : section.path,
          errorElement: <RouteError />,
          element: (
            <ScopeGate section={section}>
              <section.Page />
            </ScopeGate>
          ),
        })),
      ],
    },
    { path: '*', element: <NotFoundPage /> },
  ]);
}

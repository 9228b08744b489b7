/**
 * The shell of a workspace (`/w/:workspaceId/...`, issue 4): header with the workspace switcher, the key's
 * organization and permissions in a menu, a light/dark toggle; sidebar navigation that disables sections the
 * key's scopes don't allow (with a tooltip naming the scope); the throttling notice; and the watch that sends
 * the user back to /connect when the saved key stops working (401/403 confirmed by `GET /authorization`): the key
 * is forgotten as expired in every tab of the session (issue 14 point 3), and each tab showing that workspace
 * leaves for /connect saying so.
 * Issue 14: a "Skip to main content" link comes first (point 5), and the throttling notice stays in view under
 * the header while it applies (point 1); both are marked `data-sticky-top` (see src/lib/list-view.ts).
 */
import { ActionIcon, Button, Group } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Suspense, lazy, useCallback, useEffect, useRef, useState } from 'react';
import { Navigate, NavLink as RouterNavLink, Outlet, useLocation, useParams } from 'react-router';
import { isAuthError } from '@/api/api-error';
import { Loading } from '@/components/query-state';
import { ThrottleNotice } from '@/components/throttle-notice';
import { BudgetMeter } from '@/components/budget-meter';
import { AfterInteraction } from '@/components/after-interaction';
import { DeferredTooltip } from '@/components/deferred-tooltip';
import { BookIcon, KeyIcon, MenuIcon, SearchIcon } from '@/components/icons';
import { WorkspaceApiProvider, useWorkspaceApi } from '@/lib/workspace-api';
import {
  forgottenReason, removeConnection, updateConnection, useConnections, useConnectionsReady,
} from '@/lib/connections';
import { checkedAuthorization } from '@/lib/checked-authorization';
import { listPath, useListMemory } from '@/lib/list-memory';
import { useLiveChanges } from '@/lib/extensions';
import { allows } from '@/lib/permissions';
import { useJobWatch } from '@/lib/jobs/job-watch';
import { provideKinds } from '@/lib/jobs/job-names';
import { LanguageChooser } from '@/components/language-chooser';
import { loadArea } from '@/i18n/i18n';
import { useT } from '@/i18n/react';
import { ColorSchemeToggle } from './color-scheme-toggle';
import { OVERVIEW_LABEL_KEY, PEOPLE_SEARCH_LABEL_KEY, SECTIONS } from './sections';
import classes from './shell.module.css';

export { ScopeGate } from './scope-gate';

// The header's popover widgets load at the page's first interaction (popover code is heavy); plain buttons stand in.
const WorkspaceSwitcher = lazy(() => import('@/features/workspaces/workspace-switcher').then((m) => ({ default: m.WorkspaceSwitcher })));
/** The skip link's target: the page's `<main>`. */
const MAIN_CONTENT_ID = 'main-content';
// Its texts (the `tools` catalog area, issue 23) load with it.
// The running jobs' progress (issue 20), in the jobs page's chunk: loaded once the workspace has a job (useJobWatch).
const JobIndicator = lazy(() => import('@/features/jobs/jobs-page').then((m) => ({ default: m.JobIndicator })));
// Every feature's step kinds and job kinds, registered in the job engine's tables when a job first runs, is titled,
// reports or undoes, or the Jobs page shows its entries (src/lib/jobs/step-kinds.ts, src/lib/jobs/job-kinds.ts): the
// registering module loads then, not with this screen.
provideKinds(() => import('./kinds'));
const HeaderTools = lazy(() => Promise.all([import('./header-tools'), loadArea('tools')]).then(([m]) => ({ default: m.HeaderTools })));


// The change stream's code loads only where the service has it (issue 36 point 7; docs/decisions.md section 13):
// src/lib/live/live-watch.tsx.
const LiveWatch = lazy(() => import('@/lib/live/live-watch').then((m) => ({ default: m.LiveWatch })));

/**
 * Asks the service once, on connecting, which extensions it has (issue 22 point 6; src/lib/extensions.ts), and joins
 * its change stream where it names `events` (issue 36; docs/decisions.md section 13), at the first interaction or
 * 30 s after the page was opened (`useLiveChanges`). Without `events` nothing is loaded and nothing polls (issue 36 point 7).
 * Rendered at the top of the page, where the stream says when live updates are paused (a sixth browser of the key).
 */
function ExtensionsWatch() {
  // useLiveChanges asks for the extensions (useExtensions).
  const live = useLiveChanges();
  if (!live) return null;
  return (
    <Suspense fallback={null}>
      <LiveWatch />
    </Suspense>
  );
}

/** Keeps the saved permissions fresh and forgets the key (as expired, in every tab) when it stops working. */
function KeyWatch() {
  const { api, workspaceId } = useWorkspaceApi();
  const queryClient = useQueryClient();
  const checking = useRef(false);
  // Right after connecting, the check's own answer stands for a minute (issue 19: connecting checks the key once).
  const checked = checkedAuthorization(workspaceId);
  const authorization = useQuery({
    queryKey: ['ws', workspaceId, 'authorization'],
    queryFn: () => api.authorization(),
    staleTime: 60_000,
    retry: false,
    initialData: checked?.authorization,
    initialDataUpdatedAt: checked?.at,
  });

  useEffect(() => {
    if (authorization.data) updateConnection(workspaceId, { permissions: authorization.data.permissions, workspaceName: authorization.data.feed.name });
  }, [authorization.data, workspaceId]);

  useEffect(() => {
    // The layout then leaves for /connect (reason=expired, returning here), in this tab and every other.
    const leave = () => removeConnection(workspaceId, 'expired');
    const verify = (error: unknown) => {
      if (!isAuthError(error) || checking.current) return;
      checking.current = true;
      api
        .authorization()
        .then((auth) => updateConnection(workspaceId, { permissions: auth.permissions }))
        .catch((failure: unknown) => {
          if (isAuthError(failure)) leave();
        })
        .finally(() => {
          checking.current = false;
        });
    };
    const unsubscribeQueries = queryClient.getQueryCache().subscribe((event) => {
      if (event.type === 'updated' && event.action.type === 'error' && event.query.queryKey[1] === workspaceId) verify(event.action.error);
    });
    const unsubscribeMutations = queryClient.getMutationCache().subscribe((event) => {
      if (event.type === 'updated' && event.action.type === 'error') verify(event.action.error);
    });
    return () => {
      unsubscribeQueries();
      unsubscribeMutations();
    };
  }, [api, workspaceId, queryClient]);
  return null;
}

/**
 * The header's secondary tools (the API reference, the language, light/dark): in the header on wide screens, in the
 * navigation menu on narrow ones (shell.module.css shows one place or the other; the hidden one is `display: none`,
 * so neither screen readers nor role queries see it twice).
 */
function SecondaryTools() {
  const t = useT();
  return (
    <>
      <ActionIcon component="a" href="/api/docs" target="_blank" rel="noopener" variant="default" size="lg" aria-label={t('shell.apiReferenceNewTab')} title={t('shell.apiReference')}>
        <BookIcon />
      </ActionIcon>
      <LanguageChooser />
      <ColorSchemeToggle />
    </>
  );
}

function Shell() {
  const { workspaceId, connection } = useWorkspaceApi();
  const t = useT();
  // Issue 19: each section's link brings the person back to its list as they left it (filters, sort, page), at no
  // request while its data is fresh.
  useListMemory();
  const { pathname, search } = useLocation();
  const sectionPath = (path: string) => {
    const base = `/w/${workspaceId}/${path}`;
    return pathname === base ? base + search : listPath(workspaceId, path);
  };
  // Where the header's key tools say what a key just connected with allows (issue 14 point 4).
  const [keyNotice, setKeyNotice] = useState<HTMLDivElement | null>(null);
  const [opened, setOpened] = useState(false);
  const toggle = () => setOpened((open) => !open);
  const close = useCallback(() => setOpened(false), []);
  const jobs = useJobWatch(workspaceId);
  // The narrow screen's menu closes on any navigation (a link in it, the back button, a link in the page).
  useEffect(close, [pathname, close]);
  // Escape closes the open menu, as it would a dialog.
  useEffect(() => {
    if (!opened) return undefined;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') close();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [opened, close]);
  return (
    <div className={classes.shell} data-nav-open={opened || undefined}>
      <KeyWatch />
      <a
        href={`#${MAIN_CONTENT_ID}`}
        className={classes.skip}
        onClick={(event) => {
          // Moves the focus without putting a fragment in the address (which is the list's or record's state).
          event.preventDefault();
          document.getElementById(MAIN_CONTENT_ID)?.focus();
        }}
      >
        {t('shell.skipToMain')}
      </a>
      <header className={classes.header} data-sticky-top>
        <Group wrap="nowrap" gap="sm">
          <ActionIcon variant="default" size="lg" className={classes.menuButton} onClick={toggle} aria-label={t('shell.toggleNavigation')} aria-expanded={opened}>
            <MenuIcon />
          </ActionIcon>
          <h2 className={classes.brand}>{t('shell.brand')}</h2>
          <AfterInteraction fallback={<Button variant="default" aria-label={t('shell.switchWorkspace', { workspace: connection.workspaceName })}>{connection.workspaceName}</Button>}>
            <WorkspaceSwitcher />
          </AfterInteraction>
        </Group>
        <Group gap="xs" wrap="nowrap">
          {jobs ? (
            // Not behind the first interaction (issue 34 point 7): after a reload the running job shows at once.
            <Suspense fallback={null}>
              <JobIndicator workspaceId={workspaceId} />
            </Suspense>
          ) : null}
          <BudgetMeter jobs={jobs} />
          <div className={classes.secondaryTools}>
            <SecondaryTools />
          </div>
          <AfterInteraction
            fallback={
              <>
                <ActionIcon variant="default" size="lg" aria-label={t(PEOPLE_SEARCH_LABEL_KEY)}>
                  <SearchIcon />
                </ActionIcon>
                <ActionIcon variant="default" size="lg" aria-label={t('shell.keyAndPermissions')}>
                  <KeyIcon />
                </ActionIcon>
              </>
            }
          >
            <HeaderTools noticeSlot={keyNotice} />
          </AfterInteraction>
        </Group>
      </header>
      {opened ? <div className={classes.backdrop} aria-hidden="true" onClick={close} /> : null}
      <nav className={classes.nav} aria-label={t('shell.sections')}>
        <RouterNavLink to={`/w/${workspaceId}`} end className={classes.link} onClick={close}>
          {t(OVERVIEW_LABEL_KEY)}
        </RouterNavLink>
        {SECTIONS.map((section) =>
          !section.scope || allows(connection.permissions, section.scope) ? (
            <RouterNavLink key={section.path} to={sectionPath(section.path)} className={classes.link} onClick={close}>
              {t(section.labelKey)}
            </RouterNavLink>
          ) : (
            <DeferredTooltip key={section.path} label={t('shell.needsScope', { scope: section.scope })}>
              <div>
                {/* A disabled link has no address (the ARIA practice for a link that cannot be followed). */}
                {/* eslint-disable-next-line jsx-a11y/anchor-is-valid */}
                <a role="link" aria-disabled="true" data-disabled="true" className={classes.link}>
                  {t(section.labelKey)}
                </a>
              </div>
            </DeferredTooltip>
          ),
        )}
        {/* On a phone the header keeps only its main tools: the others move into this menu (issue 23 point 6). */}
        <div className={classes.navTools}>
          <SecondaryTools />
        </div>
      </nav>
      <main className={classes.main} id={MAIN_CONTENT_ID} tabIndex={-1}>
        <div ref={setKeyNotice} />
        <ThrottleNotice />
        <ExtensionsWatch />
        <Suspense fallback={<Loading label={t('shell.loadingPage2')} />}>
          <Outlet />
        </Suspense>
      </main>
    </div>
  );
}

/**
 * `/w/:workspaceId`: the workspace's shell with its saved key. Without one, it first waits for the other tabs of the
 * session to share theirs (lib/connections.ts), then leaves for /connect, saying whether the key expired, was
 * removed, or was never saved here, and returning to this page once a key is added.
 */
export function WorkspaceLayout() {
  const { workspaceId = '' } = useParams();
  const location = useLocation();
  const connection = useConnections().find((c) => c.workspaceId === workspaceId);
  const ready = useConnectionsReady();
  const t = useT();
  if (!connection) {
    if (!ready) return <Loading label={t('shell.lookingForKey')} />;
    const reason = forgottenReason(workspaceId) ?? 'missing';
    const target = encodeURIComponent(location.pathname + location.search);
    return <Navigate to={`/connect?reason=${reason}&workspace=${encodeURIComponent(workspaceId)}&return=${target}`} replace />;
  }
  return (
    <WorkspaceApiProvider connection={connection}>
      <Shell />
    </WorkspaceApiProvider>
  );
}

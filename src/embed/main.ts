/**
 * The public embed page (`/embed/:workspaceId`, issue 7): its own entry with no admin code and no React, so it
 * stays small (budget 60 KB gzip, printed by `npm run build`). It lists the workspace's public posts from
 * endpoint 14 (`GET /{workspaceId}/posts`, no key), newest first, rendered by the rules shared with the
 * composer's preview (post-view.ts). Works inside an iframe on any site:
 * - `#post-<id>` (the fragment of every `postUrl`) scrolls to that post, loading older pages to find it;
 * - "Load more posts" pages on within the endpoint's caps (`$limit` 30, `$offset` 100) and says so at the end;
 * - an unknown workspace (404) gets a clear message; other failures a message and a retry;
 * - links open in a new tab, and the page reports its height to the parent frame
 *   (`{ type: 'workspace-embed:height', height }`) so a host page can size the iframe.
 */
import { isApiError } from '@/api/api-error';
import { createPublicPostsClient } from '@/api/public-posts';
import { POSTS_PAGE_CAPS } from '@/api/common';
import { activateLocale, t } from '@/i18n/i18n';
import { browserLocale, localeOf } from '@/i18n/locale';
import { postAnchorId, renderPost, toPostView } from './post-view';

const PAGE_SIZE = 10;
const SEARCH_PAGE_SIZE = POSTS_PAGE_CAPS.maxLimit;
const MAX_OFFSET = POSTS_PAGE_CAPS.maxOffset ?? 100;

function node<K extends keyof HTMLElementTagNameMap>(tag: K, className = '', textContent = ''): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  if (className) element.className = className;
  if (textContent) element.textContent = textContent;
  return element;
}

/** The workspace id from `/embed/<id>` (percent-decoded; `''` when absent or malformed). */
function workspaceIdFromPath(pathname: string): string {
  try {
    return decodeURIComponent(pathname.split('/')[2] ?? '');
  } catch {
    return '';
  }
}

/** Tells a parent frame how tall the page is, whenever that changes. */
function reportHeight() {
  if (window.parent === window || typeof ResizeObserver === 'undefined') return;
  let last = 0;
  new ResizeObserver(() => {
    const height = Math.ceil(document.documentElement.scrollHeight);
    if (height === last) return;
    last = height;
    window.parent.postMessage({ type: 'workspace-embed:height', height }, '*');
  }).observe(document.body);
}

function start() {
  const root = document.getElementById('root');
  if (!root) throw new Error('embed.html has no #root element');
  const workspaceId = workspaceIdFromPath(window.location.pathname);
  const api = createPublicPostsClient({ baseUrl: '/api' });

  const main = node('main', 'wsp-feed');
  const title = node('h1', 'wsp-feed__title', t('embed.title'));
  const status = node('p', 'wsp-feed__status', t('embed.loading'));
  status.setAttribute('role', 'status');
  const list = node('div', 'wsp-feed__list');
  const more = node('button', 'wsp-feed__more', t('embed.loadMore'));
  more.type = 'button';
  more.hidden = true;
  const note = node('p', 'wsp-feed__note');
  note.hidden = true;
  main.append(title, status, list, more, note);
  root.replaceChildren(main);
  reportHeight();

  const seen = new Set<string>();
  let loaded = 0;
  let total: number | null = null;
  let loading = false;

  const canLoadMore = () => total !== null && loaded < total && loaded <= MAX_OFFSET;

  function updateFooter() {
    more.hidden = !canLoadMore();
    more.disabled = loading;
    const unreachable = total !== null && loaded < total && loaded > MAX_OFFSET;
    note.hidden = !unreachable;
    if (unreachable) note.textContent = `Showing the newest ${loaded} of ${total} posts; older posts cannot be listed here.`;
  }

  async function loadPage(limit: number): Promise<boolean> {
    loading = true;
    updateFooter();
    try {
      const page = await api.listWorkspacePosts(workspaceId, { offset: loaded, limit, orderBy: [{ field: 'publishedDate', direction: 'desc' }] });
      total = page.meta.maxResults;
      loaded += page.items.length;
      const fresh = page.items.filter((post) => !seen.has(post.id));
      for (const post of fresh) seen.add(post.id);
      list.append(...fresh.map((post) => renderPost(toPostView(post))));
      if (page.items.length === 0) total = loaded; // rows vanished while paging: stop here
      status.textContent = loaded === 0 ? t('embed.none') : '';
      status.setAttribute('role', 'status');
      return true;
    } catch (error) {
      showError(error);
      return false;
    } finally {
      loading = false;
      updateFooter();
    }
  }

  function showNotFound() {
    document.title = t('embed.notFound');
    title.textContent = t('embed.notFound');
    status.setAttribute('role', 'alert');
    status.textContent = t('embed.notFoundText');
  }

  function showError(error: unknown) {
    status.setAttribute('role', 'alert');
    status.replaceChildren();
    if (isApiError(error) && (error.status === 404 || error.status === 400)) {
      showNotFound();
      return;
    }
    const message = error instanceof Error ? error.message : String(error);
    status.append(`${t('embed.failed', { message })} `);
    const retry = node('button', 'wsp-feed__retry', t('embed.tryAgain'));
    retry.type = 'button';
    retry.addEventListener('click', () => {
      status.textContent = t('embed.loading');
      status.setAttribute('role', 'status');
      void loadPage(loaded === 0 ? PAGE_SIZE : SEARCH_PAGE_SIZE);
    });
    status.append(retry);
  }

  /** Scrolls to the post named by `#post-<id>`, loading older pages (within the caps) until it is found. */
  async function revealHash() {
    const target = window.location.hash.slice(1);
    if (!target.startsWith(postAnchorId(''))) return;
    while (!document.getElementById(target) && canLoadMore() && !loading) {
      if (!(await loadPage(SEARCH_PAGE_SIZE))) return;
    }
    const element = document.getElementById(target);
    if (element) {
      element.scrollIntoView({ block: 'start' });
      element.setAttribute('tabindex', '-1');
      element.focus({ preventScroll: true });
    }
  }

  more.addEventListener('click', () => void loadPage(PAGE_SIZE));
  window.addEventListener('hashchange', () => void revealHash());

  if (!workspaceId) {
    showNotFound();
    return;
  }
  void loadPage(PAGE_SIZE).then((ok) => {
    if (ok) void revealHash();
  });
}

/**
 * The reader's language (issue 23 point 2): the `lang` query parameter the embedding site sets (`?lang=nb`), else
 * the reader's browser; `nb`, `nn` and `no` mean bokmål, anything else English. Not remembered: the page belongs
 * to the site it is embedded in.
 */
const lang = new URLSearchParams(window.location.search).get('lang');
void activateLocale(lang ? localeOf(lang) : browserLocale(), { needed: ['embed'] }).then(() => {
  document.title = t('embed.title');
  start();
});

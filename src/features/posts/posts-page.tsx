/**
 * `/w/:workspaceId/posts` (issue 7): the workspace's published posts (`GET /posts`) as a table with search, a date
 * range, sorting and pages within the endpoint's caps, all kept in the URL; a panel with `GET /public-posts` as
 * the public sees them; and a "New post" button to the composer (disabled, naming `posts:read-write`, for a key
 * that cannot write).
 *
 * Issue 14: the page count and pager describe the rows on screen (point 1: while another page loads behind them,
 * the line says which) and paging scrolls back to the table; the list refetches by itself when a post this
 * browser scheduled comes due (point 8, `useRefetchWhenDue`).
 */
import { Anchor, Button, Group, Image, NativeSelect, NumberInput, Pagination, Stack, Tabs, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Suspense, lazy, useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { useSearchParamsWriter } from '@/lib/list-search';
import type { Post, PublicPostSummary } from '@/api/posts';
import { DeferredTooltip } from '@/components/deferred-tooltip';
import { QueryView } from '@/components/query-state';
import { FilterSheet } from '@/components/filter-sheet';
import { SimpleTable } from '@/components/simple-table';
import { isHttpUrl } from '@/embed/post-view';
import { useWorkspaceApi } from '@/lib/workspace-api';
import { useExtensions } from '@/lib/extensions';
import { allows } from '@/lib/permissions';
import { revealTop, useShown } from '@/lib/list-view';
import { useHistory } from '@/lib/post-history';
import {
  POST_PAGE_SIZES,
  POST_SORTS,
  type PostSort,
  type PostsSearch,
  isReversedRange,
  maxReachablePage,
  parsePostsSearch,
  postsFilter,
  postsSearchParams,
  reachableCount,
} from './posts-search';
import { useT } from '@/i18n/react';
import { formatDateTime, formatNumber } from '@/i18n/format';
import { postQueries } from './queries';
import { RenderedPost } from './rendered-post';
import { prefetchSpeculative } from '@/lib/query-client';
import { MIN_TERM_LENGTH, PAUSE_MS } from '@/components/debounced-input';
import { useRequestsWaiting } from '@/lib/use-rate-budget';

// Saved views load after the first paint (issue 14 point 7).
const SavedViews = lazy(() => import('@/components/saved-views-row').then((m) => ({ default: m.SavedViews })));
// Scheduled and suggested posts (issue 22 point 8), where the service lists them: loaded when their tab opens.
const PlannedPosts = lazy(() => import('./planned-posts').then((m) => ({ default: m.PlannedPosts })));

/** The sort options' catalog keys (their English names are in posts-search.ts). */
const SORT_LABEL_KEYS: Record<PostSort, string> = { newest: 'posts.sortNewest', oldest: 'posts.sortOldest', 'most-claps': 'posts.sortMostClaps', 'fewest-claps': 'posts.sortFewestClaps' };

type Update = (patch: Partial<PostsSearch>, options?: { resetPage?: boolean }) => void;

/** The posts page: header with "New post", then the published posts and the public feed as tabs. */
export function PostsPage() {
  const [params, latest, write] = useSearchParamsWriter();
  const search = parsePostsSearch(params);
  // On the URL as last written, so two quick changes (a date range's two ends) both stay.
  const update: Update = (patch, options = {}) => {
    const next = { ...parsePostsSearch(latest()), ...patch, ...(options.resetPage ? { page: 1 } : {}) };
    write(postsSearchParams(next));
  };
  const extensions = useExtensions();
  const planned = extensions.has('post-requests-list');
  const tab = search.tab === 'planned' && !planned ? 'published' : search.tab;
  const t = useT();
  return (
    <Stack>
      <Group justify="space-between" align="center">
        <Title order={1}>{t('posts.title')}</Title>
        <NewPostButton />
      </Group>
      <Tabs value={tab} onChange={(next) => update({ tab: next === 'public' || next === 'planned' ? next : 'published' })} keepMounted={false}>
        <Tabs.List aria-label={t('posts.lists')}>
          <Tabs.Tab value="published">{t('posts.publishedTab')}</Tabs.Tab>
          {planned ? <Tabs.Tab value="planned">{t('posts.plannedTab')}</Tabs.Tab> : null}
          <Tabs.Tab value="public">{t('posts.publicTab')}</Tabs.Tab>
        </Tabs.List>
        {extensions.known && !planned ? (
          <Text size="xs" c="dimmed" mt={4}>
            {t('posts.notListed')}
          </Text>
        ) : null}
        {planned ? (
          <Tabs.Panel value="planned" pt="md">
            <Suspense fallback={null}>
              <PlannedPosts />
            </Suspense>
          </Tabs.Panel>
        ) : null}
        <Tabs.Panel value="published" pt="md">
          <PublishedPosts search={search} update={update} />
        </Tabs.Panel>
        <Tabs.Panel value="public" pt="md">
          <PublicPostsPanel limit={search.limit} update={update} />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}

/** "New post": a link to the composer, or a disabled button whose tooltip names the scope the key lacks. */
function NewPostButton() {
  const { connection } = useWorkspaceApi();
  const t = useT();
  if (allows(connection.permissions, 'posts:read-write')) {
    return (
      <Button component={Link} to="new">
        {t('posts.newPost')}
      </Button>
    );
  }
  return (
    <DeferredTooltip label={t('posts.needsWrite')}>
      <span style={{ display: 'inline-block' }}>
        <Button disabled aria-describedby="new-post-scope">
          {t('posts.newPost')}
        </Button>
        <span id="new-post-scope" className="visually-hidden">
          {t('posts.needsWrite')}
        </span>
      </span>
    </DeferredTooltip>
  );
}

/** How long after a scheduled post's time the list refetches: the service lists it from that moment (docs/decisions.md section 7). */
const DUE_MARGIN_MS = 1000;

/**
 * Refetches the workspace's post lists when the next post this browser scheduled comes due (issue 14, point 8).
 * The interface lists no scheduled posts, so what the console knows is the composer's request history (this
 * browser, any tab: it follows localStorage): its scheduled, public posts whose `publishDate` is ahead. One timer,
 * for the nearest; when it fires, the next is armed. Private posts (with recipients) are never listed, so they
 * are left out. We chose this over polling: no request until something is due, and at once when it is.
 */
function useRefetchWhenDue(workspaceId: string) {
  const queryClient = useQueryClient();
  const history = useHistory(workspaceId);
  const [fired, setFired] = useState(0);
  useEffect(() => {
    const now = Date.now();
    const next = Math.min(
      ...history.flatMap((entry) => {
        const due = entry.state === 'scheduled' && !entry.recipients && entry.publishDate ? Date.parse(entry.publishDate) + DUE_MARGIN_MS : NaN;
        return due > now ? [due] : [];
      }),
    );
    if (!Number.isFinite(next)) return;
    const timer = setTimeout(() => {
      void queryClient.invalidateQueries({ queryKey: postQueries.all(workspaceId) });
      setFired((count) => count + 1);
    }, Math.min(next - now, 2 ** 31 - 1));
    return () => clearTimeout(timer);
  }, [history, workspaceId, queryClient, fired]);
}

function PublishedPosts({ search, update }: { search: PostsSearch; update: Update }) {
  const { api, workspaceId } = useWorkspaceApi();
  const t = useT();
  const queryClient = useQueryClient();
  const tableTop = useRef<HTMLDivElement>(null);
  useRefetchWhenDue(workspaceId);
  const [text, setText] = useState(search.q);
  const [debounced] = useDebouncedValue(text, PAUSE_MS);
  useEffect(() => setText(search.q), [search.q]);
  useEffect(() => {
    // Issue 19: a term of at least MIN_TERM_LENGTH characters after a pause, or an emptied box.
    const term = debounced.trim();
    if (term !== search.q.trim() && (term === '' || term.length >= MIN_TERM_LENGTH)) update({ q: debounced }, { resetPage: true });
    // Only a settled change of the typed text updates the URL.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [debounced]);

  const lastPage = maxReachablePage(search.size);
  const page = Math.min(search.page, lastPage);
  const filter = postsFilter(search);
  const orderBy = [...POST_SORTS[search.sort].orderBy];
  const params = (p: number) => ({ offset: (p - 1) * search.size, limit: search.size, filter, orderBy });
  const list = useQuery(postQueries.list(api, workspaceId, params(page)));
  const total = list.data?.meta.maxResults ?? 0;
  const pages = Math.min(Math.ceil(total / search.size), lastPage);
  const shownPage = useShown(page, list.isPlaceholderData);
  const waiting = useRequestsWaiting();

  useEffect(() => {
    if (list.data && page < pages) void prefetchSpeculative(queryClient, postQueries.list(api, workspaceId, params(page + 1)));
    // `params` is derived from the values listed.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [list.data, page, pages, api, workspaceId, queryClient, search.size, search.sort, search.q, search.from, search.to]);

  const filtered = Boolean(search.q || search.from || search.to);
  return (
    <Stack>
      <Suspense fallback={null}>
        <SavedViews list="posts" />
      </Suspense>
      <FilterSheet active={filtered}>
        <Group align="flex-end" wrap="wrap" gap="sm" role="search" aria-label={t('posts.filter')}>
          <TextInput label={t('posts.searchText')} placeholder={t('posts.searchPlaceholder')} value={text} onChange={(event) => setText(event.currentTarget.value)} w={240} />
          <TextInput
            type="date"
            label={t('posts.publishedFrom')}
            value={search.from}
            onChange={(event) => update({ from: event.currentTarget.value }, { resetPage: true })}
            max={search.to || undefined}
          />
          <TextInput
            type="date"
            label={t('posts.publishedTo')}
            value={search.to}
            onChange={(event) => update({ to: event.currentTarget.value }, { resetPage: true })}
            min={search.from || undefined}
          />
          <NativeSelect
            label={t('posts.sortBy')}
            value={search.sort}
            onChange={(event) => update({ sort: event.currentTarget.value as PostSort }, { resetPage: true })}
            data={Object.keys(POST_SORTS).map((value) => ({ value, label: t(SORT_LABEL_KEYS[value as PostSort]) }))}
          />
          <NativeSelect
            label={t('posts.perPage')}
            value={String(search.size)}
            onChange={(event) => update({ size: Number(event.currentTarget.value) as PostsSearch['size'] }, { resetPage: true })}
            data={POST_PAGE_SIZES.map(String)}
          />
          {/* Always laid out, hidden while nothing is filtered, so setting a filter never moves the bar onto two rows (issue 14). */}
          <Button variant="subtle" onClick={() => update({ q: '', from: '', to: '' }, { resetPage: true })} style={{ visibility: filtered ? undefined : 'hidden' }}>
            {t('posts.clearFilters')}
          </Button>
        </Group>
      </FilterSheet>
      {isReversedRange(search) ? (
        <Text c="red.8" size="sm" role="alert">
          {t('posts.reversedRange')}
        </Text>
      ) : null}
      <QueryView query={list} label={t('posts.loadingPosts')}>
        {(data) => (
          <Stack ref={tableTop}>
            <Text size="sm" c="dimmed" aria-live="polite">
              {t(filtered ? 'posts.countMatching' : 'posts.count', { count: data.meta.maxResults })}
              {pages > 1 ? ` · ${t('posts.pageOf', { page: formatNumber(shownPage), pages: formatNumber(pages) })}` : ''}
              {list.isPlaceholderData && shownPage !== page ? ` · ${t('posts.loadingPage', { page: formatNumber(page) })}` : ''}
              {waiting && list.isPlaceholderData ? ` ${t('posts.lastKnownWaiting')}` : ''}
            </Text>
            {data.items.length === 0 ? (
              <Text>{filtered ? t('posts.noMatch') : t('posts.none')}</Text>
            ) : (
              <SimpleTable aria-label={t('posts.publishedTab')} striped cards>
                <thead>
                  <tr>
                    <th scope="col">
                      <span className="visually-hidden">{t('posts.colImage')}</span>
                    </th>
                    <th scope="col">{t('posts.colPost')}</th>
                    <th scope="col">{t('posts.colPublished')}</th>
                    <th scope="col">{t('posts.colClaps')}</th>
                    <th scope="col">{t('posts.colLink')}</th>
                  </tr>
                </thead>
                <tbody>
                  {data.items.map((post) => (
                    <PostRow key={post.id} post={post} />
                  ))}
                </tbody>
              </SimpleTable>
            )}
            {pages > 1 ? (
              <nav aria-label={t('posts.pages')}>
                <Pagination
                  total={pages}
                  value={shownPage}
                  onChange={(next) => {
                    update({ page: next });
                    revealTop(tableTop.current);
                  }}
                  getItemProps={(p) => ({ 'aria-label': t('posts.page', { page: formatNumber(p) }) })}
                  getControlProps={(control) => ({ 'aria-label': { first: t('lists.firstPage'), previous: t('lists.previousPage'), next: t('lists.nextPage'), last: t('lists.lastPage') }[control] })}
                />
              </nav>
            ) : null}
            {data.meta.maxResults > reachableCount(search.size) ? (
              <Text size="sm">
                {t('posts.unreachable', { count: data.meta.maxResults, reachable: formatNumber(reachableCount(search.size)) })}
              </Text>
            ) : null}
          </Stack>
        )}
      </QueryView>
    </Stack>
  );
}

function excerpt(text: string | null, max = 180): string {
  const flat = (text ?? '').replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** A post's image, small; a missing or unloadable image says so instead of showing a broken icon. */
function Thumbnail({ src }: { src: string | undefined }) {
  const [failed, setFailed] = useState<string | null>(null);
  const t = useT();
  if (!src || failed === src) {
    return (
      <Text size="xs" c="dimmed">
        {src ? t('posts.imageUnavailable') : t('posts.noImage')}
      </Text>
    );
  }
  return <Image src={src} alt="" w={72} h={54} radius="sm" fit="cover" loading="lazy" onError={() => setFailed(src)} />;
}

/** One published post: image, header, excerpt, date, claps, and a link to it on the public page. */
function PostRow({ post }: { post: Post }) {
  const t = useT();
  const title = post.header?.trim() || excerpt(post.text, 60) || t('posts.untitledPost');
  const image = [post.imageUrl, ...post.mediaImageUrls].find(isHttpUrl);
  return (
    <tr>
      <td style={{ width: 88 }} data-card-hidden>
        <Thumbnail src={image} />
      </td>
      <th scope="row" style={{ fontWeight: 'normal', minWidth: 220 }}>
        <Text fw={600} size="sm" lineClamp={2}>
          {title}
        </Text>
        {post.header && post.text ? (
          <Text size="sm" c="dimmed" lineClamp={2}>
            {excerpt(post.text)}
          </Text>
        ) : null}
      </th>
      <td data-nowrap data-label={t('posts.colPublished')}>
        <time dateTime={post.publishedDate}>{formatDateTime(post.publishedDate)}</time>
      </td>
      <td data-nowrap>{t('posts.claps', { count: post.claps })}</td>
      <td>
        <Anchor href={post.postUrl} target="_blank" rel="noreferrer" size="sm" aria-label={t('posts.openLabel', { title })}>
          {t('posts.open')}
        </Anchor>
      </td>
    </tr>
  );
}

/** A public summary (endpoint 13) as the shared renderer takes it: the feed as author, the summary's image. */
function summaryView(summary: PublicPostSummary) {
  return {
    id: summary.postId,
    text: summary.postText,
    imageUrl: summary.postImage?.src ?? null,
    author: { name: summary.feedName, imageUrl: summary.feedImageUrl },
    publishedDate: summary.publishedDate,
    claps: summary.claps,
  };
}

/** `GET /public-posts` with its `limit` (1 to 30), rendered as the public page renders posts. */
function PublicPostsPanel({ limit, update }: { limit: number; update: Update }) {
  const { api, workspaceId } = useWorkspaceApi();
  const [value, setValue] = useState<number | string>(limit);
  useEffect(() => setValue(limit), [limit]);
  const posts = useQuery(postQueries.publicPosts(api, workspaceId, limit));
  const t = useT();
  return (
    <Stack maw={680}>
      <Text size="sm">
        {t('posts.publicFeedIntro')}
      </Text>
      <NumberInput
        label={t('posts.numberOfPosts')}
        description={t('posts.numberRange')}
        min={1}
        max={30}
        clampBehavior="strict"
        allowDecimal={false}
        allowNegative={false}
        value={value}
        onChange={(next) => {
          setValue(next);
          if (typeof next === 'number' && next >= 1 && next <= 30) update({ limit: next });
        }}
        w={160}
      />
      <QueryView query={posts} label={t('posts.loadingPublic')}>
        {(items) =>
          items.length === 0 ? (
            <Text>{t('posts.noPublic')}</Text>
          ) : (
            <Stack gap="md" aria-label={t('posts.publicPosts')} role="list">
              {items.map((summary) => (
                <div key={summary.postId} role="listitem">
                  <RenderedPost post={summaryView(summary)} options={{ headingLevel: 2, permalink: false }} />
                  <Anchor href={summary.postUrl} target="_blank" rel="noreferrer" size="sm">
                    {t('posts.openPublic')}
                  </Anchor>
                </div>
              ))}
            </Stack>
          )
        }
      </QueryView>
    </Stack>
  );
}

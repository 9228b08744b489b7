/**
 * The workspace's home, `/w/:workspaceId` (issue 24 points 1 to 5): contacts (total, by state, new per week with a
 * chart, a table and a "view these contacts" link per week, top tags), posts (published in the last 30 days, most
 * clapped, claps over time, scheduled from this console and still due), products and collections (totals, for sale
 * or not, collections with the most products).
 *
 * Each figure is one request through the key's budget (queries.ts: 'speculative' by itself, a 'job' when the person
 * asks), cached with the time it was read ("As of 14:02", Refresh). A figure the budget skipped says so and offers
 * to load it; it never shows 0. Sections the key's scopes do not allow say so (src/lib/permissions.ts).
 * Where the service names `stats` (docs/decisions.md section 12, issue 35 point 5) every count comes from one
 * `GET /stats` at the person's priority, the lists after it (queries.ts, `fromStats`); the page waits for the
 * service's extensions (asked once on connecting) before it asks anything, so it never starts the other way.
 * The charts (uPlot, overview-charts.ts) load after the figures they draw, so the first screen does not wait for
 * them (scripts/first-screens.json, `/w/:id`).
 */
import { Alert, Button, Group, Loader, Stack, Text, Title, useComputedColorScheme } from '@mantine/core';
import { type UseQueryResult, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useId, useMemo, useRef, useState, useSyncExternalStore, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import type { Scope } from '@/api/scopes';
import { isBudgetSkipped } from '@/api/rate-budget';
import { SimpleTable } from '@/components/simple-table';
import { useWorkspaceApi } from '@/lib/workspace-api';
import { allows } from '@/lib/permissions';
import { useHistory } from '@/lib/post-history';
import { collectionProductsHref, contactsListHref, tagFilter, weekFilter } from './figures';
import { formatCount, formatDate, formatDateTime, formatDay, formatTime } from './format';
import { currentLocale } from '@/i18n/i18n';
import { useT } from '@/i18n/react';
import classes from './overview.module.css';
import { CHART_POSTS, COLLECTIONS_COUNTED, type Figure, type OverviewFigures, figureOptions, loadFigures, overviewFigures } from './queries';
import { utcWeekBuckets, weekBuckets } from './week-buckets';
import { useExtensions } from '@/lib/extensions';
import type { ChartData } from './overview-charts';

/** Height of a chart, in px: its place is kept while the chart's code loads. */
const CHART_HEIGHT = 220;

/**
 * A chart (overview-charts.ts), whose code is fetched when the first chart is shown, after the figures it draws: the
 * overview's first screen does not wait for it. Drawn again for new figures and for the other color scheme.
 */
function Chart({ label, data }: { label: string; data: ChartData }) {
  const box = useRef<HTMLDivElement>(null);
  const scheme = useComputedColorScheme('light');
  // The time axis's days are drawn in the language shown.
  const locale = currentLocale();
  const latest = useRef(data);
  latest.current = data;
  const shape = JSON.stringify(data);
  useEffect(() => {
    let remove: (() => void) | undefined;
    let cancelled = false;
    void import('./overview-charts').then(({ drawChart }) => {
      if (!cancelled && box.current) remove = drawChart(box.current, latest.current, CHART_HEIGHT);
    });
    return () => {
      cancelled = true;
      remove?.();
    };
  }, [shape, scheme, locale]);
  return <div ref={box} role="img" aria-label={label} style={{ height: CHART_HEIGHT, width: '100%' }} />;
}

/** The oldest time (epoch ms) a figure of this workspace's overview was read, or 0; follows the query cache. */
function useAsOf(workspaceId: string): number {
  const queryClient = useQueryClient();
  const cache = queryClient.getQueryCache();
  const subscribe = useCallback((listener: () => void) => cache.subscribe(listener), [cache]);
  const read = useCallback(() => {
    const times = cache
      .findAll({ queryKey: ['ws', workspaceId, 'overview'] })
      .map((query) => query.state.dataUpdatedAt)
      .filter((time) => time > 0);
    return times.length ? Math.min(...times) : 0;
  }, [cache, workspaceId]);
  return useSyncExternalStore(subscribe, read, read);
}

/**
 * The values of `figures` as the query cache holds them (undefined while not read, or not read successfully),
 * following the cache. The queries themselves are run by the components that show each figure (`useQuery`), so the
 * page needs no `useQueries` (which would split TanStack Query's core into a chunk of its own on every screen).
 */
function useCachedValues<T>(figures: readonly Figure<T>[]): (T | undefined)[] {
  const queryClient = useQueryClient();
  const cache = queryClient.getQueryCache();
  const subscribe = useCallback((listener: () => void) => cache.subscribe(listener), [cache]);
  const snapshot = useRef<{ key: string; values: (T | undefined)[] }>({ key: '', values: [] });
  const read = useCallback(() => {
    const values = figures.map((figure) => {
      const state = queryClient.getQueryState<T>(figure.queryKey);
      return state?.status === 'success' ? state.data : undefined;
    });
    const states = figures.map((figure) => queryClient.getQueryState(figure.queryKey)?.dataUpdatedAt ?? 0);
    const key = JSON.stringify([figures.map((figure) => figure.queryKey), states, values]);
    if (key !== snapshot.current.key) snapshot.current = { key, values };
    return snapshot.current.values;
  }, [queryClient, figures]);
  return useSyncExternalStore(subscribe, read, read);
}

/** True once every figure of `figures` has an answer in the cache (a value or an error such as a budget skip). */
function useSettled(figures: readonly Figure<unknown>[]): boolean {
  const queryClient = useQueryClient();
  const cache = queryClient.getQueryCache();
  const subscribe = useCallback((listener: () => void) => cache.subscribe(listener), [cache]);
  const read = useCallback(() => figures.every((figure) => {
    const status = queryClient.getQueryState(figure.queryKey)?.status;
    return status === 'success' || status === 'error';
  }), [queryClient, figures]);
  return useSyncExternalStore(subscribe, read, read);
}

/** One figure's query, shown by `children` (see FigureState). */
function FigureCell<T>({ figure, what, children }: { figure: Figure<T>; what: string; children: (data: T) => ReactNode }) {
  const result = useQuery(figureOptions(figure));
  return (
    <FigureState result={result} figure={figure} what={what}>
      {children}
    </FigureState>
  );
}

/** Loads `figure` again at the person's request (a 'job': it waits for the budget rather than spend the reserve). */
function useLoad(figures: readonly Figure<unknown>[]) {
  const queryClient = useQueryClient();
  const [loading, setLoading] = useState(false);
  const load = useCallback(() => {
    setLoading(true);
    void loadFigures(queryClient, figures).finally(() => setLoading(false));
  }, [queryClient, figures]);
  return [load, loading] as const;
}

/**
 * What a figure shows while it is not a number: a loader, "not loaded" with a Load button when the budget skipped
 * it, or "could not load" with a Retry; `children(data)` once read.
 */
function FigureState<T>({ result, figure, what, children }: { result: UseQueryResult<T>; figure: Figure<T>; what: string; children: (data: T) => ReactNode }) {
  const t = useT();
  const figures = useMemo(() => [figure as Figure<unknown>], [figure]);
  const [load, loading] = useLoad(figures);
  if (result.isSuccess) return children(result.data);
  if (result.isError && !loading) {
    const skipped = isBudgetSkipped(result.error);
    return (
      <Stack gap={4} align="flex-start">
        <Text size="sm" c="dimmed" title={skipped ? t('overview.skippedHelp') : undefined}>
          {skipped ? t('overview.skipped') : t('overview.failed')}
        </Text>
        <Button size="compact-xs" variant="light" onClick={load} aria-label={skipped ? t('overview.load', { what }) : t('overview.retry', { what })}>
          {t('overview.loadShort')}
        </Button>
      </Stack>
    );
  }
  return <Loader size="sm" aria-label={t('overview.loading', { what })} />;
}

/** A number with its label, as a labelled group (`getByRole('group', { name })`). */
function StatCard({ label, figure }: { label: string; figure: Figure<number> }) {
  const result = useQuery(figureOptions(figure));
  const id = useId();
  return (
    <div className={classes.card} role="group" aria-labelledby={id}>
      <Text id={id} size="sm" c="dimmed">
        {label}
      </Text>
      <FigureState result={result} figure={figure} what={label}>
        {(value) => (
          <Text fz={28} fw={700} lh={1.2} data-figure>
            {formatCount(value)}
          </Text>
        )}
      </FigureState>
    </div>
  );
}

/** A section of the overview: a titled region, or the reason the key cannot show it. */
function Section({ title, scope, children }: { title: string; scope: Scope; children: () => ReactNode }) {
  const t = useT();
  const { connection } = useWorkspaceApi();
  const id = useId();
  return (
    <section aria-labelledby={id}>
      <Stack gap="md">
        <Title order={2} id={id}>
          {title}
        </Title>
        {allows(connection.permissions, scope) ? children() : <Alert color="gray">{t('overview.notAvailable', { section: title, scope })}</Alert>}
      </Stack>
    </section>
  );
}

function ContactsSection({ figures, workspaceId, weeks }: { figures: OverviewFigures['contacts']; workspaceId: string; weeks: ReturnType<typeof weekBuckets> }) {
  const t = useT();
  const navigate = useNavigate();
  const weekValues = useCachedValues(figures.weeks);
  const tags = useQuery(figureOptions(figures.tags));
  const links = useMemo(() => weeks.map((week) => contactsListHref(workspaceId, weekFilter(week))), [weeks, workspaceId]);
  // The chart's day labels follow the language shown.
  const locale = currentLocale();
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const labels = useMemo(() => weeks.map((week) => formatDay(week.start)), [weeks, locale]);
  // The chart comes once every week has an answer (a number, or a skip that stays a gap, never a 0).
  const settled = useSettled(figures.weeks);
  const values = weekValues.map((value) => value ?? null);
  return (
    <>
      <div className={`${classes.grid} ${classes.thirds}`}>
        <StatCard label={t('overview.contactsTotal')} figure={figures.total} />
        <StatCard label={t('overview.contactsActive')} figure={figures.active} />
        <StatCard label={t('overview.contactsPending')} figure={figures.pending} />
      </div>
      <div className={classes.card}>
        <Stack gap="sm">
          <Title order={3}>{t('overview.weeksTitle')}</Title>
          {settled && values.some((value) => value !== null) ? (
            <Chart label={t('overview.weeksChart')} data={{ kind: 'bars', labels, values, onSelect: (index) => void navigate(links[index]!) }} />
          ) : null}
          <SimpleTable compact aria-label={t('overview.weeksTitle')}>
            <caption className="visually-hidden">{t('overview.weeksCaption')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('overview.weekColumn')}</th>
                <th scope="col">{t('overview.newContactsColumn')}</th>
                <th scope="col">{t('overview.listColumn')}</th>
              </tr>
            </thead>
            <tbody>
              {weeks.map((week, index) => (
                <tr key={week.start.toISOString()}>
                  <th scope="row">{t('overview.weekOf', { day: formatDate(week.start) })}</th>
                  <td>
                    <FigureCell figure={figures.weeks[index]!} what={t('overview.weekOf', { day: formatDate(week.start) })}>
                      {(value) => formatCount(value)}
                    </FigureCell>
                  </td>
                  <td>
                    <Link className={classes.link} to={links[index]!} aria-label={t('overview.viewWeek', { day: formatDate(week.start) })}>
                      {t('overview.viewThese')}
                    </Link>
                  </td>
                </tr>
              ))}
            </tbody>
          </SimpleTable>
        </Stack>
      </div>
      <div className={classes.card}>
        <Stack gap="sm">
          <Title order={3}>{t('overview.tagsTitle')}</Title>
          <FigureState result={tags} figure={figures.tags} what={t('overview.tagsTitle')}>
            {(top) =>
              top.length ? (
                <Group gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
                  {top.map((tag) => (
                    <li key={tag.name}>
                      <Button component={Link} to={contactsListHref(workspaceId, tagFilter(tag.name))} variant="light" size="xs" aria-label={t('overview.tagLink', { tag: tag.name, count: tag.count })}>
                        {tag.name} · {formatCount(tag.count)}
                      </Button>
                    </li>
                  ))}
                </Group>
              ) : (
                <Text size="sm">{t('overview.tagsEmpty')}</Text>
              )
            }
          </FigureState>
        </Stack>
      </div>
    </>
  );
}

function PostsSection({ figures, workspaceId }: { figures: OverviewFigures['posts']; workspaceId: string }) {
  const t = useT();
  const top = useQuery(figureOptions(figures.topClaps));
  const newest = useQuery(figureOptions(figures.newest));
  const history = useHistory(workspaceId);
  const [now] = useState(() => Date.now());
  const due = history
    .filter((entry) => entry.state === 'scheduled' && entry.publishDate !== null && Date.parse(entry.publishDate) > now)
    .toSorted((a, b) => Date.parse(a.publishDate!) - Date.parse(b.publishDate!));
  const chronological = useMemo(() => (newest.data ?? []).toSorted((a, b) => Date.parse(a.publishedDate) - Date.parse(b.publishedDate)), [newest.data]);
  return (
    <>
      <div className={`${classes.grid} ${classes.thirds}`}>
        <StatCard label={t('overview.postsLastMonth')} figure={figures.lastMonth} />
      </div>
      <div className={`${classes.grid} ${classes.halves}`}>
        <div className={classes.card}>
          <Stack gap="sm">
            <Title order={3}>{t('overview.topPostsTitle')}</Title>
            <FigureState result={top} figure={figures.topClaps} what={t('overview.topPostsTitle')}>
              {(posts) =>
                posts.length ? (
                  <ol style={{ margin: 0, paddingInlineStart: '1.25rem' }}>
                    {posts.map((post) => (
                      <li key={post.id}>
                        <Text size="sm" span fw={500}>
                          {post.header || t('overview.untitled')}
                        </Text>{' '}
                        <Text size="sm" span c="dimmed">
                          {t('overview.claps', { count: post.claps })}
                        </Text>
                      </li>
                    ))}
                  </ol>
                ) : (
                  <Text size="sm">{t('overview.topPostsEmpty')}</Text>
                )
              }
            </FigureState>
          </Stack>
        </div>
        <div className={classes.card}>
          <Stack gap="sm">
            <Title order={3}>{t('overview.scheduledTitle')}</Title>
            <Text size="xs" c="dimmed">
              {t('overview.scheduledHelp')}
            </Text>
            {due.length ? (
              <ul style={{ margin: 0, paddingInlineStart: '1.25rem' }}>
                {due.map((entry) => (
                  <li key={entry.requestId}>
                    <Text size="sm" span fw={500}>
                      {entry.summary || t('overview.untitled')}
                    </Text>{' '}
                    <Text size="sm" span c="dimmed">
                      <time dateTime={entry.publishDate!}>{t('overview.scheduledAt', { when: formatDateTime(new Date(entry.publishDate!)) })}</time>
                    </Text>
                  </li>
                ))}
              </ul>
            ) : (
              <Text size="sm">{t('overview.scheduledEmpty')}</Text>
            )}
          </Stack>
        </div>
      </div>
      <div className={classes.card}>
        <Stack gap="sm">
          <Title order={3}>{t('overview.clapsTitle')}</Title>
          <FigureState result={newest} figure={figures.newest} what={t('overview.clapsTitle')}>
            {() => (
              <>
                {chronological.length ? (
                  <Chart
                    label={t('overview.clapsChart')}
                    data={{ kind: 'points', times: chronological.map((post) => Date.parse(post.publishedDate) / 1000), values: chronological.map((post) => post.claps) }}
                  />
                ) : null}
                <details>
                  <summary>{t('overview.clapsCaption', { count: CHART_POSTS })}</summary>
                  <SimpleTable compact aria-label={t('overview.clapsTitle')}>
                    <thead>
                      <tr>
                        <th scope="col">{t('overview.publishedColumn')}</th>
                        <th scope="col">{t('overview.postColumn')}</th>
                        <th scope="col">{t('overview.clapsColumn')}</th>
                      </tr>
                    </thead>
                    <tbody>
                      {chronological.map((post) => (
                        <tr key={post.id}>
                          <td>
                            <time dateTime={post.publishedDate}>{formatDateTime(new Date(post.publishedDate))}</time>
                          </td>
                          <td>{post.header || t('overview.untitled')}</td>
                          <td>{formatCount(post.claps)}</td>
                        </tr>
                      ))}
                    </tbody>
                  </SimpleTable>
                </details>
              </>
            )}
          </FigureState>
        </Stack>
      </div>
    </>
  );
}

function CatalogSection({ figures, workspaceId }: { figures: OverviewFigures['catalog']; workspaceId: string }) {
  const t = useT();
  const collections = useQuery(figureOptions(figures.collections));
  const first = useMemo(() => collections.data?.items ?? [], [collections.data]);
  const counts = useMemo(() => first.map((collection) => figures.inCollection(collection.id)), [first, figures]);
  const countValues = useCachedValues(counts);
  const ranked = first
    .map((collection, index) => ({ collection, index, value: countValues[index] }))
    .toSorted((a, b) => (b.value ?? -1) - (a.value ?? -1));
  const totalFigure = useMemo<Figure<number>>(
    () => ({ queryKey: figures.collections.queryKey, read: async (priority, signal) => (await figures.collections.read(priority, signal)).total }),
    [figures],
  );
  return (
    <>
      {figures.byStatus && figures.collectionsTotal ? (
        <div className={`${classes.grid} ${classes.quarters}`}>
          <StatCard label={t('overview.productsTotal')} figure={figures.products} />
          {figures.byStatus.map(({ status, figure }) => (
            <StatCard key={status} label={t(STATUS_LABELS[status])} figure={figure} />
          ))}
          <StatCard label={t('overview.collectionsTotal')} figure={figures.collectionsTotal} />
        </div>
      ) : (
        <div className={`${classes.grid} ${classes.quarters}`}>
          <StatCard label={t('overview.productsTotal')} figure={figures.products} />
          <StatCard label={t('overview.forSale')} figure={figures.forSale} />
          <StatCard label={t('overview.notForSale')} figure={figures.notForSale} />
          <CollectionsTotal figure={totalFigure} result={collections} />
        </div>
      )}
      <div className={classes.card}>
        <Stack gap="sm">
          <Title order={3}>{t('overview.topCollectionsTitle')}</Title>
          <FigureState result={collections} figure={figures.collections} what={t('overview.topCollectionsTitle')}>
            {(page) =>
              page.items.length ? (
                <>
                  <SimpleTable compact aria-label={t('overview.topCollectionsTitle')}>
                    <thead>
                      <tr>
                        <th scope="col">{t('overview.collectionColumn')}</th>
                        <th scope="col">{t('overview.productsColumn')}</th>
                      </tr>
                    </thead>
                    <tbody>
                      {ranked.map(({ collection, index }) => {
                        const title = collection.title || t('overview.untitledCollection');
                        return (
                          <tr key={collection.id}>
                            <th scope="row">
                              <Link className={classes.link} to={collectionProductsHref(workspaceId, collection.id)} aria-label={t('overview.viewCollection', { title })}>
                                {title}
                              </Link>
                            </th>
                            <td>
                              <FigureCell figure={counts[index]!} what={title}>
                                {(value) => formatCount(value)}
                              </FigureCell>
                            </td>
                          </tr>
                        );
                      })}
                    </tbody>
                  </SimpleTable>
                  {page.total > page.items.length ? (
                    <Text size="xs" c="dimmed">
                      {t('overview.topCollectionsAmong', { counted: COLLECTIONS_COUNTED, total: page.total })}
                    </Text>
                  ) : null}
                </>
              ) : (
                <Text size="sm">{t('overview.topCollectionsEmpty')}</Text>
              )
            }
          </FigureState>
        </Stack>
      </div>
    </>
  );
}

/** The catalog key of each product status's figure (from `GET /stats`). */
const STATUS_LABELS = { active: 'overview.productsActive', draft: 'overview.productsDraft', archived: 'overview.productsArchived' } as const;

/** The collections total, read from the same request as the first page of collections. */
function CollectionsTotal({ figure, result }: { figure: Figure<number>; result: UseQueryResult<{ total: number }> }) {
  const t = useT();
  const id = useId();
  const total = { ...result, data: result.data?.total } as UseQueryResult<number>;
  return (
    <div className={classes.card} role="group" aria-labelledby={id}>
      <Text id={id} size="sm" c="dimmed">
        {t('overview.collectionsTotal')}
      </Text>
      <FigureState result={total} figure={figure} what={t('overview.collectionsTotal')}>
        {(value) => (
          <Text fz={28} fw={700} lh={1.2} data-figure>
            {formatCount(value)}
          </Text>
        )}
      </FigureState>
    </div>
  );
}

/** `/w/:workspaceId`: the overview of the workspace on screen, once the service's extensions are known. */
export function OverviewPage() {
  const t = useT();
  const extensions = useExtensions();
  if (!extensions.known) return <Loader size="sm" aria-label={t('overview.loading', { what: t('overview.title') })} />;
  return <Overview fromStats={extensions.has('stats')} />;
}

/** The overview's figures, from `GET /stats` (`fromStats`) or one request each. */
function Overview({ fromStats }: { fromStats: boolean }) {
  const t = useT();
  const { api, workspaceId, connection } = useWorkspaceApi();
  const [now] = useState(() => new Date());
  const weeks = useMemo(() => (fromStats ? utcWeekBuckets(now) : weekBuckets(now)), [now, fromStats]);
  const figures = useMemo(() => overviewFigures(api, workspaceId, weeks, now, fromStats), [api, workspaceId, weeks, now, fromStats]);
  const asOf = useAsOf(workspaceId);
  const queryClient = useQueryClient();
  const everything = useMemo(() => {
    const list: Figure<unknown>[] = [];
    if (allows(connection.permissions, 'contacts:read-only')) list.push(figures.contacts.total, figures.contacts.active, figures.contacts.pending, ...figures.contacts.weeks, figures.contacts.tags);
    if (allows(connection.permissions, 'posts:read-only')) list.push(figures.posts.lastMonth, figures.posts.topClaps, figures.posts.newest);
    if (allows(connection.permissions, 'products:read-only')) {
      const { catalog } = figures;
      if (catalog.byStatus && catalog.collectionsTotal) list.push(catalog.products, ...catalog.byStatus.map((item) => item.figure), catalog.collectionsTotal, catalog.collections);
      else list.push(catalog.products, catalog.forSale, catalog.notForSale, catalog.collections);
    }
    return list;
  }, [figures, connection.permissions]);
  const refresh = useCallback(() => {
    // The per-collection counts follow: the collections' page is read again, and their queries are marked stale.
    const collectionCounts = queryClient
      .getQueryCache()
      .findAll({ queryKey: ['ws', workspaceId, 'overview', 'products', 'collection'] })
      .map((query) => figures.catalog.inCollection(String(query.queryKey[5])));
    return loadFigures(queryClient, [...everything, ...collectionCounts]);
  }, [queryClient, workspaceId, figures, everything]);
  const [refreshing, setRefreshing] = useState(false);

  return (
    <Stack gap="xl">
      <Group justify="space-between" align="center">
        <Title order={1}>{t('overview.title')}</Title>
        <Group gap="sm">
          <Text size="sm" c="dimmed" role="status">
            {asOf ? <time dateTime={new Date(asOf).toISOString()}>{t('overview.asOf', { time: formatTime(asOf) })}</time> : t('overview.notYetRead')}
          </Text>
          <Button
            variant="default"
            size="xs"
            loading={refreshing}
            onClick={() => {
              setRefreshing(true);
              void refresh().finally(() => setRefreshing(false));
            }}
          >
            {t('overview.refresh')}
          </Button>
        </Group>
      </Group>
      <Section title={t('overview.contacts')} scope="contacts:read-only">
        {() => <ContactsSection figures={figures.contacts} workspaceId={workspaceId} weeks={weeks} />}
      </Section>
      <Section title={t('overview.posts')} scope="posts:read-only">
        {() => <PostsSection figures={figures.posts} workspaceId={workspaceId} />}
      </Section>
      <Section title={t('overview.catalog')} scope="products:read-only">
        {() => <CatalogSection figures={figures.catalog} workspaceId={workspaceId} />}
      </Section>
    </Stack>
  );
}


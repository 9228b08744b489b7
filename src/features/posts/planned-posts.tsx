/**
 * Scheduled and suggested posts beside the published ones (issue 22 point 8), from `GET /post-requests` (our
 * extension `post-requests-list`, docs/decisions.md section 10): a table of what is planned, soonest first, each with its
 * time in the reader's time zone (the interface has no workspace time zone; the composer schedules in the same
 * one) and, where the service has `post-request-cancel` and the key posts:read-write, Withdraw after a
 * confirmation; and a month calendar marking the days with scheduled posts, so gaps in the plan show at a glance.
 * Loaded only when the tab is opened.
 */
import { Alert, Badge, Button, Group, Indicator, Modal, Stack, Text, Title } from '@mantine/core';
import { Calendar, DatesProvider } from '@mantine/dates';
import 'dayjs/locale/nb';
import '@mantine/dates/styles.css';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import type { PostRequestItem } from '@/api/extensions';
import { inList } from '@/api/filter/ast';
import { ErrorMessage } from '@/components/error-message';
import { QueryView } from '@/components/query-state';
import { SimpleTable } from '@/components/simple-table';
import { showSaved } from '@/components/upsert-drawer';
import { useWorkspaceApi } from '@/lib/workspace-api';
import { useExtensions } from '@/lib/extensions';
import { allows } from '@/lib/permissions';
import { formatDateTime } from '@/i18n/format';
import { currentLocale, t as translate } from '@/i18n/i18n';
import { useT } from '@/i18n/react';
import { postQueries } from './queries';

const TIME_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
/** `YYYY-MM-DD` of an instant in the reader's time zone (the Calendar's day keys). */
const dayKeyFormat = new Intl.DateTimeFormat('en-CA', { year: 'numeric', month: '2-digit', day: '2-digit' });
export const dayKey = (iso: string) => dayKeyFormat.format(new Date(iso));

const PLANNED_LIMIT = 100;
const titleOf = (item: PostRequestItem) => item.header?.trim() || item.text?.trim().slice(0, 80) || translate('posts.untitled');

/** Query options: the workspace's scheduled and suggested post requests, soonest first (suggestions without a time last). */
export const plannedQuery = (api: ReturnType<typeof useWorkspaceApi>['api'], workspaceId: string) => ({
  queryKey: [...postQueries.all(workspaceId), 'planned'] as const,
  queryFn: ({ signal }: { signal: AbortSignal }) =>
    api.listPostRequests({ filter: inList('state', ['scheduled', 'suggested']), orderBy: [{ field: 'publishDate', direction: 'asc' }], limit: PLANNED_LIMIT, signal }),
});

function WithdrawDialog({ item, onClose }: { item: PostRequestItem; onClose: () => void }) {
  const { api, workspaceId } = useWorkspaceApi();
  const queryClient = useQueryClient();
  const t = useT();
  const withdraw = useMutation({
    mutationFn: () => api.withdrawPostRequest(item.requestId),
    onSuccess: () => {
      showSaved(translate('posts.withdrawn', { title: titleOf(item) }));
      onClose();
      return queryClient.invalidateQueries({ queryKey: postQueries.all(workspaceId) });
    },
  });
  return (
    <Modal opened onClose={onClose} title={t('posts.withdrawTitle')} closeButtonProps={{ 'aria-label': t('posts.closeDialog') }} centered>
      <Stack gap="sm">
        <Text size="sm">{t('posts.withdrawText', { title: titleOf(item) })}</Text>
        {withdraw.isError ? (
          <Alert color="red" role="alert">
            <ErrorMessage error={withdraw.error} />
          </Alert>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('shell.cancel')}
          </Button>
          <Button color="red" loading={withdraw.isPending} onClick={() => withdraw.mutate()}>
            {t('posts.withdrawConfirm')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/**
 * The month calendar: each day with scheduled posts carries their count, and names their titles (its label and
 * tooltip); beside it the shown month's days with posts, each with its posts' titles (issue 34 point 10: the
 * counts alone said nothing of what is planned).
 */
function PlanCalendar({ items }: { items: PostRequestItem[] }) {
  const t = useT();
  const [month, setMonth] = useState(() => dayKey(new Date().toISOString()).slice(0, 7));
  const byDay = useMemo(() => {
    const days = new Map<string, string[]>();
    for (const item of items) {
      if (item.state !== 'scheduled' || !item.publishDate) continue;
      const key = dayKey(item.publishDate);
      days.set(key, [...(days.get(key) ?? []), titleOf(item)]);
    }
    return days;
  }, [items]);
  const shown = [...byDay].filter(([date]) => date.startsWith(month)).sort(([a], [b]) => a.localeCompare(b));
  const dayFormat = new Intl.DateTimeFormat(currentLocale(), { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' });
  return (
    <section aria-label={t('posts.calendarLabel')}>
      <Title order={2} size="h4" mb="xs">
        {t('posts.calendarTitle')}
      </Title>
      <Group align="flex-start" gap="lg">
        {/* No weekend days in red: Mantine's red 6 on white fails WCAG AA's contrast (axe's color-contrast). */}
        <DatesProvider settings={{ locale: currentLocale(), weekendDays: [] }}>
          <Calendar
            static
            onDateChange={(date) => setMonth(String(date).slice(0, 7))}
            renderDay={(date) => {
              const titles = byDay.get(date) ?? [];
              const count = titles.length;
              const day = Number(date.slice(8, 10));
              const said = `${t('posts.dayCount', { count })}: ${titles.join(', ')}`;
              return count ? (
                <Indicator size={16} label={count} color="blue" offset={-2} title={said}>
                  <span data-scheduled-day={date} aria-label={`${day}: ${said}`}>
                    {day}
                  </span>
                </Indicator>
              ) : (
                <span>{day}</span>
              );
            }}
          />
        </DatesProvider>
        {shown.length ? (
          <dl aria-label={t('posts.calendarByDay')} style={{ margin: 0, minWidth: 0, flex: '1 1 200px' }}>
            {shown.map(([date, titles]) => (
              <div key={date} style={{ marginBottom: 8 }}>
                <Text component="dt" size="sm" fw={600}>
                  <time dateTime={date}>{dayFormat.format(new Date(`${date}T12:00:00Z`))}</time>
                </Text>
                {titles.map((title, index) => (
                  <Text component="dd" size="sm" key={index} style={{ margin: 0, overflowWrap: 'break-word' }}>
                    {title}
                  </Text>
                ))}
              </div>
            ))}
          </dl>
        ) : null}
      </Group>
    </section>
  );
}

export function PlannedPosts() {
  const { api, workspaceId, connection } = useWorkspaceApi();
  const extensions = useExtensions();
  const planned = useQuery(plannedQuery(api, workspaceId));
  const [withdrawing, setWithdrawing] = useState<PostRequestItem | null>(null);
  const t = useT();
  const canCancel = extensions.has('post-request-cancel');
  const canWrite = allows(connection.permissions, 'posts:read-write');
  return (
    <QueryView query={planned} label={t('posts.loadingPlanned')}>
      {(data) => (
        <Stack>
          <Text size="sm" c="dimmed">
            {t('posts.timeZoneNote', { zone: TIME_ZONE })}
            {data.meta.maxResults > data.items.length ? ` ${t('posts.more', { shown: data.items.length, total: data.meta.maxResults })}` : ''}
          </Text>
          {canCancel ? null : (
            <Text size="sm" c="dimmed">
              {t('posts.withdrawNotAllowed')}
            </Text>
          )}
          {data.items.length === 0 ? (
            <Text>{t('posts.plannedNone')}</Text>
          ) : (
            <SimpleTable aria-label={t('posts.plannedTable')} striped cards>
              <thead>
                <tr>
                  <th scope="col">{t('posts.colState')}</th>
                  <th scope="col">{t('posts.colWhen')}</th>
                  <th scope="col">{t('posts.colPost')}</th>
                  {canCancel ? <th scope="col">{t('posts.colActions')}</th> : null}
                </tr>
              </thead>
              <tbody>
                {data.items.map((item) => (
                  <tr key={item.requestId}>
                    <td>
                      <Badge variant="light" color={item.state === 'scheduled' ? 'blue' : 'gray'}>
                        {item.state === 'scheduled' ? t('posts.scheduled') : t('posts.suggested')}
                      </Badge>
                    </td>
                    <td data-label={t('posts.colWhen')}>{item.publishDate ? <time dateTime={item.publishDate}>{formatDateTime(item.publishDate)}</time> : t('posts.noTime')}</td>
                    <td>{titleOf(item)}</td>
                    {canCancel ? (
                      <td>
                        <Button size="xs" variant="light" color="red" disabled={!canWrite} title={canWrite ? undefined : t('posts.withdrawNeedsScope')} aria-label={t('posts.withdrawLabel', { title: titleOf(item) })} onClick={() => setWithdrawing(item)}>
                          {t('posts.withdraw')}
                        </Button>
                      </td>
                    ) : null}
                  </tr>
                ))}
              </tbody>
            </SimpleTable>
          )}
          <PlanCalendar items={data.items} />
          {withdrawing ? <WithdrawDialog item={withdrawing} onClose={() => setWithdrawing(null)} /> : null}
        </Stack>
      )}
    </QueryView>
  );
}

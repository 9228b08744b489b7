/**
 * A record's History and a contact's Consent record, in its drawer (issue 33 points 5 and 8), from our service's
 * activity log (`GET /activity`, docs/decisions.md section 11). Only where `GET /extensions` names `activity`; elsewhere
 * one line says the service keeps no history. Each section is closed until opened, and the two share one request
 * (the record's latest 100 entries, `activityQueries.record`), so a drawer costs nothing until someone asks.
 * History lists each change (when, which key and source, what from what to what) with Revert on what the service
 * can undo; a refusal is said as a sentence. The consent record downloads as JSON and CSV proof. Texts: the
 * `activity` catalog, waited for here (`useArea`: render under a `Suspense` boundary).
 */
import { Alert, Anchor, Button, Group, List, Stack, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { type ActivityEntry, type RevertResult, activityHeaders } from '@/api/activity';
import { useArea, useT } from '@/i18n/react';
import { activityQueries, actionText, actorText, changeLines, conflictSentence, consentCsv, consentEntries, consentJson, isRevertible } from '@/lib/activity';
import { useWorkspaceApi } from '@/lib/workspace-api';
import { useExtensions } from '@/lib/extensions';
import { saveFile } from '@/lib/save-file';
import { ErrorMessage } from './error-message';
import { RelativeTime } from './relative-time';

/** The record's entries, asked for only while `enabled`. */
function useRecordActivity(resourceId: string, enabled: boolean) {
  const { api, workspaceId } = useWorkspaceApi();
  return useQuery({ ...activityQueries.record(api, workspaceId, resourceId), enabled });
}

/**
 * Reverts one entry or a batch (`POST /activity/revert`), then refreshes everything of the workspace the revert may
 * have changed. `{ mutate, isPending, data, isError, error }` as React Query's mutations (a plain state here: a shared
 * chunk using `useMutation` split the query library out of the first screens' main chunk, scripts/first-screens.json).
 */
export function useRevert() {
  const { api, workspaceId } = useWorkspaceApi();
  const queryClient = useQueryClient();
  const [state, setState] = useState<{ isPending: boolean; data?: RevertResult; error?: unknown }>({ isPending: false });
  const mutate = (body: { activityId: string } | { batchId: string }, options: { onSettled?: () => void } = {}) => {
    setState({ isPending: true });
    api
      .revertActivity(body, { idempotencyKey: crypto.randomUUID(), headers: activityHeaders('console/history') })
      .then(
        (data) => {
          setState({ isPending: false, data });
          void queryClient.invalidateQueries({ queryKey: ['ws', workspaceId] });
        },
        (error: unknown) => setState({ isPending: false, error }),
      )
      .finally(() => options.onSettled?.());
  };
  return { mutate, isPending: state.isPending, data: state.data, isError: state.error !== undefined, error: state.error };
}

/** What a revert did, in sentences: how many were reverted, and each entry left as it was with its reason. */
export function RevertOutcome({ result }: { result: RevertResult }) {
  const t = useT();
  return (
    <Alert color={result.conflicts.length ? 'yellow' : 'green'} p="xs" role="status">
      <Text size="sm">{result.reverted ? t('activity.revertedCount', { count: result.reverted }) : null}</Text>
      {result.conflicts.length ? (
        <>
          <Text size="sm">{t('activity.notReverted', { count: result.conflicts.length })}</Text>
          <List size="sm">
            {result.conflicts.slice(0, 20).map((conflict) => (
              <List.Item key={conflict.activityId}>
                <code>{conflict.resourceId}</code>: {conflictSentence(conflict.reason)}
              </List.Item>
            ))}
          </List>
        </>
      ) : null}
    </Alert>
  );
}

function HistoryEntry({ entry, canRevert }: { entry: ActivityEntry; canRevert: boolean }) {
  const t = useT();
  const revert = useRevert();
  const lines = changeLines(entry);
  return (
    <List.Item>
      <Stack gap={2}>
        <Group gap="xs" wrap="wrap">
          <Text size="sm" fw={600}>
            {actionText(entry.action)}
          </Text>
          <Text size="xs" c="dimmed">
            <RelativeTime iso={entry.created} /> · {t('activity.by', { actor: actorText(entry) })}
          </Text>
        </Group>
        {lines.map((line) => (
          <Text key={line} size="sm" style={{ overflowWrap: 'anywhere' }}>
            {line}
          </Text>
        ))}
        {canRevert && isRevertible(entry) && !revert.data ? (
          <Button size="compact-xs" variant="default" w="fit-content" loading={revert.isPending} onClick={() => revert.mutate({ activityId: entry.activityId })} aria-label={t('activity.revertLabel', { what: [actionText(entry.action), ...lines].join(', ') })}>
            {t('activity.revert')}
          </Button>
        ) : null}
        {revert.data ? <RevertOutcome result={revert.data} /> : null}
        {revert.isError ? (
          <Alert color="red" p="xs" role="alert" title={t('activity.revertFailed')}>
            <ErrorMessage error={revert.error} />
          </Alert>
        ) : null}
      </Stack>
    </List.Item>
  );
}

/** A disclosure: a button that opens and closes `children`, named by what it shows. */
function Disclosure({ label, open, onToggle, children }: { label: string; open: boolean; onToggle: () => void; children: React.ReactNode }) {
  return (
    <Stack gap="xs">
      <Button size="xs" variant="subtle" w="fit-content" px={0} aria-expanded={open} onClick={onToggle}>
        {label}
      </Button>
      {open ? children : null}
    </Stack>
  );
}

/**
 * The History of record `resourceId` (a contact, product or collection): closed until opened. `canRevert`: the key
 * may write that resource (the service answers 403 otherwise).
 */
export function RecordHistory({ resourceId, canRevert }: { resourceId: string; canRevert: boolean }) {
  useArea('activity');
  const t = useT();
  const extensions = useExtensions();
  const [open, setOpen] = useState(false);
  const history = useRecordActivity(resourceId, open && extensions.has('activity'));
  if (!extensions.known) return null;
  if (!extensions.has('activity')) {
    return (
      <Text size="xs" c="dimmed">
        {t('activity.noHistoryService')}
      </Text>
    );
  }
  return (
    <section aria-label={t('activity.history')}>
      <Disclosure label={open ? t('activity.hideHistory') : t('activity.showHistory')} open={open} onToggle={() => setOpen(!open)}>
        {history.isPending ? (
          <Text size="sm" c="dimmed">
            {t('activity.loading')}
          </Text>
        ) : history.isError ? (
          <ErrorMessage error={history.error} />
        ) : history.data.items.length === 0 ? (
          <Text size="sm">{t('activity.noEntries')}</Text>
        ) : (
          <>
            <List spacing="sm" listStyleType="none" aria-label={t('activity.history')}>
              {history.data.items.map((entry) => (
                <HistoryEntry key={entry.activityId} entry={entry} canRevert={canRevert} />
              ))}
            </List>
            {history.data.meta.maxResults > history.data.items.length ? (
              <Text size="xs" c="dimmed">
                {t('activity.latestOnly', { shown: history.data.items.length, total: history.data.meta.maxResults })}
              </Text>
            ) : null}
          </>
        )}
      </Disclosure>
    </section>
  );
}

/** A contact's consent record and its History, as its drawer shows them (one lazy chunk for both). */
export function ContactActivity({ contactId, canRevert }: { contactId: string; canRevert: boolean }) {
  return (
    <>
      <ConsentRecord contactId={contactId} />
      <RecordHistory resourceId={contactId} canRevert={canRevert} />
    </>
  );
}

/** A contact's consent record (its create and every change of its notification settings), with JSON and CSV downloads. */
export function ConsentRecord({ contactId }: { contactId: string }) {
  useArea('activity');
  const t = useT();
  const extensions = useExtensions();
  const [open, setOpen] = useState(false);
  const history = useRecordActivity(contactId, open && extensions.has('activity'));
  if (!extensions.known || !extensions.has('activity')) return null;
  const entries = history.data ? consentEntries(history.data.items) : [];
  return (
    <section aria-label={t('activity.consent')}>
      <Disclosure label={open ? t('activity.hideConsent') : t('activity.showConsent')} open={open} onToggle={() => setOpen(!open)}>
        <Text size="xs" c="dimmed">
          {t('activity.consentIntro')}
        </Text>
        {history.isPending ? (
          <Text size="sm" c="dimmed">
            {t('activity.loading')}
          </Text>
        ) : history.isError ? (
          <ErrorMessage error={history.error} />
        ) : entries.length === 0 ? (
          <Text size="sm">{t('activity.noConsent')}</Text>
        ) : (
          <>
            <List spacing="xs" listStyleType="none" aria-label={t('activity.consent')}>
              {entries.map((entry) => (
                <List.Item key={entry.activityId}>
                  <Text size="sm">
                    <RelativeTime iso={entry.created} /> · {actionText(entry.action)}: {changeLines(entry).join('; ')}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {t('activity.by', { actor: actorText(entry) })}
                  </Text>
                </List.Item>
              ))}
            </List>
            <Group gap="xs">
              <Anchor component="button" type="button" size="sm" onClick={() => saveFile(new Blob([consentJson(contactId, entries)], { type: 'application/json' }), `consent-${contactId}.json`)}>
                {t('activity.downloadJson')}
              </Anchor>
              <Anchor component="button" type="button" size="sm" onClick={() => saveFile(new Blob([consentCsv(entries)], { type: 'text/csv;charset=utf-8' }), `consent-${contactId}.csv`)}>
                {t('activity.downloadCsv')}
              </Anchor>
            </Group>
          </>
        )}
      </Disclosure>
    </section>
  );
}

/**
 * The header's search across workspaces (issue 24 point 6) and "everything about this person" (point 7), in one
 * dialog opened from the header (composed by src/app/header-tools.tsx).
 *
 * The search asks every workspace the console holds a key for at once (people-search.ts), after a pause of 500 ms
 * with at least 2 characters, or at Enter (issue 19 point 2); a term already answered is served from the cache for
 * a minute. Results are grouped by workspace, each opening that contact's record (`/w/:id/contacts/:contactId`,
 * src/lib/record-route.ts); a workspace whose key cannot read contacts says so.
 * From a result, "everything about this person" gathers the contacts with the same email or phone in every
 * workspace and offers them as one JSON and one CSV file, saying where the person is, which workspaces were not
 * searched (a key that cannot read contacts, a failure, or no key here at all), and how the person is erased: from
 * the contact's drawer where the service can erase (docs/decisions.md section 10), else by asking that service.
 */
import { Alert, Anchor, Button, Group, Loader, Modal, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useId, useMemo, useState } from 'react';
import { Link } from 'react-router';
import type { Contact } from '@/api/contacts';
import { LazyErrorMessage } from '@/components/lazy-error-message';
import { useConnections } from '@/lib/connections';
import { saveFile } from '@/lib/save-file';
import { t as translate } from '@/i18n/i18n';
import { formatList } from '@/i18n/format';
import { useT } from '@/i18n/react';
import { type WorkspaceAnswer, findPerson, personCsv, personJson, searchWorkspaces } from './people-search';

/** How long a search's answer is reused for the same term, in ms (issue 19 point 2). */
const SEARCH_FRESH_MS = 60_000;

/** Who a contact is, in a few words: its name, else its email, else its phone. */
const who = (contact: Pick<Contact, 'name' | 'email' | 'phone'>) => contact.name || contact.email || contact.phone || translate('people.noName');

/** The key of the saved workspaces, for the cache: their ids (never their keys). */
function useWorkspaces() {
  const connections = useConnections();
  const ids = connections.map((c) => c.workspaceId).sort().join(',');
  return { connections, ids };
}

/** One workspace's results or why there are none. */
function WorkspaceResults({ answer, onOpen, onPerson }: { answer: WorkspaceAnswer; onOpen: () => void; onPerson: (contact: Contact) => void }) {
  const t = useT();
  const id = useId();
  return (
    <section aria-labelledby={id}>
      <Group gap="xs" align="baseline">
        <Title order={3} size="h5" id={id}>
          {answer.workspaceName}
        </Title>
        {answer.status === 'ok' ? (
          <Text size="xs" c="dimmed">
            {t('people.found', { count: answer.total })}
          </Text>
        ) : null}
      </Group>
      {answer.status === 'no-scope' || answer.status === 'no-key' ? (
        <Text size="sm" c="dimmed">
          {answer.status === 'no-scope' ? t('people.noScope') : t('people.noKey')}
        </Text>
      ) : answer.status === 'error' ? (
        <Text size="sm" c="red">
          {t('people.failed')}{' '}
          <LazyErrorMessage error={answer.error} />
        </Text>
      ) : answer.contacts.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('people.none')}
        </Text>
      ) : (
        <Stack gap={4} component="ul" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
          {answer.contacts.map((contact) => (
            <li key={contact.id}>
              <Group gap="xs" justify="space-between" wrap="nowrap">
                <div>
                  <Anchor component={Link} to={`/w/${encodeURIComponent(answer.workspaceId)}/contacts/${encodeURIComponent(contact.id)}`} onClick={onOpen} size="sm" fw={500}>
                    {who(contact)}
                  </Anchor>
                  <Text size="xs" c="dimmed">
                    {[contact.email, contact.phone].filter(Boolean).join(' · ')}
                  </Text>
                </div>
                {contact.email || contact.phone ? (
                  <Button size="compact-xs" variant="light" onClick={() => onPerson(contact)} aria-label={t('people.everything', { who: who(contact) })}>
                    {t('people.everythingShort')}
                  </Button>
                ) : null}
              </Group>
            </li>
          ))}
          {answer.total > answer.contacts.length ? (
            <Text size="xs" c="dimmed" component="li">
              {t('people.more', { shown: answer.contacts.length, total: answer.total })}
            </Text>
          ) : null}
        </Stack>
      )}
    </section>
  );
}

/** "Everything about this person": where the records are, the deletion note, and the two downloads. */
function PersonReport({ person, onBack }: { person: Contact; onBack: () => void }) {
  const t = useT();
  const { connections, ids } = useWorkspaces();
  const subject = { email: person.email, phone: person.phone };
  const report = useQuery({
    queryKey: ['people-search', 'person', ids, subject.email ?? null, subject.phone ?? null],
    queryFn: ({ signal }) => findPerson(connections, subject, { signal }),
    staleTime: SEARCH_FRESH_MS,
  });
  const what = formatList([subject.email, subject.phone].filter((value): value is string => Boolean(value)), 'disjunction');
  const stamp = new Date().toISOString().slice(0, 10);
  return (
    <Stack gap="sm">
      <Title order={2} size="h4">
        {t('people.everything', { who: who(person) })}
      </Title>
      <Text size="sm">{t('people.reportMatch', { what })}</Text>
      {report.isPending ? (
        <Loader size="sm" aria-label={t('people.reportLooking')} />
      ) : report.isError ? (
        <Alert color="red">
          <LazyErrorMessage error={report.error} />
        </Alert>
      ) : (
        <>
          <PlaceList title={t('people.reportFoundIn')} answers={report.data.filter((a) => a.status === 'ok' && a.contacts.length > 0)} withCount />
          <PlaceList title={t('people.reportNotFoundIn')} answers={report.data.filter((a) => a.status === 'ok' && a.contacts.length === 0)} />
          <PlaceList title={t('people.reportNotSearched')} answers={report.data.filter((a) => a.status !== 'ok')} />
          <Alert color="yellow">{t('people.reportDeletion')}</Alert>
          <Group gap="xs">
            <Button size="xs" onClick={() => saveFile(new Blob([personJson(subject, report.data, t('people.reportDeletion'))], { type: 'application/json' }), `person-${stamp}.json`)}>
              {t('people.downloadJson')}
            </Button>
            <Button size="xs" variant="default" onClick={() => saveFile(new Blob([personCsv(report.data)], { type: 'text/csv' }), `person-${stamp}.csv`)}>
              {t('people.downloadCsv')}
            </Button>
          </Group>
        </>
      )}
      <Group>
        <Button size="xs" variant="subtle" onClick={onBack}>
          {t('people.back')}
        </Button>
      </Group>
    </Stack>
  );
}

/** A titled list of workspaces (nothing when empty). */
function PlaceList({ title, answers, withCount }: { title: string; answers: WorkspaceAnswer[]; withCount?: boolean }) {
  const t = useT();
  const id = useId();
  if (!answers.length) return null;
  return (
    <div>
      <Text size="sm" fw={600} id={id}>
        {title}
      </Text>
      <ul aria-labelledby={id} style={{ margin: 0 }}>
        {answers.map((answer) => (
          <li key={answer.workspaceId}>
            <Text size="sm" span>
              {answer.workspaceName}
              {withCount && answer.status === 'ok' ? ` (${t('people.reportRecords', { count: answer.contacts.length })})` : ''}
            </Text>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The dialog: the search field and its results, or one person's report. */
export function PeopleSearchDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const t = useT();
  const { connections, ids } = useWorkspaces();
  const [text, setText] = useState('');
  const [submitted, setSubmitted] = useState('');
  const [paused] = useDebouncedValue(text.trim(), 500);
  const [person, setPerson] = useState<Contact | null>(null);
  // The term searched: the one Enter sent while the text is unchanged, else the text after a pause, from 2 characters.
  const term = submitted && submitted === text.trim() ? submitted : paused.length >= 2 ? paused : '';
  const results = useQuery({
    queryKey: ['people-search', ids, term],
    queryFn: ({ signal }) => searchWorkspaces(connections, term, { signal }),
    enabled: term !== '',
    staleTime: SEARCH_FRESH_MS,
    placeholderData: keepPreviousData,
  });
  const close = useMemo(
    () => () => {
      setPerson(null);
      onClose();
    },
    [onClose],
  );
  return (
    <Modal opened={opened} onClose={close} title={t('people.title')} size="lg" closeButtonProps={{ 'aria-label': t('people.close') }}>
      {person ? (
        <PersonReport person={person} onBack={() => setPerson(null)} />
      ) : (
        <Stack gap="md">
          <form
            role="search"
            onSubmit={(event) => {
              event.preventDefault();
              setSubmitted(text.trim());
            }}
          >
            <TextInput
              label={t('people.field')}
              description={t('people.fieldHelp', { count: connections.length })}
              value={text}
              onChange={(event) => setText(event.currentTarget.value)}
              data-autofocus
              type="search"
              rightSection={results.isFetching ? <Loader size="xs" aria-label={t('people.searching')} /> : null}
            />
          </form>
          {results.data && term ? (
            <Stack gap="md" aria-label={t('people.results')} role="region" aria-busy={results.isFetching || undefined}>
              {results.data.map((answer) => (
                <WorkspaceResults key={answer.workspaceId} answer={answer} onOpen={close} onPerson={setPerson} />
              ))}
            </Stack>
          ) : null}
        </Stack>
      )}
    </Modal>
  );
}

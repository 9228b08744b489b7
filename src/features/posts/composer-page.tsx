/**
 * `/w/:workspaceId/posts/new` (issue 7): the post composer, behind `posts:read-write`.
 * - Every field of a post request (composer-form.ts derives the form schema from the contract), the action as a
 *   clear choice (publish now, schedule, suggest), a date-time picker (to the minute) in a time zone of the
 *   user's choice (the browser's by default, remembered per workspace on this device; issue 23 point 9) that
 *   refuses a past time and shows the UTC time sent.
 * - A live preview rendered by the public embed page's own rules (src/embed/post-view.ts).
 * - The draft saves itself to localStorage per workspace as the user types, comes back after a reload, and is
 *   cleared after a successful submit; leaving with an unsent post asks first (react-router's blocker).
 * - Submitting waits for the service (nothing optimistic), asks before publishing to everyone when there are no
 *   recipients, then shows the state and request id; 400 messages land on their fields. The requests sent from
 *   this browser are listed per workspace.
 */
import '@mantine/dates/styles.css';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Checkbox,
  Code,
  Fieldset,
  Grid,
  Group,
  Modal,
  Paper,
  Radio,
  Select,
  Stack,
  Text,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import { DateTimePicker } from '@mantine/dates';
import { useDebouncedValue } from '@mantine/hooks';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useCallback, useEffect, useRef, useState } from 'react';
import { Controller, type FieldPath, useForm, useWatch } from 'react-hook-form';
import { Link } from 'react-router';
import { isApiError } from '@/api/api-error';
import type { PostAction, PostRequest, PostRequestResponse } from '@/api/posts';
import { ErrorDetails } from '@/components/error-message';
import { SimpleTable } from '@/components/simple-table';
import type { PostView } from '@/embed/post-view';
import { useWorkspaceApi } from '@/lib/api';
import { describeError, loadErrorSentences, messageSentences } from '@/lib/error-sentence';
import { withSentences } from '@/lib/form-errors';
import { useLocalState } from '@/lib/local-state';
import { useBlocker } from '@/lib/navigation-guard';
import {
  ACTION_SUBMIT_LABEL,
  COMPOSER_DEFAULTS,
  type ComposerValues,
  TEXT_MAX,
  composerErrorMap,
  composerSchemaFor,
  hasFormRecipients,
  isBlank,
  localToUtcIso,
  postSummary,
  serverErrorFields,
  toPostRequest,
} from './composer-form';
import { type HistoryEntry, addHistory, clearHistory, useHistory } from '@/lib/post-history';
import { clearDraft, loadDraft, saveDraft } from './composer-storage';
import { MediaField } from './media-field';
import { postQueries } from './queries';
import { RecipientsField } from './recipients-field';
import { postMessages as pm } from './messages';
import { RenderedPost } from './rendered-post';
import { browserTimeZone, isTimeZone, timeZoneNames, utcToZoned } from './zoned-time';

const DRAFT_DELAY_MS = 400;
const BROWSER_ZONE = browserTimeZone();
let zoneOptions: { value: string; label: string }[] | null = null;
/** The time-zone choices, the browser's zone named as such (built once, on first use). */
function timeZoneOptions(): { value: string; label: string }[] {
  zoneOptions ??= timeZoneNames().map((zone) => ({ value: zone, label: zone === BROWSER_ZONE ? pm.browserZone(zone) : zone }));
  return zoneOptions;
}

const ACTIONS: { value: PostAction; label: string; description: string }[] = [
  { value: 'publish', label: 'Publish now', description: 'Goes live as soon as the service accepts it.' },
  { value: 'schedule', label: 'Schedule', description: 'Goes live at the date and time you pick.' },
  { value: 'suggest', label: 'Suggest', description: 'Waits for approval in the product’s own app; never listed from here.' },
];

/** The page: one composer per workspace (a workspace switch starts over with that workspace's draft). */
export function ComposerPage() {
  const { workspaceId } = useWorkspaceApi();
  return <Composer key={workspaceId} />;
}

/** What the composer shows after a request was accepted. */
type Outcome = { response: PostRequestResponse; action: PostAction; publishDate: string | null; isPrivate: boolean; timeZone: string };

function Composer() {
  const { api, workspaceId } = useWorkspaceApi();
  const queryClient = useQueryClient();
  const [restored] = useState(() => loadDraft(workspaceId));
  const [draftSavedAt, setDraftSavedAt] = useState<string | null>(restored?.savedAt ?? null);
  const [confirming, setConfirming] = useState<{ request: PostRequest; values: ComposerValues } | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  // The zone the publish time is read in: remembered per workspace on this device, the browser's by default.
  const [savedZone, setSavedZone] = useLocalState<string | null>(`workspace-admin.composer.time-zone.${workspaceId}`, null);
  const timeZone = savedZone && isTimeZone(savedZone) ? savedZone : BROWSER_ZONE;
  const zoneRef = useRef(timeZone);
  zoneRef.current = timeZone;
  const [resolver] = useState(() => {
    const make = (zone: string) => withSentences(zodResolver(composerSchemaFor(zone), { error: composerErrorMap }));
    const byZone = new Map<string, ReturnType<typeof make>>();
    const resolve: ReturnType<typeof make> = (values, context, options) => {
      const zone = zoneRef.current;
      if (!byZone.has(zone)) byZone.set(zone, make(zone));
      return byZone.get(zone)!(values, context, options);
    };
    return resolve;
  });
  const form = useForm<ComposerValues>({ defaultValues: COMPOSER_DEFAULTS, resolver });
  const { control, register, handleSubmit, reset, setError, formState } = form;
  const { errors, isDirty } = formState;
  const values = useWatch({ control }) as ComposerValues;

  // Bring back the saved draft: the defaults stay the defaults, so a restored draft counts as unsent changes.
  useEffect(() => {
    if (restored) reset(restored.values, { keepDefaultValues: true });
  }, [restored, reset]);

  // Save the draft as the user types (debounced); a form back at its defaults has no draft. A pending save is
  // written at once when the page goes away (reload, tab closed) or the composer unmounts.
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const pending = useRef<ComposerValues | null>(null);
  const [saving, setSaving] = useState(false);
  const flushDraft = useCallback(() => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    const next = pending.current;
    pending.current = null;
    setSaving(false);
    if (!next) return;
    if (isBlank(next)) {
      clearDraft(workspaceId);
      setDraftSavedAt(null);
    } else {
      setDraftSavedAt(saveDraft(workspaceId, next));
    }
  }, [workspaceId]);
  useEffect(() => {
    const subscription = form.watch((next) => {
      pending.current = structuredClone(next) as ComposerValues;
      setSaving(true);
      if (timer.current) clearTimeout(timer.current);
      timer.current = setTimeout(flushDraft, DRAFT_DELAY_MS);
    });
    window.addEventListener('pagehide', flushDraft);
    return () => {
      subscription.unsubscribe();
      window.removeEventListener('pagehide', flushDraft);
      flushDraft(); // leaving: keep the last keystrokes too
    };
  }, [form, flushDraft]);

  const discardDraft = () => {
    if (timer.current) clearTimeout(timer.current);
    pending.current = null;
    setSaving(false);
    reset(COMPOSER_DEFAULTS);
    // reset() notifies the watcher, which would save the blank form: that clears the draft, as wanted.
    clearDraft(workspaceId);
    setDraftSavedAt(null);
  };

  // What must happen for every accepted request lives here, not in `mutate`'s callbacks: it then happens even
  // when the user has left the page before the answer came (history kept, draft cleared, lists refreshed).
  const mutation = useMutation({
    mutationFn: ({ request }: { request: PostRequest; sent: ComposerValues }) => api.createPostRequest(request),
    onSuccess: (response, { request, sent }) => {
      addHistory(workspaceId, {
        at: new Date().toISOString(),
        action: request.action,
        state: response.state,
        requestId: response.body.requestId,
        summary: postSummary(sent),
        publishDate: request.publishDate ?? null,
        recipients: hasFormRecipients(sent),
      });
      clearDraft(workspaceId);
      return queryClient.invalidateQueries({ queryKey: postQueries.all(workspaceId) });
    },
  });

  const blocker = useBlocker(({ currentLocation, nextLocation }) => isDirty && !mutation.isPending && currentLocation.pathname !== nextLocation.pathname);

  const send = (request: PostRequest, sent: ComposerValues) => {
    setOutcome(null);
    mutation.mutate({ request, sent }, {
      onSuccess: (response) => {
        if (timer.current) clearTimeout(timer.current);
        pending.current = null;
        setSaving(false);
        reset(COMPOSER_DEFAULTS);
        clearDraft(workspaceId);
        setDraftSavedAt(null);
        setOutcome({ response, action: request.action, publishDate: request.publishDate ?? null, isPrivate: hasFormRecipients(sent), timeZone });
      },
      onError: async (error) => {
        await loadErrorSentences();
        if (isApiError(error) && error.status === 400) {
          let focused = false;
          for (const { field, message: wire } of serverErrorFields(error.message)) {
            const message = messageSentences(wire).join(' ');
            if (field === 'root') setError('root.server', { type: '400', message });
            else {
              setError(field as FieldPath<ComposerValues>, { type: '400', message }, { shouldFocus: !focused });
              focused = true;
            }
          }
          return;
        }
        setError('root.server', { type: isApiError(error) ? String(error.status) : 'network', message: describeError(error).text });
      },
    });
  };

  const onValid = (valid: ComposerValues) => {
    const request = toPostRequest(valid, timeZone);
    if (valid.action !== 'suggest' && !hasFormRecipients(valid)) setConfirming({ request, values: valid });
    else send(request, valid);
  };

  const action = values.action ?? 'publish';
  const utc = localToUtcIso(values.publishDate ?? '', timeZone);
  const [previewValues] = useDebouncedValue(values, 250);
  const rootError = errors.root?.server?.message;

  return (
    <Stack>
      <Group justify="space-between" align="center">
        <Title order={1}>New post</Title>
        <Anchor component={Link} to={`/w/${workspaceId}/posts`}>
          Back to posts
        </Anchor>
      </Group>
      {outcome ? <OutcomeNotice outcome={outcome} workspaceId={workspaceId} onClose={() => setOutcome(null)} /> : null}
      <Grid gap="xl">
        <Grid.Col span={{ base: 12, md: 7 }}>
          <form onSubmit={(event) => void handleSubmit(onValid)(event)} noValidate aria-label="Compose a post">
            <Stack gap="lg">
              <Controller
                control={control}
                name="action"
                render={({ field }) => (
                  <Radio.Group label="Action" description="What should happen when you submit" value={field.value} onChange={(value) => field.onChange(value as PostAction)}>
                    <Group mt="xs" gap="lg" align="flex-start">
                      {ACTIONS.map((choice) => (
                        <Radio key={choice.value} value={choice.value} label={choice.label} description={choice.description} maw={210} />
                      ))}
                    </Group>
                  </Radio.Group>
                )}
              />
              {action !== 'publish' ? (
                <Stack gap={4}>
                  <Group align="flex-start" gap="md">
                    <Controller
                      control={control}
                      name="publishDate"
                      render={({ field, fieldState }) => (
                        <DateTimePicker
                          label={action === 'schedule' ? pm.publishAt : pm.suggestedAt}
                          description={pm.publishAtHint(timeZone)}
                          clearable
                          valueFormat="D MMM YYYY, HH:mm"
                          minDate={utcToZoned(Date.now(), timeZone).slice(0, 10)}
                          value={field.value || null}
                          onChange={(next) => field.onChange(next ?? '')}
                          onBlur={field.onBlur}
                          error={fieldState.error?.message}
                          required={action === 'schedule'}
                          timePickerProps={{ hoursInputLabel: 'Hours', minutesInputLabel: 'Minutes' }}
                          ariaLabels={pm.calendarLabels}
                          submitButtonProps={{ 'aria-label': 'Confirm date and time' }}
                          clearButtonProps={{ 'aria-label': 'Clear date and time' }}
                          w={260}
                        />
                      )}
                    />
                    <Select
                      label={pm.timeZone}
                      description={pm.timeZoneHint}
                      data={timeZoneOptions()}
                      value={timeZone}
                      onChange={(zone) => {
                        if (!zone) return;
                        setSavedZone(zone === BROWSER_ZONE ? null : zone);
                        // The wall time stays as typed; the instant it names follows the zone, and is checked again.
                        if (form.getValues('publishDate')) setTimeout(() => void form.trigger('publishDate'));
                      }}
                      searchable
                      allowDeselect={false}
                      nothingFoundMessage={pm.noTimeZone}
                      w={260}
                    />
                  </Group>
                  <Text size="sm" aria-live="polite">
                    {utc ? (
                      <>
                        {pm.sentAs} <Code>{utc}</Code> {pm.sentAsUtc}{action === 'schedule' && dayjs(utc).isBefore(dayjs()) ? pm.timePassed : ''}
                      </>
                    ) : action === 'schedule' ? (
                      'No time picked yet.'
                    ) : (
                      'Without a time, the approver decides when it goes live.'
                    )}
                  </Text>
                </Stack>
              ) : null}

              <Fieldset legend="Content">
                <Stack gap="sm">
                  <TextInput label="Header" {...register('header')} error={errors.header?.message} />
                  <Textarea
                    label="Text"
                    autosize
                    minRows={4}
                    maxRows={16}
                    {...register('text')}
                    description={`${(values.text ?? '').length.toLocaleString()} / ${TEXT_MAX.toLocaleString()} characters`}
                    error={errors.text?.message}
                  />
                  <TextInput label="Image URL" placeholder="https://…" {...register('imageUrl')} error={errors.imageUrl?.message} />
                  <MediaField control={control} register={register} errors={errors} />
                </Stack>
              </Fieldset>

              <Fieldset legend="Call-to-action link">
                <Stack gap="sm">
                  <TextInput label="Link URL" placeholder="https://…" {...register('ctaLink.url')} error={errors.ctaLink?.url?.message} />
                  <TextInput label="Link title" {...register('ctaLink.title')} error={errors.ctaLink?.title?.message} />
                  <Textarea label="Link description" autosize minRows={2} {...register('ctaLink.description')} error={errors.ctaLink?.description?.message} />
                  <TextInput label="Link image URL" placeholder="https://…" {...register('ctaLink.imageUrl')} error={errors.ctaLink?.imageUrl?.message} />
                </Stack>
              </Fieldset>

              <Fieldset legend="Button">
                <Group grow align="flex-start">
                  <TextInput label="Button text" {...register('button.text')} error={errors.button?.text?.message} />
                  <TextInput label="Button URL" placeholder="https://…" {...register('button.url')} error={errors.button?.url?.message} />
                </Group>
              </Fieldset>

              <Fieldset legend="Author">
                <Group grow align="flex-start">
                  <TextInput label="Author name" {...register('author.name')} error={errors.author?.name?.message} />
                  <TextInput label="Author image URL" placeholder="https://…" {...register('author.imageUrl')} error={errors.author?.imageUrl?.message} />
                </Group>
              </Fieldset>

              <Fieldset legend="Recipients">
                <Controller
                  control={control}
                  name="recipients"
                  render={({ field, fieldState }) => (
                    <RecipientsField
                      tags={field.value.tags}
                      contacts={field.value.contacts}
                      onTagsChange={(tags) => field.onChange({ ...field.value, tags })}
                      onContactsChange={(contacts) => field.onChange({ ...field.value, contacts })}
                      error={fieldState.error?.message ?? errors.recipients?.tags?.message}
                    />
                  )}
                />
              </Fieldset>

              <Fieldset legend="Notifications">
                <Group>
                  <Controller
                    control={control}
                    name="notificationSettings.email"
                    render={({ field }) => <Checkbox label="Notify by email" checked={field.value} onChange={(event) => field.onChange(event.currentTarget.checked)} />}
                  />
                  <Controller
                    control={control}
                    name="notificationSettings.sms"
                    render={({ field }) => <Checkbox label="Notify by SMS" checked={field.value} onChange={(event) => field.onChange(event.currentTarget.checked)} />}
                  />
                </Group>
                {errors.notificationSettings?.message ? (
                  <Text size="sm" c="red.8" role="alert">
                    {errors.notificationSettings.message}
                  </Text>
                ) : null}
              </Fieldset>

              {rootError ? (
                <Alert color="red" title="The service refused this post" role="alert">
                  {rootError}
                  <ErrorDetails error={mutation.error} />
                </Alert>
              ) : null}

              <Group justify="space-between" align="center">
                <Text size="sm" c="dimmed" aria-live="polite">
                  {saving ? 'Saving draft…' : draftSavedAt ? `Draft saved on this device at ${dayjs(draftSavedAt).format('HH:mm:ss')}` : 'Nothing to save yet'}
                </Text>
                <Group>
                  <Button variant="default" onClick={discardDraft} disabled={!isDirty && !draftSavedAt}>
                    Discard draft
                  </Button>
                  <Button type="submit" loading={mutation.isPending}>
                    {ACTION_SUBMIT_LABEL[action]}
                  </Button>
                </Group>
              </Group>
            </Stack>
          </form>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 5 }}>
          <Paper withBorder p="md" style={{ position: 'sticky', top: 72 }} component="section" aria-labelledby="preview-title">
            <Stack gap="xs">
              <Title order={2} size="h4" id="preview-title">
                Preview
              </Title>
              <Text size="xs" c="dimmed">
                As it will look on the public page.{hasFormRecipients(previewValues) ? ' This post has recipients, so the public page will not list it.' : ''}
              </Text>
              <div data-testid="post-preview">
                <RenderedPost post={previewOf(previewValues, timeZone)} options={{ headingLevel: 3, permalink: false, dateLabel: dateLabelOf(previewValues) }} />
              </div>
            </Stack>
          </Paper>
        </Grid.Col>
      </Grid>

      <RequestHistory workspaceId={workspaceId} />

      <Modal opened={confirming !== null} onClose={() => setConfirming(null)} title={confirming?.request.action === 'schedule' ? 'Schedule for everyone?' : 'Publish to everyone?'} centered>
        <Stack>
          <Text size="sm">
            This post has no recipients, so it is public: anyone can read it on the posts list and on the public page
            {confirming?.request.action === 'schedule' && confirming.request.publishDate ? ` from ${pm.zonedTime(confirming.request.publishDate, timeZone)}` : ''}.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(null)}>
              Cancel
            </Button>
            <Button
              onClick={() => {
                if (!confirming) return;
                setConfirming(null);
                send(confirming.request, confirming.values);
              }}
            >
              {confirming?.request.action === 'schedule' ? 'Schedule for everyone' : 'Publish to everyone'}
            </Button>
          </Group>
        </Stack>
      </Modal>

      <Modal opened={blocker.state === 'blocked'} onClose={() => blocker.reset?.()} title="Leave the composer?" centered>
        <Stack>
          <Text size="sm">This post has not been sent. Its draft stays saved on this device and comes back when you return.</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => blocker.reset?.()}>
              Stay
            </Button>
            <Button
              variant="light"
              color="red"
              onClick={() => {
                discardDraft();
                blocker.proceed?.();
              }}
            >
              Discard and leave
            </Button>
            <Button
              onClick={() => {
                flushDraft();
                blocker.proceed?.();
              }}
            >
              Leave, keep the draft
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}

/** The preview's view of the form: what `toPostRequest` would send, before validation (a draft may be half-done). */
function previewOf(values: ComposerValues, timeZone: string): PostView {
  const publishDate = values.action === 'publish' ? dayjs().startOf('minute').toISOString() : values.action === 'schedule' ? localToUtcIso(values.publishDate, timeZone) : null;
  return {
    id: 'preview',
    header: values.header,
    text: values.text,
    imageUrl: values.imageUrl.trim(),
    mediaImageUrls: values.mediaImageUrls.map((item) => item.url.trim()),
    ctaLink: values.ctaLink.url.trim() ? { url: values.ctaLink.url.trim(), title: values.ctaLink.title, description: values.ctaLink.description, imageUrl: values.ctaLink.imageUrl.trim() } : null,
    button: values.button.text.trim() && values.button.url.trim() ? { text: values.button.text, url: values.button.url.trim() } : null,
    author: values.author.name.trim() ? { name: values.author.name, imageUrl: values.author.imageUrl.trim() } : null,
    publishedDate: publishDate,
    claps: 0,
  };
}

function dateLabelOf(values: ComposerValues): string {
  if (values.action === 'suggest') return 'Suggestion: goes live once approved';
  if (values.action === 'schedule') return 'Scheduled: pick a time';
  return '';
}

const STATE_COLORS: Record<string, string> = { published: 'green', scheduled: 'blue', suggested: 'grape' };

/** The accepted request: its state and request id, and where to see the post. */
function OutcomeNotice({ outcome, workspaceId, onClose }: { outcome: Outcome; workspaceId: string; onClose: () => void }) {
  const { response, publishDate, isPrivate, timeZone } = outcome;
  const when = publishDate ? pm.zonedTime(publishDate, timeZone) : null;
  const headline =
    response.state === 'published'
      ? isPrivate
        ? 'Sent to its recipients'
        : 'Published'
      : response.state === 'scheduled'
        ? `Scheduled for ${when ?? 'later'}`
        : response.state === 'suggested'
          ? 'Suggested for approval'
          : `Accepted: ${response.state}`;
  return (
    <Alert color={STATE_COLORS[response.state] ?? 'gray'} title={headline} withCloseButton closeButtonLabel="Dismiss" onClose={onClose} role="status">
      <Stack gap={4}>
        <Text size="sm">
          State <Badge color={STATE_COLORS[response.state] ?? 'gray'} variant="light">{response.state}</Badge> · request id <Code>{response.body.requestId}</Code>
        </Text>
        {response.state !== 'suggested' && !isPrivate ? (
          <Group gap="md">
            <Anchor component={Link} to={`/w/${workspaceId}/posts`} size="sm">
              See published posts
            </Anchor>
            <Anchor href={`/embed/${workspaceId}`} target="_blank" rel="noreferrer" size="sm">
              Open the public page
            </Anchor>
          </Group>
        ) : null}
      </Stack>
    </Alert>
  );
}

const ACTION_LABELS: Record<string, string> = { publish: 'Publish', schedule: 'Schedule', suggest: 'Suggest' };

/** The requests sent from this browser for this workspace, newest first. */
function RequestHistory({ workspaceId }: { workspaceId: string }) {
  const history = useHistory(workspaceId);
  return (
    <Stack gap="xs" component="section" aria-labelledby="history-title">
      <Group justify="space-between">
        <Title order={2} size="h3" id="history-title">
          Request history
        </Title>
        {history.length ? (
          <Button variant="subtle" size="xs" onClick={() => clearHistory(workspaceId)}>
            Clear history
          </Button>
        ) : null}
      </Group>
      {history.length === 0 ? (
        <Text size="sm" c="dimmed">
          No requests sent from this browser yet.
        </Text>
      ) : (
        <SimpleTable aria-label="Requests sent from this browser" striped compact>
          <thead>
            <tr>
              <th scope="col">Sent</th>
              <th scope="col">Action</th>
              <th scope="col">State</th>
              <th scope="col">Request id</th>
              <th scope="col">Post</th>
            </tr>
          </thead>
          <tbody>
            {history.map((entry: HistoryEntry) => (
              <tr key={`${entry.requestId}-${entry.at}`}>
                <td>
                  <time dateTime={entry.at}>{dayjs(entry.at).format('D MMM YYYY, HH:mm:ss')}</time>
                </td>
                <td>{ACTION_LABELS[entry.action] ?? entry.action}</td>
                <td>
                  {entry.state}
                  {entry.state === 'scheduled' && entry.publishDate ? ` for ${dayjs(entry.publishDate).format('D MMM, HH:mm:ss')}` : ''}
                </td>
                <td>
                  <Code>{entry.requestId}</Code>
                </td>
                <td>
                  {entry.summary}
                  {entry.recipients ? ' (private)' : ''}
                </td>
              </tr>
            ))}
          </tbody>
        </SimpleTable>
      )}
    </Stack>
  );
}

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
import { DateTimePicker, DatesProvider } from '@mantine/dates';
import 'dayjs/locale/nb';
import { useDebouncedValue } from '@mantine/hooks';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { Controller, type FieldPath, useForm, useWatch } from 'react-hook-form';
import { Link } from 'react-router';
import { isApiError } from '@/api/api-error';
import type { PostAction, PostRequest, PostRequestResponse } from '@/api/posts';
import { ErrorDetails } from '@/components/error-message';
import { SimpleTable } from '@/components/simple-table';
import type { PostView } from '@/embed/post-view';
import { useWorkspaceApi } from '@/lib/workspace-api';
import { describeError, loadErrorSentences, messageSentences } from '@/lib/error-sentence';
import { withSentences } from '@/lib/form-errors';
import { useLocalState } from '@/lib/local-state';
import { useBlocker } from '@/lib/navigation-guard';
import {
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
import { formatDateTime, formatLocale, formatNumber } from '@/i18n/format';
import { currentLocale, t as translate } from '@/i18n/i18n';
import { useT } from '@/i18n/react';
import { RenderedPost } from './rendered-post';
import { browserTimeZone, formatZoned, isTimeZone, timeZoneNames, utcToZoned, zoneMatches } from './zoned-time';

const DRAFT_DELAY_MS = 400;
const BROWSER_ZONE = browserTimeZone();
let zoneOptions: { value: string; label: string }[] | null = null;
/** The time-zone choices, the browser's zone named as such (built once, on first use). */
function timeZoneOptions(): { value: string; label: string }[] {
  zoneOptions ??= timeZoneNames().map((zone) => ({ value: zone, label: zone === BROWSER_ZONE ? translate('posts.browserZone', { zone }) : zone }));
  return zoneOptions;
}

/** The actions with their catalog keys (English: Publish now, Schedule, Suggest; submit: Publish post, Schedule post, Send suggestion). */
const ACTIONS: { value: PostAction; label: string; description: string; submit: string }[] = [
  { value: 'publish', label: 'posts.actionPublish', description: 'posts.actionPublishHint', submit: 'posts.submitPublish' },
  { value: 'schedule', label: 'posts.actionSchedule', description: 'posts.actionScheduleHint', submit: 'posts.submitSchedule' },
  { value: 'suggest', label: 'posts.actionSuggest', description: 'posts.actionSuggestHint', submit: 'posts.submitSuggest' },
];
/** An instant in the chosen zone, in the language shown. */
const zonedTime = (instant: string, zone: string) => formatZoned(instant, zone, formatLocale());

/** The page: one composer per workspace (a workspace switch starts over with that workspace's draft). */
export function ComposerPage() {
  const { workspaceId } = useWorkspaceApi();
  return <Composer key={workspaceId} />;
}

/** What the composer shows after a request was accepted. */
type Outcome = { response: PostRequestResponse; action: PostAction; publishDate: string | null; isPrivate: boolean; timeZone: string };

function Composer() {
  const { api, workspaceId } = useWorkspaceApi();
  const t = useT();
  const publishAtId = useId();
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
  // Today in the chosen zone: the first day one can pick and the month the calendar opens at (not the browser's).
  const zoneToday = utcToZoned(Date.now(), timeZone).slice(0, 10);
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
  // The fields' registrations, outside the JSX (whose string literals the i18n lint reads as text).
  const fields = {
    header: register('header'),
    text: register('text'),
    imageUrl: register('imageUrl'),
    ctaLink_url: register('ctaLink.url'),
    ctaLink_title: register('ctaLink.title'),
    ctaLink_description: register('ctaLink.description'),
    ctaLink_imageUrl: register('ctaLink.imageUrl'),
    button_text: register('button.text'),
    button_url: register('button.url'),
    author_name: register('author.name'),
    author_imageUrl: register('author.imageUrl'),
  };

  return (
    <Stack>
      <Group justify="space-between" align="center">
        <Title order={1}>{t('posts.newPost')}</Title>
        <Anchor component={Link} to={`/w/${workspaceId}/posts`}>
          {t('posts.back')}
        </Anchor>
      </Group>
      {outcome ? <OutcomeNotice outcome={outcome} workspaceId={workspaceId} onClose={() => setOutcome(null)} /> : null}
      <Grid gap="xl">
        <Grid.Col span={{ base: 12, md: 7 }}>
          <form onSubmit={(event) => void handleSubmit(onValid)(event)} noValidate aria-label={t('posts.compose')}>
            <Stack gap="lg">
              <Controller
                control={control}
                name="action"
                render={({ field }) => (
                  <Radio.Group label={t('posts.action')} description={t('posts.actionHint')} value={field.value} onChange={(value) => field.onChange(value as PostAction)}>
                    <Group mt="xs" gap="lg" align="flex-start">
                      {ACTIONS.map((choice) => (
                        <Radio key={choice.value} value={choice.value} label={t(choice.label)} description={t(choice.description)} maw={210} />
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
                        // Month and day names in the language shown (dayjs's bokmål locale, issue 23). No weekend days in red:
                        // Mantine's red 6 on white fails WCAG AA's contrast (axe's color-contrast). The dropdown, a dialog, is
                        // labelled by the field's button, so the popover takes the field's id (else it names an id no
                        // element has, and the dialog has no name: axe's aria-dialog-name).
                        <DatesProvider settings={{ locale: currentLocale(), weekendDays: [] }}>
                          <DateTimePicker
                            label={action === 'schedule' ? t('posts.publishAt') : t('posts.suggestedAt')}
                            description={t('posts.publishAtHint', { zone: timeZone })}
                            clearable
                            valueFormat="D MMM YYYY, HH:mm"
                            placeholder={t('posts.pickDateTime')}
                            id={publishAtId}
                            popoverProps={{ id: publishAtId }}
                            minDate={zoneToday}
                            defaultDate={field.value || zoneToday}
                            value={field.value || null}
                            onChange={(next) => field.onChange(next ?? '')}
                            onBlur={field.onBlur}
                            error={fieldState.error?.message}
                            required={action === 'schedule'}
                            timePickerProps={{ hoursInputLabel: t('posts.hours'), minutesInputLabel: t('posts.minutes') }}
                            ariaLabels={{ nextMonth: t('posts.nextMonth'), previousMonth: t('posts.previousMonth'), nextYear: t('posts.nextYear'), previousYear: t('posts.previousYear'), nextDecade: t('posts.nextDecade'), previousDecade: t('posts.previousDecade'), monthLevelControl: t('posts.chooseMonth'), yearLevelControl: t('posts.chooseYear') }}
                            submitButtonProps={{ 'aria-label': t('posts.confirmDate') }}
                            clearButtonProps={{ 'aria-label': t('posts.clearDate') }}
                            w={260}
                          />
                        </DatesProvider>
                      )}
                    />
                    <Select
                      label={t('posts.timeZone')}
                      description={t('posts.timeZoneHint')}
                      data={timeZoneOptions()}
                      value={timeZone}
                      onChange={(zone) => {
                        if (!zone) return;
                        setSavedZone(zone === BROWSER_ZONE ? null : zone);
                        // The wall time stays as typed; the instant it names follows the zone, and is checked again.
                        if (form.getValues('publishDate')) setTimeout(() => void form.trigger('publishDate'));
                      }}
                      searchable
                      // By city and common name too (issue 34 point 10): "New York" finds America/New_York.
                      filter={({ options, search }) => options.filter((option) => 'value' in option && zoneMatches(option.value, search, formatLocale()))}
                      allowDeselect={false}
                      nothingFoundMessage={t('posts.noTimeZone')}
                      w={260}
                    />
                  </Group>
                  <Text size="sm" aria-live="polite">
                    {utc ? (
                      <>
                        {t('posts.sentAs')} <Code>{utc}</Code> {t('posts.sentAsUtc')}
                        {action === 'schedule' && dayjs(utc).isBefore(dayjs()) ? ` ${t('posts.timePassed')}` : ''}
                      </>
                    ) : action === 'schedule' ? (
                      t('posts.noTimePicked')
                    ) : (
                      t('posts.approverDecides')
                    )}
                  </Text>
                </Stack>
              ) : null}

              <Fieldset legend={t('posts.content')}>
                <Stack gap="sm">
                  <TextInput label={t('posts.header')} {...fields.header} error={errors.header?.message} />
                  <Textarea
                    label={t('posts.text')}
                    autosize
                    minRows={4}
                    maxRows={16}
                    {...fields.text}
                    description={t('posts.characters', { count: formatNumber((values.text ?? '').length), max: formatNumber(TEXT_MAX) })}
                    error={errors.text?.message}
                  />
                  <TextInput label={t('posts.imageUrl')} placeholder={t('posts.urlPlaceholder')} {...fields.imageUrl} error={errors.imageUrl?.message} />
                  <MediaField control={control} register={register} errors={errors} />
                </Stack>
              </Fieldset>

              <Fieldset legend={t('posts.ctaLink')}>
                <Stack gap="sm">
                  <TextInput label={t('posts.linkUrl')} placeholder={t('posts.urlPlaceholder')} {...fields.ctaLink_url} error={errors.ctaLink?.url?.message} />
                  <TextInput label={t('posts.linkTitle')} {...fields.ctaLink_title} error={errors.ctaLink?.title?.message} />
                  <Textarea label={t('posts.linkDescription')} autosize minRows={2} {...fields.ctaLink_description} error={errors.ctaLink?.description?.message} />
                  <TextInput label={t('posts.linkImageUrl')} placeholder={t('posts.urlPlaceholder')} {...fields.ctaLink_imageUrl} error={errors.ctaLink?.imageUrl?.message} />
                </Stack>
              </Fieldset>

              <Fieldset legend={t('posts.button')}>
                <Group grow align="flex-start">
                  <TextInput label={t('posts.buttonText')} {...fields.button_text} error={errors.button?.text?.message} />
                  <TextInput label={t('posts.buttonUrl')} placeholder={t('posts.urlPlaceholder')} {...fields.button_url} error={errors.button?.url?.message} />
                </Group>
              </Fieldset>

              <Fieldset legend={t('posts.author')}>
                <Group grow align="flex-start">
                  <TextInput label={t('posts.authorName')} {...fields.author_name} error={errors.author?.name?.message} />
                  <TextInput label={t('posts.authorImageUrl')} placeholder={t('posts.urlPlaceholder')} {...fields.author_imageUrl} error={errors.author?.imageUrl?.message} />
                </Group>
              </Fieldset>

              <Fieldset legend={t('posts.recipients')}>
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

              <Fieldset legend={t('posts.notifications')}>
                <Group>
                  <Controller
                    control={control}
                    name="notificationSettings.email"
                    render={({ field }) => <Checkbox label={t('posts.notifyEmail')} checked={field.value} onChange={(event) => field.onChange(event.currentTarget.checked)} />}
                  />
                  <Controller
                    control={control}
                    name="notificationSettings.sms"
                    render={({ field }) => <Checkbox label={t('posts.notifySms')} checked={field.value} onChange={(event) => field.onChange(event.currentTarget.checked)} />}
                  />
                </Group>
                {errors.notificationSettings?.message ? (
                  <Text size="sm" c="red.8" role="alert">
                    {errors.notificationSettings.message}
                  </Text>
                ) : null}
              </Fieldset>

              {rootError ? (
                <Alert color="red" title={t('posts.refused')} role="alert">
                  {rootError}
                  <ErrorDetails error={mutation.error} />
                </Alert>
              ) : null}

              <Group justify="space-between" align="center">
                <Text size="sm" c="dimmed" aria-live="polite">
                  {saving ? t('posts.savingDraft') : draftSavedAt ? t('posts.draftSaved', { time: formatDateTime(draftSavedAt, { timeStyle: 'medium' }) }) : t('posts.nothingToSave')}
                </Text>
                <Group>
                  <Button variant="default" onClick={discardDraft} disabled={!isDirty && !draftSavedAt}>
                    {t('posts.discardDraft')}
                  </Button>
                  <Button type="submit" loading={mutation.isPending}>
                    {t(ACTIONS.find((choice) => choice.value === action)!.submit)}
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
                {t('posts.preview')}
              </Title>
              <Text size="xs" c="dimmed">
                {t('posts.previewNote')}
                {hasFormRecipients(previewValues) ? ` ${t('posts.previewPrivate')}` : ''}
              </Text>
              <div data-testid="post-preview">
                <RenderedPost post={previewOf(previewValues, timeZone)} options={{ headingLevel: 3, permalink: false, dateLabel: dateLabelOf(previewValues, t) }} />
              </div>
            </Stack>
          </Paper>
        </Grid.Col>
      </Grid>

      <RequestHistory workspaceId={workspaceId} />

      <Modal opened={confirming !== null} onClose={() => setConfirming(null)} title={confirming?.request.action === 'schedule' ? t('posts.scheduleEveryoneTitle') : t('posts.publishEveryoneTitle')} closeButtonProps={{ 'aria-label': t('posts.closeDialog') }} centered>
        <Stack>
          <Text size="sm">
            {confirming?.request.action === 'schedule' && confirming.request.publishDate
              ? t('posts.publicFrom', { when: zonedTime(confirming.request.publishDate, timeZone) })
              : t('posts.publicNow')}
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(null)}>
              {t('shell.cancel')}
            </Button>
            <Button
              onClick={() => {
                if (!confirming) return;
                setConfirming(null);
                send(confirming.request, confirming.values);
              }}
            >
              {confirming?.request.action === 'schedule' ? t('posts.scheduleEveryone') : t('posts.publishEveryone')}
            </Button>
          </Group>
        </Stack>
      </Modal>

      <Modal opened={blocker.state === 'blocked'} onClose={() => blocker.reset?.()} title={t('posts.leaveTitle')} closeButtonProps={{ 'aria-label': t('posts.closeDialog') }} centered>
        <Stack>
          <Text size="sm">{t('posts.leaveText')}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => blocker.reset?.()}>
              {t('posts.stay')}
            </Button>
            <Button
              variant="light"
              color="red"
              onClick={() => {
                discardDraft();
                blocker.proceed?.();
              }}
            >
              {t('posts.discardLeave')}
            </Button>
            <Button
              onClick={() => {
                flushDraft();
                blocker.proceed?.();
              }}
            >
              {t('posts.leaveKeep')}
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

function dateLabelOf(values: ComposerValues, t: ReturnType<typeof useT>): string {
  if (values.action === 'suggest') return t('posts.dateSuggestion');
  if (values.action === 'schedule') return t('posts.dateSchedule');
  return '';
}

const STATE_COLORS: Record<string, string> = { published: 'green', scheduled: 'blue', suggested: 'grape' };

/** The accepted request: its state and request id, and where to see the post. */
function OutcomeNotice({ outcome, workspaceId, onClose }: { outcome: Outcome; workspaceId: string; onClose: () => void }) {
  const { response, publishDate, isPrivate, timeZone } = outcome;
  const t = useT();
  const when = publishDate ? zonedTime(publishDate, timeZone) : null;
  const headline =
    response.state === 'published'
      ? isPrivate
        ? t('posts.sentToRecipients')
        : t('posts.published')
      : response.state === 'scheduled'
        ? when
          ? t('posts.scheduledFor', { when })
          : t('posts.scheduledLater')
        : response.state === 'suggested'
          ? t('posts.suggestedForApproval')
          : t('posts.accepted', { state: response.state });
  return (
    <Alert color={STATE_COLORS[response.state] ?? 'gray'} title={headline} withCloseButton closeButtonLabel={t('posts.dismiss')} onClose={onClose} role="status">
      <Stack gap={4}>
        <Text size="sm">
          {t('posts.stateLabel')} <Badge color={STATE_COLORS[response.state] ?? 'gray'} variant="light">{response.state}</Badge> · {t('posts.requestIdLabel')}{' '}
          <Code>{response.body.requestId}</Code>
        </Text>
        {response.state !== 'suggested' && !isPrivate ? (
          <Group gap="md">
            <Anchor component={Link} to={`/w/${workspaceId}/posts`} size="sm">
              {t('posts.seePublished')}
            </Anchor>
            <Anchor href={`/embed/${workspaceId}`} target="_blank" rel="noreferrer" size="sm">
              {t('posts.openPublicPage')}
            </Anchor>
          </Group>
        ) : null}
      </Stack>
    </Alert>
  );
}

/** The history's times, to the second. */
const TO_THE_SECOND: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeStyle: 'medium' };

/** The history's action names: catalog keys. */
const ACTION_LABELS: Record<string, string> = { publish: 'posts.historyPublish', schedule: 'posts.historySchedule', suggest: 'posts.historySuggest' };

/** The requests sent from this browser for this workspace, newest first. */
function RequestHistory({ workspaceId }: { workspaceId: string }) {
  const history = useHistory(workspaceId);
  const t = useT();
  return (
    <Stack gap="xs" component="section" aria-labelledby="history-title">
      <Group justify="space-between">
        <Title order={2} size="h3" id="history-title">
          {t('posts.history')}
        </Title>
        {history.length ? (
          <Button variant="subtle" size="xs" onClick={() => clearHistory(workspaceId)}>
            {t('posts.clearHistory')}
          </Button>
        ) : null}
      </Group>
      {history.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('posts.historyNone')}
        </Text>
      ) : (
        <SimpleTable aria-label={t('posts.historyTable')} striped compact>
          <thead>
            <tr>
              <th scope="col">{t('posts.colSent')}</th>
              <th scope="col">{t('posts.action')}</th>
              <th scope="col">{t('posts.colState')}</th>
              <th scope="col">{t('posts.colRequestId')}</th>
              <th scope="col">{t('posts.colPost')}</th>
            </tr>
          </thead>
          <tbody>
            {history.map((entry: HistoryEntry) => (
              <tr key={`${entry.requestId}-${entry.at}`}>
                <td>
                  <time dateTime={entry.at}>{formatDateTime(entry.at, TO_THE_SECOND)}</time>
                </td>
                <td>{ACTION_LABELS[entry.action] ? t(ACTION_LABELS[entry.action]!) : entry.action}</td>
                <td>
                  {entry.state}
                  {entry.state === 'scheduled' && entry.publishDate ? ` ${t('posts.historyFor', { when: formatDateTime(entry.publishDate, TO_THE_SECOND) })}` : ''}
                </td>
                <td>
                  <Code>{entry.requestId}</Code>
                </td>
                <td>
                  {entry.summary || t('posts.imageOnly')}
                  {entry.recipients ? ` ${t('posts.historyPrivate')}` : ''}
                </td>
              </tr>
            ))}
          </tbody>
        </SimpleTable>
      )}
    </Stack>
  );
}

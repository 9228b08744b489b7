/**
 * An error as the console shows it (issue 13): the sentences of `describeError` (src/lib/error-sentence.ts), and
 * under a "Details" disclosure what the service said: status, endpoint, its message as sent, and the trace id to
 * quote to whoever runs the service. notify-error.tsx shows the same in a red notification.
 */
import { useArea, useT } from '@/i18n/react';
import { Code, Stack, Text } from '@mantine/core';
import { Suspense } from 'react';
import { describeError } from '@/lib/error-sentence';

/**
 * "Details" of an `ApiError` (status, endpoint, the message as sent, trace id); nothing for any other error. Shown
 * once the `sentences` catalog is loaded (issue 23: it is fetched when an error is first shown).
 */
export function ErrorDetails({ error }: { error: unknown }) {
  return (
    <Suspense fallback={null}>
      <Details error={error} />
    </Suspense>
  );
}

function Details({ error }: { error: unknown }) {
  useArea('sentences');
  const t = useT();
  const { details } = describeError(error);
  if (!details) return null;
  return (
    <Text size="xs" c="dimmed" component="details">
      <summary style={{ cursor: 'pointer' }}>{t('sentences.details')}</summary>
      <Stack gap={2} mt={4}>
        <span>
          {details.status ? `HTTP ${details.status}` : t('sentences.noAnswer')} · {details.endpoint}
        </span>
        <Code block>{details.message}</Code>
        {details.traceId ? (
          <span>
            {t('sentences.traceId')} <Code>{details.traceId}</Code>
          </span>
        ) : null}
      </Stack>
    </Text>
  );
}

/**
 * The error's sentences (or `sentence`, where the page knows better what the failure means), then its details;
 * shown once the `sentences` catalog is loaded.
 */
export function ErrorMessage({ error, sentence }: { error: unknown; sentence?: string | undefined }) {
  return (
    <Suspense fallback={null}>
      <Sentences error={error} sentence={sentence} />
    </Suspense>
  );
}

function Sentences({ error, sentence }: { error: unknown; sentence?: string | undefined }) {
  useArea('sentences');
  useT();
  return (
    <Stack gap={4}>
      <Text size="sm" component="div">
        {sentence ?? describeError(error).text}
      </Text>
      <ErrorDetails error={error} />
    </Stack>
  );
}

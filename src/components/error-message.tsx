/**
 * An error as the console shows it (issue 13): the sentences of `describeError` (src/lib/error-sentence.ts), and
 * under a "Details" disclosure what the service said: status, endpoint, its message as sent, and the trace id to
 * quote to whoever runs the service. notify-error.tsx shows the same in a red notification.
 */
import { useT } from '@/i18n/react';
import { Code, Stack, Text } from '@mantine/core';
import { describeError } from '@/lib/error-sentence';

/** "Details" of an `ApiError` (status, endpoint, the message as sent, trace id); nothing for any other error. */
export function ErrorDetails({ error }: { error: unknown }) {
  const t = useT();
  const { details } = describeError(error);
  if (!details) return null;
  return (
    <Text size="xs" c="dimmed" component="details">
      <summary style={{ cursor: 'pointer' }}>{t('common.details')}</summary>
      <Stack gap={2} mt={4}>
        <span>
          {details.status ? `HTTP ${details.status}` : t('common.noAnswer')} · {details.endpoint}
        </span>
        <Code block>{details.message}</Code>
        {details.traceId ? (
          <span>
            {t('common.traceId')} <Code>{details.traceId}</Code>
          </span>
        ) : null}
      </Stack>
    </Text>
  );
}

/** The error's sentences (or `sentence`, where the page knows better what the failure means), then its details. */
export function ErrorMessage({ error, sentence }: { error: unknown; sentence?: string | undefined }) {
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

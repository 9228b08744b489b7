import { Alert, Button, Code, Stack, Text } from '@mantine/core';
import { useQueryErrorResetBoundary } from '@tanstack/react-query';
import { isRouteErrorResponse, useNavigate, useRouteError } from 'react-router';
import { isApiError } from '@/api/api-error';

/** A route's error boundary (issue 4): says what failed, with the trace id when the service gave one, and a retry. */
export function RouteError() {
  const error = useRouteError();
  const navigate = useNavigate();
  const { reset } = useQueryErrorResetBoundary();
  const message = isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : error instanceof Error ? error.message : String(error);
  return (
    <Alert color="red" title="Something went wrong on this page" role="alert" m="md">
      <Stack gap="xs" align="flex-start">
        <Text size="sm">{message}</Text>
        {isApiError(error) && error.traceId ? (
          <Text size="xs" c="dimmed">
            Trace id <Code>{error.traceId}</Code>
          </Text>
        ) : null}
        <Button
          size="xs"
          variant="light"
          onClick={() => {
            reset();
            void navigate('.', { replace: true });
          }}
        >
          Try again
        </Button>
      </Stack>
    </Alert>
  );
}

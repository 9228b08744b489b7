import { Alert, Button, Stack, Text } from '@mantine/core';
import { useQueryErrorResetBoundary } from '@tanstack/react-query';
import { isRouteErrorResponse, useNavigate, useRouteError } from 'react-router';
import { LazyErrorMessage } from './lazy-error-message';

/** A route's error boundary (issue 4): says what failed in words, with details and the trace id when the service gave one (issue 13), and a retry. */
export function RouteError() {
  const error = useRouteError();
  const navigate = useNavigate();
  const { reset } = useQueryErrorResetBoundary();
  return (
    <Alert color="red" title="Something went wrong on this page" role="alert" m="md">
      <Stack gap="xs" align="flex-start">
        {isRouteErrorResponse(error) ? (
          <Text size="sm">
            {error.status === 404 ? 'There is no page at this address.' : `This page could not be shown (${error.status} ${error.statusText}).`}
          </Text>
        ) : (
          <LazyErrorMessage error={error} />
        )}
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

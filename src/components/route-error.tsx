import { useT } from '@/i18n/react';
import { Alert, Button, Stack } from '@mantine/core';
import { useQueryErrorResetBoundary } from '@tanstack/react-query';
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { type Location, useLocation } from 'react-router';
import { LazyErrorMessage } from './lazy-error-message';

/**
 * What a route's error boundary shows (issue 4): says what failed in words, with details and the trace id when the
 * service gave one (issue 13), and a retry.
 */
export function RouteError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const { reset } = useQueryErrorResetBoundary();
  const t = useT();
  return (
    <Alert color="red" title={t('common.pageFailed')} role="alert" m="md">
      <Stack gap="xs" align="flex-start">
        <LazyErrorMessage error={error} />
        <Button
          size="xs"
          variant="light"
          onClick={() => {
            reset();
            onRetry();
          }}
        >
          {t('common.tryAgain')}
        </Button>
      </Stack>
    </Alert>
  );
}

type BoundaryProps = { location: Location; children: ReactNode };
type BoundaryState = { error: unknown; location: Location; failed: boolean };

/** A route's error boundary: shows RouteError instead of a page that threw while rendering, until the location changes or Try again. */
class Boundary extends Component<BoundaryProps, BoundaryState> {
  override state: BoundaryState = { error: undefined, location: this.props.location, failed: false };

  static getDerivedStateFromError(error: unknown): Partial<BoundaryState> {
    return { error, failed: true };
  }

  // Another location starts without the error, as react-router's own route boundaries do.
  static getDerivedStateFromProps(props: BoundaryProps, state: BoundaryState): Partial<BoundaryState> | null {
    return props.location !== state.location ? { location: props.location, error: undefined, failed: false } : null;
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error(error, info.componentStack);
  }

  override render() {
    return this.state.failed ? <RouteError error={this.state.error} onRetry={() => this.setState({ error: undefined, failed: false })} /> : this.props.children;
  }
}

/** The error boundary of one route (react-router's `errorElement`, which its declarative routes do not have). */
export function RouteErrorBoundary({ children }: { children: ReactNode }) {
  return <Boundary location={useLocation()}>{children}</Boundary>;
}

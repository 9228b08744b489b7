/** The console: providers (Mantine with a remembered color scheme, notifications, React Query) and the router. */
import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import './global.css';
import { type CSSVariablesResolver, MantineProvider, createTheme } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { Suspense, lazy, useState } from 'react';
import { RouterProvider } from 'react-router/dom';
import { createQueryClient } from '@/lib/query-client';
import { createRouter } from './router';

const NotificationsHost = lazy(() => import('@/components/notifications-host').then((m) => ({ default: m.NotificationsHost })));

// Shade 8 keeps white-on-primary and primary-on-white text above WCAG AA's 4.5:1 contrast. Every notification's
// close button gets a name (axe's button-name rule).
const theme = createTheme({
  primaryColor: 'blue',
  primaryShade: { light: 8, dark: 8 },
  defaultRadius: 'md',
  components: { Notification: { defaultProps: { closeButtonProps: { 'aria-label': 'Close notification' } } } },
});

/**
 * Light variants (badges, light buttons) get darker text in the light scheme: Mantine's shade 6 on its own
 * tint is about 3:1, and even shade 9 of some colors stays under WCAG AA's 4.5:1.
 */
const cssVariablesResolver: CSSVariablesResolver = (current) => ({
  variables: {},
  light: Object.fromEntries(Object.keys(current.colors).map((color) => [`--mantine-color-${color}-light-color`, `color-mix(in srgb, var(--mantine-color-${color}-9), black 30%)`])),
  dark: {},
});

export function App() {
  const [queryClient] = useState(createQueryClient);
  const [router] = useState(createRouter);
  return (
    <MantineProvider theme={theme} defaultColorScheme="auto" cssVariablesResolver={cssVariablesResolver}>
      <Suspense fallback={null}>
        <NotificationsHost />
      </Suspense>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>
  );
}

/** The console: providers (Mantine with a remembered color scheme, notifications, React Query) and the router. */
import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import './global.css';
import { type CSSVariablesResolver, MantineProvider, createTheme } from '@mantine/core';
import { useNotifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { Suspense, lazy, useEffect, useMemo, useState } from 'react';
import { i18n } from '@/i18n/i18n';
import { I18nProvider, useT } from '@/i18n/react';
import { useFirstInteraction } from '@/lib/first-interaction';
import { loadZodMessages } from '@/api/load-zod-messages';
import { createQueryClient } from '@/lib/query-client';
import { AppRouter } from './router';

const NotificationsHost = lazy(() => import('@/components/notifications-host').then((m) => ({ default: m.NotificationsHost })));

// Shade 8 keeps white-on-primary and primary-on-white text above WCAG AA's 4.5:1 contrast. Every notification's
// close button gets a name (axe's button-name rule), in the language shown. A field's hint sits under its input, not
// between label and input, so the inputs of a row stand level whether or not they have a hint (issue 23 point 12).
// A person whose system asks for reduced motion gets drawers, menus and dialogs without their transitions (WCAG 2.3.3).
// A menu opens without Mantine's focus placeholder, a focusable `role="presentation"` child that breaks the menu's
// required children (axe's aria-required-children).
const themeFor = (closeLabel: string) =>
  createTheme({
    respectReducedMotion: true,
    primaryColor: 'blue',
    primaryShade: { light: 8, dark: 8 },
    defaultRadius: 'md',
    components: {
      Notification: { defaultProps: { closeButtonProps: { 'aria-label': closeLabel } } },
      InputWrapper: { defaultProps: { inputWrapperOrder: ['label', 'input', 'description', 'error'] } },
      Menu: { defaultProps: { withInitialFocusPlaceholder: false } },
    },
  });

/**
 * Light variants (badges, light buttons) get darker text in the light scheme: Mantine's shade 6 on its own
 * tint is about 3:1, and even shade 9 of some colors stays under WCAG AA's 4.5:1. (Other colors: global.css.)
 */
const cssVariablesResolver: CSSVariablesResolver = (current) => ({
  variables: {},
  light: Object.fromEntries(Object.keys(current.colors).map((color) => [`--mantine-color-${color}-light-color`, `color-mix(in srgb, var(--mantine-color-${color}-9), black 30%)`])),
  dark: {},
});

/**
 * Where notifications show, mounted at the page's first interaction or with the first notification, whichever
 * comes first (issue 16): notifications follow what the person does, so its code (with react-transition-group)
 * stays off the first screen. The host shows what the store already holds when it mounts.
 */
function NotificationsOnDemand() {
  const interacted = useFirstInteraction();
  // zod's messages (for forms' issues) come with the first interaction, before any form can be sent.
  useEffect(() => {
    if (interacted) void loadZodMessages();
  }, [interacted]);
  const { notifications, queue } = useNotifications();
  const [needed, setNeeded] = useState(false);
  if (!needed && (interacted || notifications.length > 0 || queue.length > 0)) setNeeded(true);
  return needed ? (
    <Suspense fallback={null}>
      <NotificationsHost />
    </Suspense>
  ) : null;
}

function Themed() {
  const [queryClient] = useState(createQueryClient);
  const t = useT();
  const closeLabel = t('common.closeNotification');
  const theme = useMemo(() => themeFor(closeLabel), [closeLabel]);
  return (
    <MantineProvider theme={theme} defaultColorScheme="auto" cssVariablesResolver={cssVariablesResolver}>
      <NotificationsOnDemand />
      <QueryClientProvider client={queryClient}>
        <AppRouter />
      </QueryClientProvider>
    </MantineProvider>
  );
}

/** The console in the language shown (src/i18n; main.tsx activates it before the first render). */
export function App() {
  return (
    <I18nProvider i18n={i18n}>
      <Themed />
    </I18nProvider>
  );
}

/**
 * The frame of a create-or-edit form in a drawer (issue 6: the product and collection upserts): the form named
 * by `title`, the error no field owns at the top, and a footer that stays in view with Cancel and the submit
 * button. Leaving a changed form asks first (docs/style.md, forms): closing the drawer (×, Escape, Cancel) or
 * navigating to another page (the router's blocker, src/lib/navigation-guard.tsx) shows "Discard your changes?" in
 * the footer, and closing the tab asks the browser's own question. The error no field owns is a sentence (issue 13)
 * scrolled into view, with the service's details under it when `failure` is the error it came from.
 *
 * Issue 14: a drawer at a record's address closes by navigating, so the blocker lets through the navigation of a
 * close the user confirmed, and a confirmed Back (a blocked navigation) just proceeds, which closes the drawer.
 * `readOnly` shows the record's fields disabled with a Close button (a key that may read but not write); `aside`, after
 * the fields, is never disabled (a collection's products, which have their own controls). When the
 * drawer goes, focus returns to what had it when the drawer opened (the "New" button or the row's link).
 *
 * Texts (issue 23): the `forms` catalog area, which the drawer waits for itself (`useArea`, so it sits under a
 * `Suspense` boundary, as every lazy drawer does); `title` and `submitLabel` come translated from the caller.
 */
import { Alert, Button, Drawer, Group, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { type FormEvent, type ReactNode, useEffect, useRef, useState } from 'react';
import type { FieldValues, FormState } from 'react-hook-form';
import { useArea, useT } from '@/i18n/react';
import { useBlocker } from '@/lib/navigation-guard';
import { ErrorDetails } from './error-message';
import classes from './upsert-drawer.module.css';

export type UpsertDrawerProps = {
  /** The drawer's title and the form's accessible name: `New product`, `Edit product`. */
  title: string;
  /** True when the form holds changes not saved. */
  dirty: boolean;
  submitting: boolean;
  /**
   * True once the form was saved (react-hook-form's `isSubmitSuccessful`): the drawer is closing, so the leave
   * guard stands down (a record's drawer closes by going back in history, which lands after the submit ends).
   */
  saved?: boolean;
  submitLabel: string;
  /** A message no field owns (`errors.root`), shown above the fields. */
  error?: string | undefined;
  /** The failed request behind `error`, whose details (status, message as sent, trace id) show under it. */
  failure?: unknown;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  /** Closes the drawer: called once the user has confirmed discarding changes, or at once when there are none. */
  onClose: () => void;
  /** Shows the fields disabled and only a Close button. */
  readOnly?: boolean;
  /**
   * Shown after the fields and never disabled by `readOnly`: what the record holds beyond its own fields, with controls
   * of its own that do not save with the form (a collection's products, issue 34 point 10). It decides itself what a
   * read-only key may do there.
   */
  aside?: ReactNode;
  children: ReactNode;
};

/**
 * The `UpsertDrawer` props that follow from a react-hook-form form's state and the request that saves it: `dirty`,
 * `submitting`, `saved`, `error` (the message no field owns, `errors.root`) and `failure` (`requestError`, the
 * mutation's error, when that message came from the service: `applyServerErrors` sets it with `type: 'server'`).
 * Every drawer spreads them: `<UpsertDrawer {...formFrame(form.formState, upsert.error)} ...>`.
 */
export function formFrame<Values extends FieldValues>(state: FormState<Values>, requestError: unknown): Pick<UpsertDrawerProps, 'dirty' | 'submitting' | 'saved' | 'error' | 'failure'> {
  const root = state.errors.root;
  return { dirty: state.isDirty, submitting: state.isSubmitting, saved: state.isSubmitSuccessful, error: root?.message, failure: root?.type === 'server' ? requestError : undefined };
}

/** The notice after a save (`Product created`), green. */
export function showSaved(message: string) {
  notifications.show({ color: 'green', message });
}

export function UpsertDrawer({ title, dirty, submitting, saved = false, submitLabel, error, failure, onSubmit, onClose, readOnly = false, aside, children }: UpsertDrawerProps) {
  useArea('forms');
  const t = useT();
  const [confirming, setConfirming] = useState(false);
  const guarded = dirty && !submitting && !saved && !readOnly;
  const discarded = useRef(false);
  const blocker = useBlocker(({ currentLocation, nextLocation }) => guarded && !discarded.current && currentLocation.pathname !== nextLocation.pathname);
  // Read before the drawer takes the focus (the first render precedes every effect).
  const [opener] = useState(() => document.activeElement);
  useEffect(
    () => () => {
      setTimeout(() => {
        if (opener instanceof HTMLElement && opener.isConnected && (document.activeElement === document.body || !document.activeElement)) opener.focus();
      }, 0);
    },
    [opener],
  );
  const alert = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (error) alert.current?.scrollIntoView?.({ block: 'nearest' });
  }, [error]);
  useEffect(() => {
    if (!guarded) return;
    const ask = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [guarded]);
  const asking = confirming || blocker.state === 'blocked';
  const requestClose = () => (guarded ? setConfirming(true) : onClose());
  const keepEditing = () => {
    setConfirming(false);
    blocker.reset?.();
  };
  const discard = () => {
    setConfirming(false);
    discarded.current = true;
    if (blocker.state === 'blocked') blocker.proceed();
    else onClose();
  };

  return (
    <Drawer opened onClose={requestClose} position="right" size="xl" title={title} closeButtonProps={{ 'aria-label': t('forms.closeTitled', { title: title.toLowerCase() }) }}>
      <form onSubmit={onSubmit} aria-label={title} noValidate>
        <Stack>
          {error ? (
            <Alert ref={alert} color="red" role="alert" title={t('forms.notSaved')}>
              {error}
              {failure ? <ErrorDetails error={failure} /> : null}
            </Alert>
          ) : null}
          {readOnly ? (
            <fieldset disabled className={classes.readOnly}>
              <Stack>{children}</Stack>
            </fieldset>
          ) : (
            children
          )}
          {aside}
          <div className={classes.footer}>
            {readOnly ? (
              <Group justify="flex-end">
                <Button variant="default" onClick={onClose}>
                  {t('forms.close')}
                </Button>
              </Group>
            ) : asking ? (
              <Group justify="space-between" role="alert">
                <Text size="sm" fw={500}>
                  {t('forms.discardQuestion')}
                </Text>
                <Group gap="xs">
                  <Button variant="default" onClick={keepEditing} data-autofocus>
                    {t('forms.keepEditing')}
                  </Button>
                  <Button color="red" onClick={discard}>
                    {t('forms.discardChanges')}
                  </Button>
                </Group>
              </Group>
            ) : (
              <Group justify="flex-end">
                <Button variant="default" onClick={requestClose}>
                  {t('forms.cancel')}
                </Button>
                <Button type="submit" loading={submitting}>
                  {submitLabel}
                </Button>
              </Group>
            )}
          </div>
        </Stack>
      </form>
    </Drawer>
  );
}

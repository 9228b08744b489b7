/**
 * Translations in React (issue 23): `I18nProvider` (from `@lingui/react`) re-renders its consumers when the language
 * changes; `useT()` gives the `t` of src/i18n/i18n.ts and subscribes the component to that change.
 */
import { useLingui } from '@lingui/react';
import { type ReactNode, Suspense, use } from 'react';
import { type Area, areaLoaded, loadAreaSettled, t } from './i18n';

export { I18nProvider } from '@lingui/react';

/** `t` (src/i18n/i18n.ts), re-rendering the caller when the language changes. */
export function useT(): typeof t {
  useLingui();
  return t;
}

/**
 * Suspends the caller (React's `use`) until `area`'s catalog is loaded in the language shown, or could not be
 * fetched (`loadAreaSettled`); for texts loaded only when shown (the `sentences` area). The caller sits under a
 * `Suspense` boundary.
 */
export function useArea(area: Area): void {
  if (!areaLoaded(area)) use(loadAreaSettled(area));
}

/**
 * `render()` once `area`'s catalog is loaded (nothing until then), for a notice whose texts are fetched only when it
 * is shown (the `sentences` area: throttling, a missing scope).
 */
export function WithArea({ area, render }: { area: Area; render: () => ReactNode }) {
  return (
    <Suspense fallback={null}>
      <Loaded area={area} render={render} />
    </Suspense>
  );
}

function Loaded({ area, render }: { area: Area; render: () => ReactNode }) {
  useArea(area);
  useLingui();
  return render();
}

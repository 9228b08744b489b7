/**
 * Translations in React (issue 23): `I18nProvider` (from `@lingui/react`) re-renders its consumers when the language
 * changes; `useT()` gives the `t` of src/i18n/i18n.ts and subscribes the component to that change.
 */
import { useLingui } from '@lingui/react';
import { t } from './i18n';

export { I18nProvider } from '@lingui/react';

/** `t` (src/i18n/i18n.ts), re-rendering the caller when the language changes. */
export function useT(): typeof t {
  useLingui();
  return t;
}

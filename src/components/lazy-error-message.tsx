/**
 * `ErrorMessage` for the first screens (query-state.tsx, route-error.tsx, the connect page), loaded with the
 * notifications host (notifications-host.tsx re-exports it), which every console page fetches right after the
 * first paint: so it is there when the service later cannot be reached, and no new lazy entry splits the first
 * screens' shared chunks (a new entry that uses Mantine's Box but not its portals made Rolldown cut Box's chunk
 * in two, +1.2 KB gzip on /w/:id/contacts; scripts/bundle-report.mjs).
 */
import { Suspense, lazy } from 'react';
import { loadAreaSettled } from '@/i18n/i18n';

// The `sentences` catalog (issue 23) is fetched beside the code, when an error is first shown.
const Lazy = lazy(() => Promise.all([import('./notifications-host'), loadAreaSettled('sentences')]).then(([module]) => ({ default: module.ErrorMessage })));

export function LazyErrorMessage({ error, sentence }: { error: unknown; sentence?: string | undefined }) {
  return (
    <Suspense fallback={null}>
      <Lazy error={error} sentence={sentence} />
    </Suspense>
  );
}

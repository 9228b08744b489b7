/**
 * `ErrorMessage` for the first screens (query-state.tsx, route-error.tsx, the connect page): its sentence mapping
 * loads in a chunk of its own, fetched shortly after the first paint (so it is there when the service later
 * cannot be reached), keeping the first screens' JavaScript as it was (scripts/bundle-report.mjs).
 */
import { Suspense, lazy } from 'react';

const load = () => import('./error-message');
const Lazy = lazy(() => load().then((module) => ({ default: module.ErrorMessage })));
if (typeof window !== 'undefined') setTimeout(() => void load().catch(() => undefined), 1500);

export function LazyErrorMessage({ error, sentence }: { error: unknown; sentence?: string | undefined }) {
  return (
    <Suspense fallback={null}>
      <Lazy error={error} sentence={sentence} />
    </Suspense>
  );
}

import { type ReactNode, Suspense, lazy } from 'react';
import { useT } from '@/i18n/react';
import { useWorkspaceApi } from '@/lib/workspace-api';
import { allows } from '@/lib/permissions';
import type { Section } from './sections';

// Shown only to a key without the section's scope: its code loads then (off the first screens, docs/bundle.md).
const MissingScope = lazy(() => import('@/components/missing-scope').then((m) => ({ default: m.MissingScope })));

/** Renders a section only when the key's scopes allow it; otherwise explains which scope is needed (issue 4). */
export function ScopeGate({ section, children }: { section: Section; children: ReactNode }) {
  const { connection } = useWorkspaceApi();
  const t = useT();
  if (section.scope && !allows(connection.permissions, section.scope)) return (
      <Suspense fallback={null}>
        <MissingScope scope={section.scope} what={t(section.labelKey)} />
      </Suspense>
    );
  return children;
}

import type { ReactNode } from 'react';
import { MissingScope } from '@/components/missing-scope';
import { useT } from '@/i18n/react';
import { useWorkspaceApi } from '@/lib/api';
import { allows } from '@/lib/permissions';
import type { Section } from './sections';

/** Renders a section only when the key's scopes allow it; otherwise explains which scope is needed (issue 4). */
export function ScopeGate({ section, children }: { section: Section; children: ReactNode }) {
  const { connection } = useWorkspaceApi();
  const t = useT();
  if (section.scope && !allows(connection.permissions, section.scope)) return <MissingScope scope={section.scope} what={t(section.labelKey)} />;
  return children;
}

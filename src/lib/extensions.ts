/**
 * Which of our service's extensions (docs/decisions.md section 10, issue 22 point 6) the service on screen has: asked
 * once per key with `GET /extensions` and kept for the session (never stale, never refetched); a 404 (a service
 * without extensions, such as the hosted one) or any error means none, so nothing is offered and nothing breaks. A 429
 * is asked again after its `Retry-After`, meanwhile offering none (src/lib/extension-query.ts).
 * The workspace layout asks on connecting; every place that offers an extension reads the same cached answer.
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { ExtensionName } from '@/api/extensions';
import { useWorkspaceApi } from './workspace-api';
import { extensionQuery } from './extension-query';
import { useFirstInteraction } from './first-interaction';

/** The extensions of the workspace's service: `has(name)` is false until the answer is known, and for a service without it. */
export function useExtensions(): { has: (name: ExtensionName) => boolean; known: boolean } {
  const { api, connection } = useWorkspaceApi();
  const query = useQuery(extensionQuery(api, connection.baseUrl, connection.workspaceId));
  const names = query.data ?? [];
  return { has: (name) => names.includes(name), known: query.isSuccess };
}

/**
 * After how long an untouched screen joins the change stream, in ms: at the first interaction otherwise, so the
 * first screen's JavaScript and requests stay as they were (issue 16, scripts/first-screens.json).
 */
const LIVE_START_MS = 30_000;

/**
 * True when the console follows the workspace's changes live (issue 36; docs/decisions.md section 13): the service
 * names the extension `events`, and the person interacted with the page or it has been open LIVE_START_MS (since
 * the page was opened: `performance.now()`). The
 * stream's code (src/lib/live/) and what shows its news load only then; without `events`, never, and nothing polls
 * (issue 36 point 7).
 */
export function useLiveChanges(): boolean {
  const interacted = useFirstInteraction();
  const [late, setLate] = useState(false);
  useEffect(() => {
    const timer = setTimeout(setLate, LIVE_START_MS - performance.now(), true);
    return () => clearTimeout(timer);
  }, []);
  return useExtensions().has('events') && (interacted || late);
}

/**
 * "3 new contacts: show" (issue 36 point 6; docs/decisions.md section 13): contacts created elsewhere while the list
 * is open are counted by the change stream (src/lib/live/live-watch.tsx, live-store.ts) instead of being loaded
 * into the page the person is reading. The contacts page shows this beside its count, on a line of fixed height, so
 * the table does not move when it appears; it loads only while the console follows the changes (`useLiveChanges`),
 * its texts with the record's (the `contact-record` catalog area), off the first screen.
 */
import { Button } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useArea, useT } from '@/i18n/react';
import { useWorkspaceApi } from '@/lib/workspace-api';
import { clearCreated, useCreatedElsewhere } from '@/lib/live/live-store';
import { contactQueries } from '../queries';

/**
 * The button saying how many contacts were created elsewhere (or that the list changed, when the service could not
 * say how many; its texts are the `contact-record` catalog area's), in a polite live region (there from the start, so that it is announced); it loads the workspace's
 * contacts queries on screen again. A load of the list (`fetching`: a page, a filter, a refetch) shows what was
 * created before it started, so it takes those off the count.
 */
export function CreatedElsewhere({ fetching }: { fetching: boolean }) {
  useArea('contact-record');
  const { workspaceId } = useWorkspaceApi();
  const queryClient = useQueryClient();
  const created = useCreatedElsewhere(workspaceId, 'contacts');
  const t = useT();
  const loadStarted = useRef<number | null>(null);
  useEffect(() => {
    if (fetching) {
      loadStarted.current ??= Date.now();
      return;
    }
    if (loadStarted.current === null) return;
    clearCreated(workspaceId, 'contacts', loadStarted.current);
    loadStarted.current = null;
  }, [fetching, workspaceId]);
  return (
    <span aria-live="polite">
      {created === undefined ? null : (
        <Button variant="light" size="compact-xs" onClick={() => void queryClient.invalidateQueries({ queryKey: contactQueries.all(workspaceId) })}>
          {created === null ? t('contact-record.listChanged') : t('contact-record.newElsewhere', { count: created })}
        </Button>
      )}
    </span>
  );
}

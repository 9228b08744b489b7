/**
 * Records with addresses (issue 14, point 2). A list page at `/w/:workspaceId/<section>` opens one of its records
 * at `/w/:workspaceId/<section>/:recordId` (the router's optional `:recordId` segment), keeping the list's search
 * parameters, so a record can be linked, reloaded and opened in a new tab over the same list view.
 *
 * - Opening from the list pushes a history entry marked `{ fromList: true }` (kept by the browser across a
 *   reload); closing such a record goes back, so Back and the close button do the same thing. A record closes once:
 *   closing it again before the address has changed does nothing. A record opened
 *   from a pasted address closes by navigating to its list.
 * - The page shows the record with RecordDrawer (src/components/record-drawer.tsx, loaded when a record opens): the
 *   row of the page on screen, else a look-up by id; an unknown id says so.
 * - When a record closes, focus returns to its row's link (`data-row-link`, see DataTable) when the page shows
 *   it, else to the page's `<main>` (issue 14, point 5).
 */
import { useCallback, useEffect, useRef } from 'react';
import { useLocation, useNavigate, useParams } from 'react-router';

/** The history state of a record opened from its list. */
export const FROM_LIST = { fromList: true } as const;

/** `/w/:workspaceId/<section>/:recordId?` as `{ recordId, linkTo(id), open(id), close() }`. */
export function useRecordRoute(section: string) {
  const { workspaceId = '', recordId } = useParams();
  const { search, state } = useLocation();
  const navigate = useNavigate();
  const listPath = `/w/${workspaceId}/${section}`;
  const fromList = (state as { fromList?: unknown } | null)?.fromList === true;

  const linkTo = useCallback((id: string) => ({ pathname: `${listPath}/${encodeURIComponent(id)}`, search }), [listPath, search]);
  const open = useCallback((id: string) => void navigate(linkTo(id), { state: FROM_LIST }), [navigate, linkTo]);
  // Once per record shown: a second close before the address has changed (a second Escape on a busy page, while the
  // drawer is still open) would go back a second time, past the list's own entry (its page size, its filters).
  const closedFor = useRef<string | undefined>(undefined);
  const close = useCallback(() => {
    if (recordId !== undefined && closedFor.current === recordId) return;
    closedFor.current = recordId;
    void (fromList ? navigate(-1) : navigate({ pathname: listPath, search }));
  }, [recordId, fromList, navigate, listPath, search]);

  const previous = useRef(recordId);
  useEffect(() => {
    const closed = previous.current;
    previous.current = recordId;
    if (recordId === undefined) closedFor.current = undefined;
    if (!closed || recordId) return;
    // After the drawer has gone (and taken the focus with it), unless something else has taken the focus since.
    const timer = setTimeout(() => {
      if (document.activeElement && document.activeElement !== document.body) return;
      const row = document.querySelector<HTMLElement>(`[data-row-link="${CSS.escape(closed)}"]`);
      (row ?? document.querySelector<HTMLElement>('main'))?.focus();
    }, 0);
    return () => clearTimeout(timer);
  }, [recordId]);

  return { recordId, linkTo, open, close, state: FROM_LIST };
}

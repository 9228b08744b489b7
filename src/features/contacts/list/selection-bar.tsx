/**
 * The bar shown while contacts are selected (issues 5 and 13), loaded on the first selection: the count, and once
 * the whole page is selected while more contacts match, "Select all 1,234 matching" (the Gmail pattern), which
 * hands the filter itself to bulk tagging instead of the page's ids. Any change of the list (page, size, sort,
 * filter: a new `params`) or of the selection ends "all matching".
 *
 * Erase (issue 22 point 7, ./bulk-erase.tsx) over the same selection, where the service names `contact-erasure`
 * (src/lib/extensions.ts) and the key may write; a service without it gets one line saying so.
 */
import { useT } from '@/i18n/react';
import { Button, Group, Text } from '@mantine/core';
import { useState } from 'react';
import type { ListParams } from '@/api/common';
import { useExtensions } from '@/lib/extensions';
import { BulkErase } from '../bulk/bulk-erase';
import { BulkTags } from '../bulk/bulk-tags';

export type SelectionBarProps = {
  selectedIds: string[];
  /** The rows of the page shown. */
  rows: readonly { id: string }[] | undefined;
  /** `meta.maxResults` of the current filter. */
  total: number | undefined;
  /** The list's request (the page's memoised object: a new one is a new list). */
  params: Required<Pick<ListParams, 'offset' | 'limit'>> & ListParams;
  canTag: boolean;
  onClear: () => void;
};

export function SelectionBar({ selectedIds, rows, total, params, canTag, onClear }: SelectionBarProps) {
  const t = useT();
  const pageIds = rows?.map((row) => row.id) ?? [];
  const selectionKey = selectedIds.join(',');
  const [chosen, setChosen] = useState<{ params: Required<Pick<ListParams, 'offset' | 'limit'>> & ListParams; selectionKey: string } | null>(null);
  const allMatching = chosen?.params === params && chosen.selectionKey === selectionKey;
  const filter = params.filter;
  const pageSelected = pageIds.length > 0 && pageIds.every((id) => selectedIds.includes(id));
  const matching = allMatching && total !== undefined;
  const offer = !matching && pageSelected && total !== undefined && total > selectedIds.length;
  const extensions = useExtensions();
  const canErase = extensions.has('contact-erasure');
  const selection = matching ? ({ kind: 'matching', filter, total } as const) : ({ kind: 'ids', ids: selectedIds } as const);
  return (
    <Group gap="xs" role="region" aria-label={t('bulk.selection')}>
      <Text size="sm">
        {matching
          ? t('bulk.allMatchingSelected', { count: total })
          : offer
            ? t('bulk.allOnPageSelected', { count: selectedIds.length })
            : t('bulk.selected', { count: selectedIds.length })}
      </Text>
      {offer ? (
        <Button variant="subtle" size="xs" onClick={() => setChosen({ params, selectionKey })}>
          {t('bulk.selectAllMatching', { count: total })}
        </Button>
      ) : null}
      {canTag ? (
        <BulkTags selection={selection} onDone={onClear} />
      ) : (
        <Text size="sm" c="dimmed">
          {t('bulk.taggingNeeds')}
        </Text>
      )}
      {!extensions.known ? null : canErase ? (
        canTag ? <BulkErase selection={selection} onDone={onClear} /> : null
      ) : (
        <Text size="sm" c="dimmed">
          {t('bulk.eraseNotAllowed')}
        </Text>
      )}
      <Button variant="subtle" size="xs" onClick={onClear}>
        {t('bulk.clearSelection')}
      </Button>
    </Group>
  );
}

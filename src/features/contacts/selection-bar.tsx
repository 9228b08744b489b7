/**
 * The bar shown while contacts are selected (issues 5 and 13), loaded on the first selection: the count, and once
 * the whole page is selected while more contacts match, "Select all 1,234 matching" (the Gmail pattern), which
 * hands the filter itself to bulk tagging instead of the page's ids.
 */
import { Button, Group, Text } from '@mantine/core';
import type { FilterNode } from '@/api/filter/ast';
import { BulkTags } from './bulk-tags';

export type SelectionBarProps = {
  selectedIds: string[];
  /** Ids of the rows on the page shown. */
  pageIds: string[];
  /** `meta.maxResults` of the current filter. */
  total: number | undefined;
  filter: FilterNode | undefined;
  /** True once "Select all N matching" was chosen (and neither the filter nor the selection changed since). */
  allMatching: boolean;
  canTag: boolean;
  onSelectAllMatching: () => void;
  onClear: () => void;
};

export function SelectionBar({ selectedIds, pageIds, total, filter, allMatching, canTag, onSelectAllMatching, onClear }: SelectionBarProps) {
  const pageSelected = pageIds.length > 0 && pageIds.every((id) => selectedIds.includes(id));
  const matching = allMatching && total !== undefined;
  const offer = !matching && pageSelected && total !== undefined && total > selectedIds.length;
  return (
    <Group gap="xs" role="region" aria-label="Selection">
      <Text size="sm">
        {matching
          ? `All ${total.toLocaleString()} matching contacts are selected.`
          : offer
            ? `All ${selectedIds.length.toLocaleString()} contacts on this page are selected.`
            : `${selectedIds.length.toLocaleString()} selected`}
      </Text>
      {offer ? (
        <Button variant="subtle" size="xs" onClick={onSelectAllMatching}>
          Select all {total.toLocaleString()} matching
        </Button>
      ) : null}
      {canTag ? (
        <BulkTags selection={matching ? { kind: 'matching', filter, total } : { kind: 'ids', ids: selectedIds }} onDone={onClear} />
      ) : (
        <Text size="sm" c="dimmed">
          Tagging needs contacts:read-write
        </Text>
      )}
      <Button variant="subtle" size="xs" onClick={onClear}>
        Clear selection
      </Button>
    </Group>
  );
}

/**
 * A tags input over the workspace's existing tags (issue 13): suggestions come from `existing`; typing a tag that
 * differs only in case from an existing one (`VIP` when `vip` exists) puts the existing one first, highlighted, so
 * Enter takes it, and says so under the field; a variant that arrives another way (comma, paste, blur) is written
 * as the existing tag (src/lib/tag-match.ts). Used by the contact drawer, the bulk tags dialog and the new contact
 * form.
 */
import { TagsInput, type TagsInputProps } from '@mantine/core';
import { useMemo, useState } from 'react';
import { canonicalTags, caseVariantOf, suggestionsFor } from '@/lib/tag-match';

export type TagsFieldProps = Omit<TagsInputProps, 'data' | 'value' | 'onChange' | 'searchValue' | 'onSearchChange'> & {
  value: string[];
  onChange: (tags: string[]) => void;
  /** The workspace's tags, offered as suggestions. */
  existing: readonly string[];
};

export function TagsField({ value, onChange, existing, description, ...props }: TagsFieldProps) {
  const [search, setSearch] = useState('');
  const match = caseVariantOf(search, existing);
  const data = useMemo(() => [...suggestionsFor(search, existing)], [search, existing]);
  return (
    <TagsInput
      {...props}
      data={data}
      value={value}
      onChange={(next) => onChange(canonicalTags(next, existing))}
      searchValue={search}
      onSearchChange={setSearch}
      selectFirstOptionOnChange={match !== null}
      description={match ? `“${search.trim()}” is the existing tag “${match}”: Enter uses “${match}”.` : description}
    />
  );
}

/**
 * A tags input over the workspace's existing tags (issue 13): suggestions come from `existing`; typing a tag that
 * differs only in case from an existing one (`VIP` when `vip` exists) puts the existing one first, highlighted, so
 * Enter takes it, and says so under the field; a variant that arrives another way (comma, paste, blur) is written
 * as the existing tag (src/lib/tag-match.ts). Used by every free-text tags field of the console: the contact
 * drawer, the bulk tags dialog, the new contact form, the product drawer and filters, the composer's recipients
 * when tags cannot be looked up (no `existing`: no suggestions).
 *
 * Issue 23 point 8: the suggestion list closes when Enter takes a tag (it stayed open over the controls below,
 * where a tap picked a suggestion by accident) and opens again on the next letter typed or ArrowDown; the × of each
 * tag is named "Remove tag <tag>" (./removable-pill.tsx). Texts: the `shell` catalog, in the language shown (issue 23).
 */
import { TagsInput, type TagsInputProps } from '@mantine/core';
import { useMemo, useState } from 'react';
import { canonicalTags, caseVariantOf, suggestionsFor } from '@/lib/tag-match';
import { t } from '@/i18n/i18n';
import { useT } from '@/i18n/react';
import { pillRenderer, useCloseOnEnter } from './removable-pill';

export type TagsFieldProps = Omit<TagsInputProps, 'data' | 'value' | 'onChange' | 'searchValue' | 'onSearchChange' | 'dropdownOpened' | 'renderPill'> & {
  value: string[];
  onChange: (tags: string[]) => void;
  /** The workspace's tags, offered as suggestions; none by default. */
  existing?: readonly string[];
  /** The × names: "Remove tag <tag>" by default. */
  removeName?: (tag: string) => string;
};

const NO_TAGS: readonly string[] = [];
/** The × of a tag: "Remove tag vip" ("Fjern merkelappen vip"). */
export const removeTagName = (tag: string) => t('lists.removeTag', { tag });
/** The × of any other chosen value, by its label (a collection, a contact): "Remove Summer" ("Fjern Summer"). */
export const removeValueName = (label: string) => t('lists.removeValue', { label });

export function TagsField({ value, onChange, existing = NO_TAGS, description, onKeyDown, onDropdownOpen, onDropdownClose, removeName = removeTagName, ...props }: TagsFieldProps) {
  useT();
  const [search, setSearch] = useState('');
  const dropdown = useCloseOnEnter({ onDropdownOpen, onDropdownClose, onKeyDown });
  const match = caseVariantOf(search, existing);
  const data = useMemo(() => [...suggestionsFor(search, existing)], [search, existing]);
  const renderPill = useMemo(() => pillRenderer((option) => removeName(option.value)), [removeName]);
  const { openOnType, ...dropdownProps } = dropdown;
  return (
    <TagsInput
      {...props}
      {...dropdownProps}
      data={data}
      value={value}
      onChange={(next) => onChange(canonicalTags(next, existing))}
      searchValue={search}
      onSearchChange={(next) => {
        setSearch(next);
        openOnType(next);
      }}
      renderPill={renderPill}
      selectFirstOptionOnChange={match !== null}
      description={match ? t('lists.existingTag', { typed: search.trim(), existing: match }) : description}
    />
  );
}

/**
 * The contacts filter bar (issue 5): a debounced search over name and email, the state facet (with each state's
 * count under the other filters: state-facet.tsx, issue 13) and the tag facet (tags
 * with their counts from `GET /contacts/contacts-tags`, which are for the whole workspace, and say so; matching
 * any chosen tag), a created date range, city, and the
 * "Advanced" box: the filter as field/operator/value rows beside its `$filter` text (advanced-filter.tsx). Facets and the advanced text both end up as one `$filter` AST; choosing a facet
 * replaces an applied advanced filter.
 */
import { useT } from '@/i18n/react';
import { Alert, Button, Group, TextInput } from '@mantine/core';
import { Suspense, lazy, useState } from 'react';
import { printFilter } from '@/api/filter/print';
import { AfterInteraction } from '@/components/after-interaction';
import { DebouncedInput } from '@/components/debounced-input';
import { CLEAR_FILTERS, type ContactSearch, contactFilter, facetFilter, isFiltered } from './contact-search';
import { StateFacet } from './state-facet';
import { loadFilterParser } from './filter-parser';

// The tag picker's dropdown code (a popover) loads at the page's first interaction; a plain input stands in.
const TagFacet = lazy(() => import('./tag-facet').then((m) => ({ default: m.TagFacet })));
// The Advanced box (its rows and its text, with the parser and printer's checks) loads when it opens (docs/bundle.md).
const AdvancedFilter = lazy(() => import('./advanced-filter').then((m) => ({ default: m.AdvancedFilter })));

type Props = { search: ContactSearch; update: (patch: Partial<ContactSearch>) => void };

export function ContactFilters({ search, update }: Props) {
  const [advanced, setAdvanced] = useState(Boolean(search.filter));
  const t = useT();
  const facet = (patch: Partial<ContactSearch>) => update({ ...patch, filter: undefined });
  const current = contactFilter(search);
  const applied = current ? printFilter(current) : '';
  const state = search.filter ? '' : (search.state ?? '');

  return (
    <div role="search" aria-label={t('contacts.filterLabel')}>
      <Group align="flex-end" gap="sm" wrap="wrap">
        {/* Shown on a phone with the other filters folded (issue 34 point 8: filter-sheet.module.css). */}
        <div data-sheet-keep="">
          <DebouncedInput label={t('contacts.search')} placeholder={t('contacts.searchHint')} value={search.filter ? '' : search.q} onChange={(q) => facet({ q })} />
        </div>
        <StateFacet value={state} others={search.filter ? undefined : facetFilter({ ...search, state: undefined })} onChange={(next) => facet({ state: next })} />
        {/* The stand-in is what the picker is to assistive technology too: a collapsed combobox with the same name and description. */}
        <AfterInteraction
          fallback={<TextInput label={t('contacts.colTags')} description={t('contacts.countsWorkspace')} placeholder={search.tags.length && !search.filter ? search.tags.join(', ') : t('contacts.any')} readOnly role="combobox" aria-expanded={false} miw={200} />}
        >
          <TagFacet value={search.filter ? [] : search.tags} onChange={(tags) => facet({ tags })} />
        </AfterInteraction>
        <TextInput label={t('contacts.createdFrom')} type="date" value={search.filter ? '' : (search.from ?? '')} onChange={(event) => facet({ from: event.currentTarget.value || undefined })} />
        <TextInput label={t('contacts.createdTo')} type="date" value={search.filter ? '' : (search.to ?? '')} onChange={(event) => facet({ to: event.currentTarget.value || undefined })} />
        <DebouncedInput label={t('contacts.colCity')} value={search.filter ? '' : search.city} onChange={(city) => facet({ city })} />
        <Button
          variant="subtle"
          onClick={() => {
            // The parser reads the text once it is applied (filter-parser.ts): it loads with the box.
            void loadFilterParser();
            setAdvanced((open) => !open);
          }}
          aria-expanded={advanced}
        >
          {t('lists.advanced')}
        </Button>
        {/* Always laid out, hidden while nothing is filtered, so setting a filter never moves the bar onto two rows (issue 14). */}
        <Button variant="default" onClick={() => update(CLEAR_FILTERS)} style={{ visibility: isFiltered(search) ? undefined : 'hidden' }}>
          {t('lists.clearFilters')}
        </Button>
      </Group>
      {advanced ? (
        <div style={{ marginTop: 12 }}>
          {search.filter ? (
            <Alert color="blue" mb="xs" p="xs">
              {t('contacts.advancedApplied')}
            </Alert>
          ) : null}
          <Suspense fallback={null}>
            <AdvancedFilter key={applied} value={applied} onApply={(text) => update({ ...CLEAR_FILTERS, filter: text || undefined })} />
          </Suspense>
        </div>
      ) : null}
    </div>
  );
}

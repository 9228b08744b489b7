/**
 * The contacts list's Advanced box (issue 34 point 9): the filter as field/operator/value rows joined by "all of" or
 * "any of", with its `$filter` text beside them, kept in sync through one AST (src/lib/filter-rows.ts, printed by
 * src/api/filter/print.ts). Editing rows writes the text; editing the text rewrites the rows when the filter is flat,
 * and otherwise the rows say in a sentence that it can only be edited as text. Apply is the text editor's
 * (src/components/filter-text-input.tsx): it applies the text, which the rows keep current.
 *
 * Loaded on demand with the parser (contact-filters.tsx's lazy import, docs/bundle.md): the screen's first load
 * carries none of it. Values are typed by field: a select (or checkboxes, for "is one of") for the state, the tag
 * picker for "has any of" and a text with the workspace's tags suggested for one tag, date inputs for dates, text for the rest. Texts are in the `tools` area, which the editor loads.
 * Give it a `key` of the applied text: a newly applied filter starts it afresh.
 */
import { Box, Button, Checkbox, CloseButton, Group, NativeSelect, Stack, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { FilterFieldError, checkFilter } from '@/api/filter/check';
import { contactFilterFields } from '@/api/filter/fields';
import { FilterSyntaxError, parseFilter } from '@/api/filter/parse';
import { printFilter } from '@/api/filter/print';
import { FilterTextInput } from '@/components/filter-text-input';
import { t as translate } from '@/i18n/i18n';
import { useT } from '@/i18n/react';
import { type FilterRow, type FilterRows, type RowOperator, fitOperator, nodeToRows, rowOperators, rowsToNode } from '@/lib/filter-rows';
import { useWorkspaceApi } from '@/lib/workspace-api';
import { contactQueries } from '../queries';
import { TagFacet } from './tag-facet';

const FIELDS = contactFilterFields;
/** Fields with a fixed set of values (docs/decisions.md section 7: a contact is pending or active). */
const STATES = ['active', 'pending'] as const;
const CHOICE_FIELDS = ['state'];
/** The rows' field menu, most used first; every contacts filter field (src/api/filter/fields.ts). */
const FIELD_ORDER = ['state', 'tags', 'city', 'name', 'email', 'phone', 'created', 'updated', 'postalCode', 'region', 'address', 'source', 'systemSource', 'id'] as const;

const FIELD_KEYS: Record<(typeof FIELD_ORDER)[number], string> = {
  state: 'tools.filterField.state',
  tags: 'tools.filterField.tags',
  city: 'tools.filterField.city',
  name: 'tools.filterField.name',
  email: 'tools.filterField.email',
  phone: 'tools.filterField.phone',
  created: 'tools.filterField.created',
  updated: 'tools.filterField.updated',
  postalCode: 'tools.filterField.postalCode',
  region: 'tools.filterField.region',
  address: 'tools.filterField.address',
  source: 'tools.filterField.source',
  systemSource: 'tools.filterField.systemSource',
  id: 'tools.filterField.id',
};

const OPERATOR_KEYS: Record<RowOperator, string> = {
  eq: 'tools.rowOp.eq',
  ne: 'tools.rowOp.ne',
  contains: 'tools.rowOp.contains',
  in: 'tools.rowOp.in',
  empty: 'tools.rowOp.empty',
  notEmpty: 'tools.rowOp.notEmpty',
  gt: 'tools.rowOp.gt',
  ge: 'tools.rowOp.ge',
  lt: 'tools.rowOp.lt',
  le: 'tools.rowOp.le',
  between: 'tools.rowOp.between',
};

/** On a list field (tags) the same operators read "has", "does not have", "has any of" (docs/decisions.md section 6). */
const LIST_OPERATOR_KEYS: Partial<Record<RowOperator, string>> = {
  eq: 'tools.rowOp.hasEq',
  ne: 'tools.rowOp.hasNe',
  in: 'tools.rowOp.hasIn',
  empty: 'tools.rowOp.hasEmpty',
  notEmpty: 'tools.rowOp.hasNotEmpty',
};

const STATE_KEYS: Record<(typeof STATES)[number], string> = { active: 'tools.rowStateActive', pending: 'tools.rowStatePending' };

const typeOf = (field: string) => FIELDS[field] ?? 'string';
const hasChoices = (field: string) => CHOICE_FIELDS.includes(field);

/** What the rows show: rows, or a sentence when the text is not flat (or not yet a filter). */
type RowsView = { kind: 'rows'; rows: FilterRows } | { kind: 'text'; reason: 'notFlat' | 'invalid' };

const blankRow = (): FilterRow => ({ field: 'state', operator: 'eq', values: [''] });

/** The rows of a `$filter` text: one blank row for no filter; a sentence for text that is not flat or not valid. */
export function rowsView(text: string): RowsView {
  if (!text.trim()) return { kind: 'rows', rows: { join: 'and', rows: [blankRow()] } };
  try {
    const node = parseFilter(text);
    checkFilter(node, FIELDS);
    const rows = nodeToRows(node, FIELDS, CHOICE_FIELDS);
    return rows ? { kind: 'rows', rows } : { kind: 'text', reason: 'notFlat' };
  } catch (error) {
    if (error instanceof FilterSyntaxError || error instanceof FilterFieldError) return { kind: 'text', reason: 'invalid' };
    throw error;
  }
}

/**
 * The text of rows: the printed AST of their complete rows, '' for none. Rows the parser would refuse (an `in` list of
 * over 100 values) are printed all the same, so the text's check says what is wrong; '' only for what cannot be
 * printed at all (the printer's RangeError, which rows of known fields do not reach).
 */
export function rowsText(rows: FilterRows): string {
  const node = rowsToNode(rows, FIELDS);
  if (!node) return '';
  try {
    return printFilter(node);
  } catch (error) {
    if (error instanceof RangeError) return '';
    throw error;
  }
}

/** `values` resized for `operator`: none, two, at least one, or one, keeping what was typed where it still fits. */
function valuesFor(operator: RowOperator, values: string[]): string[] {
  if (operator === 'empty' || operator === 'notEmpty') return [];
  if (operator === 'between') return [values[0] ?? '', values[1] ?? ''];
  if (operator === 'in') return values.filter(Boolean);
  return [values[0] ?? ''];
}

/** The Advanced box: rows and text. `value` is the applied filter's text; `onApply` gets the text to apply ('' for none). */
export function AdvancedFilter({ value, onApply }: { value: string; onApply: (text: string) => void }) {
  const t = useT();
  const [text, setText] = useState(value);
  const [view, setView] = useState(() => rowsView(value));

  const editText = (next: string) => {
    setText(next);
    setView(rowsView(next));
  };
  const editRows = (rows: FilterRows) => {
    setView({ kind: 'rows', rows });
    setText(rowsText(rows));
  };

  return (
    <Stack gap="sm">
      <Box component="fieldset" m={0} p={0} style={{ border: 0, minWidth: 0 }}>
        <Text component="legend" fw={500} size="sm" mb={4}>
          {t('tools.rowsLegend')}
        </Text>
        {view.kind === 'text' ? (
          <Text size="sm">{t(view.reason === 'notFlat' ? 'tools.rowsTextOnly' : 'tools.rowsTextInvalid')}</Text>
        ) : (
          <RowsEditor rows={view.rows} onChange={editRows} />
        )}
      </Box>
      <FilterTextInput value={value} fields={FIELDS} onApply={onApply} text={text} onTextChange={editText} />
    </Stack>
  );
}

function RowsEditor({ rows, onChange }: { rows: FilterRows; onChange: (rows: FilterRows) => void }) {
  const t = useT();
  const { api, workspaceId } = useWorkspaceApi();
  // The workspace's tags to pick from, asked for only once a row is about tags (one request, cached 30 s).
  const tags = useQuery({ ...contactQueries.tags(api, workspaceId), enabled: rows.rows.some((row) => row.field === 'tags') });
  const tagNames = [...new Set((tags.data ?? []).map((tag) => tag.name))];
  const setRow = (index: number, row: FilterRow) => onChange({ ...rows, rows: rows.rows.map((old, i) => (i === index ? row : old)) });
  return (
    <Stack gap="xs">
      <NativeSelect
        label={t('tools.rowsJoin')}
        data={[{ value: 'and', label: t('tools.rowsAll') }, { value: 'or', label: t('tools.rowsAny') }]}
        value={rows.join}
        onChange={(event) => onChange({ ...rows, join: event.currentTarget.value === 'or' ? 'or' : 'and' })}
        w={260}
      />
      {rows.rows.map((row, index) => (
        <RowEditor
          // Rows have no identity of their own; a removed row shifts the rest, which then show their own values.
          key={index}
          row={row}
          n={index + 1}
          tagNames={tagNames}
          onChange={(next) => setRow(index, next)}
          onRemove={() => onChange({ ...rows, rows: rows.rows.filter((_, i) => i !== index) })}
        />
      ))}
      <Group>
        <Button size="xs" variant="light" onClick={() => onChange({ ...rows, rows: [...rows.rows, blankRow()] })}>
          {t('tools.rowsAdd')}
        </Button>
      </Group>
    </Stack>
  );
}

function operatorLabel(field: string, operator: RowOperator): string {
  const key = (typeOf(field) === 'string-array' ? LIST_OPERATOR_KEYS[operator] : undefined) ?? OPERATOR_KEYS[operator];
  return translate(key);
}

function RowEditor({ row, n, tagNames, onChange, onRemove }: { row: FilterRow; n: number; tagNames: string[]; onChange: (row: FilterRow) => void; onRemove: () => void }) {
  const t = useT();
  const type = typeOf(row.field);
  const choices = hasChoices(row.field);
  const operators = rowOperators(type, { choices });
  const setValues = (values: string[]) => onChange({ ...row, values });
  const setValue = (index: number, value: string) => setValues(row.values.map((old, i) => (i === index ? value : old)));
  return (
    <Group role="group" aria-label={t('tools.rowLabel', { n })} align="flex-end" gap="xs" wrap="wrap">
      <NativeSelect
        label={t('tools.rowField')}
        data={FIELD_ORDER.map((field) => ({ value: field, label: t(FIELD_KEYS[field]) }))}
        value={row.field}
        onChange={(event) => {
          const field = event.currentTarget.value;
          if (field === row.field) return;
          const operator = fitOperator(row.operator, typeOf(field), { choices: hasChoices(field) });
          onChange({ field, operator, values: valuesFor(operator, []) });
        }}
        w={160}
      />
      <NativeSelect
        label={t('tools.rowOperator')}
        data={operators.map((operator) => ({ value: operator, label: operatorLabel(row.field, operator) }))}
        value={row.operator}
        onChange={(event) => {
          const next = event.currentTarget.value;
          const operator = operators.find((candidate) => candidate === next);
          if (operator) onChange({ ...row, operator, values: valuesFor(operator, row.values) });
        }}
        w={170}
      />
      <ValueEditor row={row} tagNames={tagNames} setValue={setValue} setValues={setValues} />
      <CloseButton aria-label={t('tools.rowRemove', { n })} onClick={onRemove} mb={6} />
    </Group>
  );
}

/**
 * The value input(s) of a row, by field and operator. Built from what the screen's first load already has (native
 * selects, checkboxes, text and date inputs) and the tag picker (tag-facet.tsx), so opening the box loads no other
 * input's code and the screen's list of chunks to preload does not grow (docs/bundle.md).
 */
function ValueEditor({ row, tagNames, setValue, setValues }: { row: FilterRow; tagNames: string[]; setValue: (index: number, value: string) => void; setValues: (values: string[]) => void }) {
  const t = useT();
  const listId = useId();
  const type = typeOf(row.field);
  if (row.operator === 'empty' || row.operator === 'notEmpty') return null;
  if (hasChoices(row.field)) {
    const data = STATES.map((state) => ({ value: state, label: t(STATE_KEYS[state]) }));
    return row.operator === 'in' ? (
      <Checkbox.Group label={t('tools.rowValues')} value={row.values} onChange={setValues}>
        <Group gap="md" mt={6} mb={8}>
          {data.map((option) => (
            <Checkbox key={option.value} value={option.value} label={option.label} />
          ))}
        </Group>
      </Checkbox.Group>
    ) : (
      <NativeSelect label={t('tools.rowValue')} data={[{ value: '', label: '' }, ...data]} value={row.values[0] ?? ''} onChange={(event) => setValue(0, event.currentTarget.value)} w={160} />
    );
  }
  if (type === 'string-array') {
    if (row.operator === 'in') return <TagFacet value={row.values} onChange={setValues} />;
    // Any text, with the workspace's tags suggested (a native list: no other input's code to load).
    return (
      <>
        <TextInput label={t('tools.rowTag')} list={listId} value={row.values[0] ?? ''} onChange={(event) => setValue(0, event.currentTarget.value)} w={200} />
        <datalist id={listId}>
          {tagNames.map((name) => (
            <option key={name} value={name} />
          ))}
        </datalist>
      </>
    );
  }
  if (type === 'date') {
    // A date input while the value is a day (or empty); a date-time written in the text stays editable as text.
    const input = (index: number, label: string) => {
      const value = row.values[index] ?? '';
      return <TextInput key={index} label={label} type={/^(\d{4}-\d{2}-\d{2})?$/.test(value) ? 'date' : 'text'} value={value} onChange={(event) => setValue(index, event.currentTarget.value)} />;
    };
    return row.operator === 'between' ? (
      <>
        {input(0, t('tools.rowFrom'))}
        {input(1, t('tools.rowTo'))}
      </>
    ) : (
      input(0, t('tools.rowDate'))
    );
  }
  return <TextInput label={t('tools.rowValue')} value={row.values[0] ?? ''} onChange={(event) => setValue(0, event.currentTarget.value)} w={200} />;
}

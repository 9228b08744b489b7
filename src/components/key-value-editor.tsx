/**
 * Edits a map of string keys to values (statusTags, customProperties) as rows of key, type and value (issues 5
 * and 6). Types: text, number, true/false, JSON. `toRecord` turns the rows into the object the API takes and
 * reports the first problem (a duplicate or empty key, a value that is not a number or not JSON). Texts (issue 23):
 * the `forms` catalog area, waited for here (`useArea`: the editor sits under a `Suspense` boundary); `label`
 * comes translated from the caller.
 */
import { ActionIcon, Button, Group, NativeSelect, Stack, Text, TextInput } from '@mantine/core';
import { useArea, useT } from '@/i18n/react';
import type { KeyValueRow, ValueType } from '@/lib/key-value';

// The row model lives in src/lib/key-value.ts (usable without React); re-exported for existing callers.
export { type KeyValueRow, type ValueType, rowsOf, toRecord } from '@/lib/key-value';

/** The remove button's sign; its accessible name says what it removes. */
const REMOVE_SIGN = '×';

export function KeyValueEditor({ label, rows, onChange, error }: { label: string; rows: KeyValueRow[]; onChange: (rows: KeyValueRow[]) => void; error?: string }) {
  useArea('forms');
  const t = useT();
  const set = (index: number, patch: Partial<KeyValueRow>) => onChange(rows.map((row, i) => (i === index ? { ...row, ...patch } : row)));
  return (
    <Stack gap={6} role="group" aria-label={label}>
      <Text size="sm" fw={500}>
        {label}
      </Text>
      {rows.map((row, index) => (
        <Group key={index} gap="xs" wrap="nowrap" align="flex-start">
          <TextInput aria-label={t('forms.rowKey', { label, index: index + 1 })} placeholder={t('forms.rowKeyPlaceholder')} value={row.key} onChange={(event) => set(index, { key: event.currentTarget.value })} w="35%" />
          <NativeSelect
            aria-label={t('forms.rowType', { label, index: index + 1 })}
            value={row.type}
            data={[
              { value: 'text', label: t('forms.typeText') },
              { value: 'number', label: t('forms.typeNumber') },
              { value: 'boolean', label: t('forms.typeBoolean') },
              { value: 'json', label: t('forms.typeJson') },
            ]}
            onChange={(event) => set(index, { type: event.currentTarget.value as ValueType, value: event.currentTarget.value === 'boolean' ? 'true' : row.value })}
            w={110}
          />
          {row.type === 'boolean' ? (
            <NativeSelect aria-label={t('forms.rowValue', { label, index: index + 1 })} value={row.value} data={[{ value: 'true', label: t('forms.true') }, { value: 'false', label: t('forms.false') }]} onChange={(event) => set(index, { value: event.currentTarget.value })} style={{ flex: 1 }} />
          ) : (
            <TextInput aria-label={t('forms.rowValue', { label, index: index + 1 })} placeholder={t('forms.rowValuePlaceholder')} value={row.value} onChange={(event) => set(index, { value: event.currentTarget.value })} style={{ flex: 1 }} />
          )}
          <ActionIcon variant="subtle" color="red" aria-label={t('forms.rowRemove', { label, index: index + 1 })} onClick={() => onChange(rows.filter((_, i) => i !== index))} mt={6}>
            {REMOVE_SIGN}
          </ActionIcon>
        </Group>
      ))}
      <Button variant="light" size="xs" w="fit-content" onClick={() => onChange([...rows, { key: '', type: 'text', value: '' }])}>
        {t('forms.rowAdd', { label: label.toLowerCase() })}
      </Button>
      {error ? (
        <Text size="xs" c="red" role="alert">
          {error}
        </Text>
      ) : null}
    </Stack>
  );
}

/**
 * The "Advanced" `$filter` editor (issue 5): shows the filter the list sends, lets the user edit it, checks
 * what they type live with the shared parser and the endpoint's field table, shows an error at its position,
 * and applies only valid text. Its texts are in the `tools` catalog area, fetched with it (it sits under the
 * `Suspense` of its lazy import). The parser's own messages (src/api/filter/) are English, as the API's are.
 */
import { Button, Code, Group, Stack, Text, Textarea } from '@mantine/core';
import { useEffect, useMemo, useState } from 'react';
import { FilterFieldError, checkFilter } from '@/api/filter/check';
import type { FieldTable } from '@/api/filter/fields';
import { FilterSyntaxError, parseFilter } from '@/api/filter/parse';
import { useArea, useT } from '@/i18n/react';

type Check = { ok: true } | { ok: false; message: string; position: number | null };

/** Checks `text` as a `$filter` for `fields`; an empty text is valid (no filter). */
export function checkFilterText(text: string, fields: FieldTable): Check {
  if (!text.trim()) return { ok: true };
  try {
    checkFilter(parseFilter(text), fields);
    return { ok: true };
  } catch (error) {
    if (error instanceof FilterSyntaxError) return { ok: false, message: error.message, position: error.position };
    if (error instanceof FilterFieldError) return { ok: false, message: error.message, position: null };
    throw error;
  }
}

export function FilterTextInput({ value, fields, onApply }: { value: string; fields: FieldTable; onApply: (text: string) => void }) {
  useArea('tools');
  const t = useT();
  const [text, setText] = useState(value);
  useEffect(() => setText(value), [value]);
  const check = useMemo(() => checkFilterText(text, fields), [text, fields]);
  const changed = text.trim() !== value.trim();
  return (
    <Stack gap={4}>
      <Textarea
        label={t('tools.filterExpression')}
        description={t('tools.filterExpressionHint')}
        value={text}
        onChange={(event) => setText(event.currentTarget.value)}
        autosize
        minRows={1}
        maxRows={6}
        spellCheck={false}
        styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
        error={check.ok ? undefined : check.message}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && !event.shiftKey && check.ok && changed) {
            event.preventDefault();
            onApply(text.trim());
          }
        }}
      />
      {!check.ok && check.position !== null ? (
        <Text size="xs" component="div" aria-label={t('tools.errorPosition')}>
          <Code block>
            {text}
            {'\n'}
            {' '.repeat(Math.min(check.position, text.length))}^
          </Code>
        </Text>
      ) : null}
      <Group gap="xs">
        <Button size="xs" disabled={!check.ok || !changed} onClick={() => onApply(text.trim())}>
          {t('tools.applyFilter')}
        </Button>
        {changed ? (
          <Button size="xs" variant="subtle" onClick={() => setText(value)}>
            {t('tools.reset')}
          </Button>
        ) : null}
      </Group>
    </Stack>
  );
}

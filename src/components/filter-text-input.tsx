/**
 * The "Advanced" `$filter` editor (issue 5): shows the filter the list sends, lets the user edit it, checks
 * what they type live with the shared parser and the endpoint's field table, shows an error at its position,
 * and applies only valid text. Its texts are in the `tools` catalog area, fetched with it (it sits under the
 * `Suspense` of its lazy import). The parser's messages (src/api/filter/) are the API's English; this editor words the
 * same problems, which the parser gives as data (`FilterSyntaxProblem`, `FilterFieldProblem`), in the language shown.
 */
import { Button, Code, Group, Stack, Text, Textarea } from '@mantine/core';
import { useEffect, useState } from 'react';
import { FilterFieldError, type FilterExpectation, type FilterFieldProblem, checkFilter } from '@/api/filter/check';
import type { FieldTable } from '@/api/filter/fields';
import { FilterSyntaxError, type FilterSyntaxProblem, parseFilter } from '@/api/filter/parse';
import { formatDate, formatList } from '@/i18n/format';
import { t } from '@/i18n/i18n';
import { useArea, useT } from '@/i18n/react';

type Check = { ok: true } | { ok: false; message: string; position: number | null };

/**
 * Checks `text` as a `$filter` for `fields`; an empty text is valid (no filter). `message` is worded in the language
 * shown (the `tools` area must be loaded); `position` is the 0-based index the caret line points at.
 */
export function checkFilterText(text: string, fields: FieldTable): Check {
  if (!text.trim()) return { ok: true };
  try {
    checkFilter(parseFilter(text), fields);
    return { ok: true };
  } catch (error) {
    if (error instanceof FilterSyntaxError) return { ok: false, message: syntaxProblemText(error.problem), position: error.position };
    if (error instanceof FilterFieldError) return { ok: false, message: fieldProblemText(error.problem), position: null };
    throw error;
  }
}

/** A syntax problem in words; positions are counted from 1 for people (the caret line shows it too). */
function syntaxProblemText(problem: FilterSyntaxProblem): string {
  switch (problem.code) {
    case 'tooLong':
      return t('tools.filterTooLong', { max: problem.max });
    case 'empty':
      return t('tools.filterEmpty');
    case 'unterminatedString':
      return t('tools.filterUnterminated', { at: problem.position + 1 });
    case 'invalidNumber':
      return t('tools.filterInvalidNumber', { text: problem.text, at: problem.position + 1 });
    case 'unexpectedEnd':
      return t('tools.filterUnexpectedEnd');
    case 'unexpectedToken':
      return t('tools.filterUnexpectedToken', { text: problem.text, at: problem.position + 1 });
    case 'tooDeep':
      return t('tools.filterTooDeep', { max: problem.max });
    case 'tooManyComparisons':
      return t('tools.filterTooManyComparisons', { max: problem.max });
    case 'inListTooLong':
      return t('tools.filterInListTooLong', { max: problem.max });
  }
}

function fieldProblemText(problem: FilterFieldProblem): string {
  switch (problem.code) {
    case 'unknownField':
      return problem.filterable.length > 0
        ? t('tools.filterUnknownField', { field: problem.field, fields: formatList(problem.filterable) })
        : t('tools.filterNoFields', { field: problem.field });
    case 'likeNotText':
      return t('tools.filterLikeNotText', { field: problem.field });
    case 'operatorNotForType':
      if (problem.type === 'boolean') return t('tools.filterOperatorBoolean', { field: problem.field, operator: problem.operator });
      if (problem.type === 'string-array') return t('tools.filterOperatorList', { field: problem.field, operator: problem.operator });
      return t('tools.filterOperatorNotFor', { field: problem.field, operator: problem.operator });
    case 'nullOnlyEqNe':
      return t('tools.filterNullOnlyEqNe');
    case 'valueType':
      return t('tools.filterExpects', { field: problem.field, expects: expectationText(problem.expects), got: problem.got });
  }
}

/** The range's ends are UTC instants (`DATE_RANGE`): their day as UTC names it. */
const UTC_DAY: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeZone: 'UTC' };

function expectationText(expects: FilterExpectation): string {
  switch (expects.kind) {
    case 'string':
      return t('tools.expectsText');
    case 'number':
      return t('tools.expectsNumber');
    case 'date':
      return t('tools.expectsDate');
    case 'boolean':
      return t('tools.expectsBoolean');
    case 'integerRange':
      return t('tools.expectsIntegerRange', { min: expects.min, max: expects.max });
    case 'numberRange':
      return t('tools.expectsNumberRange', { min: expects.min, max: expects.max });
    case 'dateRange':
      return t('tools.expectsDateRange', { min: formatDate(expects.min, UTC_DAY), max: formatDate(expects.max, UTC_DAY) });
  }
}

/**
 * The editor. `value` is the applied filter's text, `onApply` gets the checked text trimmed. The text being edited is
 * its own, or the caller's when `text` and `onTextChange` are given (the Advanced box keeps it in sync with its rows:
 * src/features/contacts/list/advanced-filter.tsx).
 */
export function FilterTextInput({ value, fields, onApply, text: shared, onTextChange }: {
  value: string;
  fields: FieldTable;
  onApply: (text: string) => void;
  text?: string;
  onTextChange?: (text: string) => void;
}) {
  useArea('tools');
  const t = useT();
  const [own, setOwn] = useState(value);
  useEffect(() => setOwn(value), [value]);
  const text = shared ?? own;
  const setText = onTextChange ?? setOwn;
  // Checked on every render, not memoized: a render follows typing or a change of language, and the words change with both.
  const check = checkFilterText(text, fields);
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

/**
 * A text input that reports its value after the user pauses typing, for list filters whose state lives in the URL
 * (issue 6): each keystroke would otherwise be a history entry and a request. It follows `value` when the URL
 * changes (Back, "Clear filters").
 *
 * Issue 19 (a key has 60 requests a minute): text is reported after a pause of `PAUSE_MS` (500 ms) and only once it
 * has at least `MIN_TERM_LENGTH` (2) characters, or at once on Enter; emptying the box reports at once. Amounts
 * (`inputMode="decimal"`) report from one character.
 */
import { TextInput } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { useEffect, useState } from 'react';

export type DebouncedInputProps = {
  label: string;
  value: string;
  onChange: (value: string) => void;
  placeholder?: string;
  /** `decimal` for amounts: a numeric keyboard on phones. */
  inputMode?: 'text' | 'decimal';
  width?: number;
};

/** The pause in typing after which a term is reported, in ms. */
export const PAUSE_MS = 500;
/** The shortest term reported without Enter. */
export const MIN_TERM_LENGTH = 2;

export function DebouncedInput({ label, value, onChange, placeholder, inputMode, width = 180 }: DebouncedInputProps) {
  const [text, setText] = useState(value);
  useEffect(() => setText(value), [value]);
  const shortest = inputMode === 'decimal' ? 1 : MIN_TERM_LENGTH;
  const report = useDebouncedCallback((next: string) => {
    if (next.trim().length >= shortest && next !== value) onChange(next);
  }, PAUSE_MS);
  return (
    <TextInput
      label={label}
      placeholder={placeholder}
      inputMode={inputMode}
      value={text}
      onChange={(event) => {
        const next = event.currentTarget.value;
        setText(next);
        if (next.trim() === '') {
          report.cancel();
          if (value !== '') onChange('');
        } else report(next);
      }}
      onKeyDown={(event) => {
        if (event.key !== 'Enter') return;
        report.cancel();
        if (text !== value) onChange(text);
      }}
      w={width}
    />
  );
}

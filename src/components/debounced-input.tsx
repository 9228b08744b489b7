/**
 * A text input that reports its value after the user pauses typing, for list filters whose state lives in the URL
 * (issue 6): each keystroke would otherwise be a history entry and a request. It follows `value` when the URL
 * changes (Back, "Clear filters").
 *
 * Issue 19 (a key has 60 requests a minute): text is reported after a pause of `PAUSE_MS` (500 ms) and only once it
 * has at least `MIN_TERM_LENGTH` (2) characters, or at once on Enter; emptying the box reports at once. Amounts
 * (`inputMode="decimal"`) report from one character.
 *
 * A term this box reported that comes back as `value` leaves the box as it is (`textOnValue`): on a busy device the
 * URL can catch up after the person typed on, and following it would drop those keystrokes ("Hedda" became "Heda").
 */
import { TextInput } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { useEffect, useRef, useState } from 'react';

/**
 * What the box shows when `value` changes, and the terms still awaited: `text` kept when `value` is one of the
 * `reported` terms not yet seen back (that one and those reported before it are then dropped from the list), else
 * `value` itself, with nothing awaited (Back, Forward, "Clear filters", a value the parent rewrote).
 */
export function textOnValue(value: string, text: string, reported: readonly string[]): { text: string; reported: string[] } {
  const index = reported.indexOf(value);
  return index >= 0 ? { text, reported: reported.slice(index + 1) } : { text: value, reported: [] };
}

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
  const shown = useRef(value);
  const reported = useRef<string[]>([]);
  const show = (next: string) => {
    shown.current = next;
    setText(next);
  };
  useEffect(() => {
    const next = textOnValue(value, shown.current, reported.current);
    reported.current = next.reported;
    if (next.text !== shown.current) show(next.text);
  }, [value]);
  const send = (next: string) => {
    reported.current.push(next);
    onChange(next);
  };
  const shortest = inputMode === 'decimal' ? 1 : MIN_TERM_LENGTH;
  const report = useDebouncedCallback((next: string) => {
    if (next.trim().length >= shortest && next !== value) send(next);
  }, PAUSE_MS);
  return (
    <TextInput
      label={label}
      placeholder={placeholder}
      inputMode={inputMode}
      value={text}
      onChange={(event) => {
        const next = event.currentTarget.value;
        show(next);
        if (next.trim() === '') {
          report.cancel();
          if (value !== '') send('');
        } else report(next);
      }}
      onKeyDown={(event) => {
        if (event.key !== 'Enter') return;
        report.cancel();
        if (text !== value) send(text);
      }}
      w={width}
    />
  );
}

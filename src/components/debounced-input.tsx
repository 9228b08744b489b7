/**
 * A text input that reports its value after the user pauses typing (300 ms), for list filters whose state lives
 * in the URL (issue 6): each keystroke would otherwise be a history entry and a request. It follows `value` when
 * the URL changes (Back, "Clear filters").
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

export function DebouncedInput({ label, value, onChange, placeholder, inputMode, width = 180 }: DebouncedInputProps) {
  const [text, setText] = useState(value);
  useEffect(() => setText(value), [value]);
  const report = useDebouncedCallback((next: string) => onChange(next), 300);
  return (
    <TextInput
      label={label}
      placeholder={placeholder}
      inputMode={inputMode}
      value={text}
      onChange={(event) => {
        setText(event.currentTarget.value);
        report(event.currentTarget.value);
      }}
      w={width}
    />
  );
}

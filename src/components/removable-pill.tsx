/**
 * Tag and value pickers as issue 23 point 8 wants them:
 * - `pillRenderer(name)`: pills whose × has an accessible name. Mantine's `Pill` hides its remove button from
 *   assistive technology (`aria-hidden`, `tabIndex -1`: Backspace in the field removes the last pill); here the
 *   button keeps `tabIndex -1` (the field's Backspace stays the keyboard road) but is announced and found by its
 *   name, such as "Remove tag lead". It is the `renderPill` of a `TagsInput` or `MultiSelect`; `name(option)` gives
 *   the remove button's name from the option's value and label.
 * - `useCloseOnEnter()`: props that close a `TagsInput`'s or `MultiSelect`'s suggestion list when Enter takes a
 *   value (Mantine keeps it open, over the controls below it, where a tap picked a suggestion by accident). The
 *   list opens again as Mantine opens it (typing in a `MultiSelect`, ArrowDown, focus) and, for a `TagsInput`, on
 *   the next letter typed (`openOnType`).
 */
import { type ComboboxRenderPillInput, Pill } from '@mantine/core';
import { type KeyboardEvent, type ReactNode, useState } from 'react';

/** A `renderPill` whose pills show the option's label and a × named `name(option)`. */
export function pillRenderer(name: (option: { value: string; label: string }) => string): (props: ComboboxRenderPillInput) => ReactNode {
  return function RemovablePill({ option, onRemove, disabled }) {
    const named = { value: String(option.value), label: option.label };
    return (
      <Pill withRemoveButton={!disabled} onRemove={onRemove} disabled={disabled} removeButtonProps={{ 'aria-hidden': false, 'aria-label': name(named) }}>
        {option.label}
      </Pill>
    );
  };
}

/**
 * Controlled-dropdown props for a `TagsInput` or `MultiSelect` that close its list on Enter; `also` are the
 * field's own open/close handlers, still called. `openOnType(search)`: call from `onSearchChange` of a
 * `TagsInput`, which does not open its list on typing by itself.
 */
export function useCloseOnEnter(also: { onDropdownOpen?: (() => void) | undefined; onDropdownClose?: (() => void) | undefined; onKeyDown?: ((event: KeyboardEvent<HTMLInputElement>) => void) | undefined } = {}) {
  const [opened, setOpened] = useState(false);
  return {
    dropdownOpened: opened,
    onDropdownOpen: () => {
      setOpened(true);
      also.onDropdownOpen?.();
    },
    onDropdownClose: () => {
      setOpened(false);
      also.onDropdownClose?.();
    },
    onKeyDown: (event: KeyboardEvent<HTMLInputElement>) => {
      also.onKeyDown?.(event);
      // Mantine takes the typed value (or the highlighted option) in this same event, reading the list as still open.
      if (event.key === 'Enter' && !event.nativeEvent.isComposing) setOpened(false);
    },
    openOnType: (search: string) => {
      if (search.trim() !== '') setOpened(true);
    },
  };
}

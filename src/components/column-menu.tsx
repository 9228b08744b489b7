/** A "Columns" button listing the table's optional columns with checkboxes to show or hide them (issue 5). */
import { Button, Checkbox, Popover, Stack } from '@mantine/core';
import { useT } from '@/i18n/react';

/** `label`: the column's name in the language shown (the caller translates it). */
export type ColumnChoice = { id: string; label: string };

export function ColumnMenu({ columns, hidden, onChange }: { columns: ColumnChoice[]; hidden: string[]; onChange: (hidden: string[]) => void }) {
  const t = useT();
  return (
    <Popover position="bottom-end" shadow="md">
      <Popover.Target>
        <Button variant="default" size="xs">
          {t('lists.columns')}
        </Button>
      </Popover.Target>
      {/* Named by its button ("Columns"): Mantine labels the pop-up by its target. */}
      <Popover.Dropdown>
        <Stack gap="xs">
          {columns.map((column) => (
            <Checkbox
              key={column.id}
              label={column.label}
              checked={!hidden.includes(column.id)}
              onChange={(event) => onChange(event.currentTarget.checked ? hidden.filter((id) => id !== column.id) : [...hidden, column.id])}
            />
          ))}
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}

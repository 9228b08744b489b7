/**
 * A list's filters on a phone (issue 23 point 6): below 48em they fold behind a "Filters" button (saying when a
 * filter is in use), so the first records show within the first screen; on wider screens the button is hidden and
 * the filters always show (filter-sheet.module.css). `active`: a filter is set. Small on purpose: the lists are
 * first screens with byte budgets (scripts/first-screens.json).
 */
import { Button } from '@mantine/core';
import { type ReactNode, useId, useState } from 'react';
import { useT } from '@/i18n/react';
import classes from './filter-sheet.module.css';

export function FilterSheet({ active = false, children }: { active?: boolean; children: ReactNode }) {
  const t = useT();
  const [open, setOpen] = useState(false);
  const id = useId();
  return (
    <div className={classes.sheet} data-open={open || undefined}>
      <Button variant={active ? 'light' : 'default'} className={classes.toggle} aria-expanded={open} aria-controls={id} onClick={() => setOpen((was) => !was)}>
        {t(active ? 'common.filtersInUse' : 'common.filters')}
      </Button>
      <div id={id} className={classes.body}>
        {children}
      </div>
    </div>
  );
}

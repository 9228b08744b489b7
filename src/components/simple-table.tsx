/**
 * A plain, styled `<table>` for the console's tables. Mantine's Table pulls in ScrollArea and with it the
 * popover library (about 15 KB gzip) even when nothing floats, so first screens use this instead.
 *
 * `cards`: on a phone (below 48em, issue 23 point 6) each row shows as a compact card, its cells one under the
 * other, each `td` labelled by its `data-label` (the column's name), so no column needs sideways scrolling and no
 * control is dropped; a cell with `data-card-hidden` (a decorative one) is left out there.
 */
import type { ComponentProps } from 'react';
import classes from './simple-table.module.css';

type Props = ComponentProps<'table'> & { striped?: boolean; compact?: boolean; cards?: boolean };

export function SimpleTable({ striped, compact, cards, className, ...props }: Props) {
  const names = [classes.table, striped ? classes.striped : '', compact ? classes.compact : '', cards ? classes.cards : '', className ?? ''].filter(Boolean).join(' ');
  return (
    <div className={classes.scroll}>
      <table className={names} {...props} />
    </div>
  );
}

/**
 * A plain, styled `<table>` for the console's tables. Mantine's Table pulls in ScrollArea and with it the
 * popover library (about 15 KB gzip) even when nothing floats, so first screens use this instead.
 */
import type { ComponentProps } from 'react';
import classes from './simple-table.module.css';

type Props = ComponentProps<'table'> & { striped?: boolean; compact?: boolean };

export function SimpleTable({ striped, compact, className, ...props }: Props) {
  const names = [classes.table, striped ? classes.striped : '', compact ? classes.compact : '', className ?? ''].filter(Boolean).join(' ');
  return (
    <div className={classes.scroll}>
      <table className={names} {...props} />
    </div>
  );
}

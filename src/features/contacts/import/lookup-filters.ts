/**
 * The `field in (...)` filters that find existing contacts by email or phone (issue 20 point 3), within the limits of
 * one `$filter` (docs/decisions.md section 6). Framework-free and light: the plan's worker cuts its look-ups with it,
 * and the import's last step (contact-steps.ts `tagExistingHandler`) looks up the contacts a batch found existing
 * without naming them.
 */
import { type FilterNode, inList } from '@/api/filter/ast';
import { FILTER_LIMITS as CONTRACT_LIMITS } from '@/api/filter/limits';
import { printFilter, printFilterValue } from '@/api/filter/print';

/** docs/decisions.md section 6 limits on one `$filter` that a look-up meets: values in its `in`, characters of its text. */
export const FILTER_LIMITS = { maxValues: CONTRACT_LIMITS.maxInValues, maxChars: CONTRACT_LIMITS.maxLength } as const;

/**
 * `field in (...)` filters covering `values` (duplicates dropped), each within 100 values and 2,000 characters of
 * printed text (docs/decisions.md section 6), printed by the shared printer (src/api/filter/print.ts). A value too long to
 * fit a filter on its own is left out (no valid email or E.164 phone is).
 */
export function lookupFilters(field: 'email' | 'phone', values: Iterable<string>): FilterNode[] {
  const filters: FilterNode[] = [];
  const batcher = new LookupBatcher(field, (filter) => filters.push(filter));
  for (const value of values) batcher.add(value);
  batcher.flush();
  return filters;
}

/**
 * Cuts the values of one field into `field in (...)` filters as they come (`lookupFilters`' rules: duplicates
 * dropped, 100 values and 2,000 characters at most, a value too long for a filter of its own left out): `add` hands
 * each filter to `emit` once it is full, `flush` the last one. `unique: true` says the caller adds each value once
 * (`RowMerger.takeKeys`), so no set of the values seen is kept (170,000 keys of a 100,000-row file).
 */
export class LookupBatcher {
  private batch: string[] = [];
  private readonly seen: Set<string> | null;
  /** `email in ()`: the printed filter without its values. */
  private readonly overhead: number;
  private length: number;

  constructor(
    private readonly field: 'email' | 'phone',
    private readonly emit: (filter: FilterNode) => void,
    options: { unique?: boolean } = {},
  ) {
    this.seen = options.unique ? null : new Set();
    this.overhead = printFilter(inList(field, [''])).length - 2; // without the empty value's quotes
    this.length = this.overhead;
  }

  add(value: string): void {
    if (this.seen?.has(value)) return;
    this.seen?.add(value);
    const printed = printFilterValue(value).length + 2; // the value as the printer writes it, and `, `
    if (this.overhead + printed > FILTER_LIMITS.maxChars) return;
    if (this.batch.length && (this.batch.length >= FILTER_LIMITS.maxValues || this.length + printed > FILTER_LIMITS.maxChars)) this.flush();
    this.batch.push(value);
    this.length += printed;
  }

  flush(): void {
    if (this.batch.length) this.emit(inList(this.field, this.batch));
    this.batch = [];
    this.length = this.overhead;
  }
}

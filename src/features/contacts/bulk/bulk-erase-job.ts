/**
 * The bulk erasure job (issue 22 point 7; `DELETE /contacts/{id}`, our extension `contact-erasure`, docs/decisions.md
 * section 10), framework-free so it is unit-tested. Three parts:
 *
 * 1. Find (`collectErasureIds`, in the dialog, after the person typed the count and before anything is erased):
 *    the ids of every contact a filter matches, walked as bulk tags walks them (bulk-tag-job.ts: `created asc`, 100
 *    a page, a 429 waited out). All ids are found before the first erasure, so the job's own erasures never shift
 *    the walk's offsets. Another erasure running meanwhile (a job, a person) can shift them: when the matching count
 *    changed during a walk, the filter is walked again and what the first walk skipped is added, up to 3 walks.
 * 2. Plan (`bulkEraseSpec`): one `erase-contact` step per id, and nothing else: no name, no email, no filter
 *    (a filter can hold an email); the IndexedDB record keeps ids only.
 * 3. Estimate (`erasureEstimate`): the requests it sends and their time at the job's share of the key's rate limit
 *    (the limit less the person's reserve, src/api/rate-budget.ts), as the import's plan states it.
 */
import type { FilterNode } from '@/api/filter/ast';
import type { JobSpec } from '@/lib/jobs/job-types';
import type { ContactJobKind } from '../contact-jobs';
import type { EraseContactStep } from '../contact-steps';
import { type CollectOptions, type CollectProgress, collectBulkTargets } from './bulk-tag-job';

/** Walks of a filter at most, while its matching count changes under the walk. */
const MAX_WALKS = 3;
/** Contacts a page of the walk reads. */
const PAGE = 100;

/**
 * The ids of every contact `filter` matches (see the module's comment), each once, in the walk's order. Rejects with
 * the AbortError when `signal` aborts, and with the walk's `ApiError` when a page cannot be read.
 */
export async function collectErasureIds(options: Omit<CollectOptions, 'source'> & { filter: FilterNode | undefined }): Promise<string[]> {
  const { filter, onProgress, ...rest } = options;
  const ids = new Set<string>();
  for (let walk = 0; walk < MAX_WALKS; walk++) {
    const found = await collectBulkTargets({
      ...rest,
      source: { filter },
      ...(onProgress ? { onProgress: (progress: CollectProgress) => onProgress({ ...progress, done: Math.max(progress.done, walk ? ids.size : 0) }) } : {}),
    });
    for (const target of found.targets) ids.add(target.id);
    if (!found.changed) break;
  }
  return [...ids];
}

/** The durable job of an erasure of `ids` (kind `bulk-erase`), titled `title`: ids only (issue 22 point 7). */
export function bulkEraseSpec(ids: readonly string[], source: 'selection' | 'filter'): JobSpec<EraseContactStep> {
  const unique = [...new Set(ids)];
  return { kind: 'bulk-erase' satisfies ContactJobKind, steps: unique.map((contactId) => ({ kind: 'erase-contact', contactId })), meta: { source, requested: unique.length } };
}

/**
 * What erasing `count` contacts costs: `requests` (one `DELETE` each, plus one `GET` per 100 to find a filter's
 * contacts), and `minutes` at `perMinute`, the job's share of the key's `limit` a minute (the limit less the
 * person's `reserve`, a share 0..0.9); `minutes` and `perMinute` are null when the service announces no limit.
 */
export function erasureEstimate(count: number, fromFilter: boolean, limit: number | null, reserve: number): { requests: number; lookups: number; minutes: number | null; perMinute: number | null } {
  const lookups = fromFilter ? Math.max(1, Math.ceil(count / PAGE)) : 0;
  if (!limit || limit <= 0) return { requests: count, lookups, minutes: null, perMinute: null };
  const perMinute = Math.max(1, Math.floor(limit * (1 - reserve)));
  return { requests: count, lookups, minutes: count / perMinute + lookups / limit, perMinute };
}

/** True when `typed` is the number `count`, written with or without group separators (`1,234`, `1 234`, `1234`). */
export function typedCountMatches(typed: string, count: number): boolean {
  const digits = typed.replace(/[\s,.'\u00a0\u202f]/g, '');
  return /^\d+$/.test(digits) && Number(digits) === count;
}

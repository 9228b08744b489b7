/**
 * The bulk tag job (issues 13 and 20), framework-free so it is unit-tested. Two parts:
 *
 * 1. Collect (`collectBulkTargets`, in the dialog, before anything changes): every contact of the source, walked
 *    page by page with the typed client, so a filter the job itself changes (removing the tag that was the filter)
 *    still reaches every contact that matched when it started. A filter is walked in `created asc` order (then
 *    `id`, docs/decisions.md section 6), 100 a page, so contacts created meanwhile land after the walk's end instead of
 *    shifting its pages; selected ids are read as `id in (...)`, 100 at a time (the `in` limit), and ids no longer
 *    found are reported as missing. A 429 waits for its `Retry-After` (without one: 1 s doubling to 60 s,
 *    throttle.ts; `waitingUntil` in the progress) and tries again; cancelling (`signal`) abandons the walk.
 * 2. Plan (`bulkTagSpec`): one `patch-tags` step per collected contact that the change alters, listing only the
 *    tags that change it (a tag to add it lacks, a tag to remove it has), so the job's undo is the exact inverse;
 *    a contact already as asked is reported unchanged and not sent (the service would change nothing,
 *    docs/decisions.md section 7, and the request would only spend the rate limit). The steps run on the durable job
 *    runner (src/lib/jobs/), in the background: a reload or a closed tab resumes them.
 *
 * Where the service names `contact-batch` (docs/decisions.md section 12; issue 35 point 8) neither part is needed:
 * `bulkTagRequestSpec` makes a job of one `tag-contacts` step over the filter (one `POST /contacts/tags`), or one
 * step per 1,000 chosen ids; the service finds the contacts, changes those the change alters and answers how many
 * it matched and changed. Undo is the job's, as for any job (the activity log's batch, the Jobs page).
 */
import { isAbortError, isApiError } from '@/api/api-error';
import type { ContactList } from '@/api/client';
import type { Contact } from '@/api/contacts';
import { type FilterNode, compare, inList } from '@/api/filter/ast';
import { printFilter } from '@/api/filter/print';
import type { OrderByItem } from '@/api/filter/order-by';
import { paginate } from '@/api/paginate';
import type { RequestPriority } from '@/api/rate-budget';
import type { JobSpec } from '@/lib/jobs/job-types';
import type { ContactJobKind } from '../contact-jobs';
import type { ContactStep } from '../contact-steps';
import { sleepUnlessAborted } from '@/lib/run-pool';
import { backoffSeconds } from '@/lib/throttle';

/** Where the contacts come from: everything a filter matches (undefined: the whole workspace), or chosen ids. */
export type BulkSource = { filter: FilterNode | undefined } | { ids: readonly string[] };

/** The part of the typed client the walk uses (`ApiClient.listContacts`). */
export type BulkClient = {
  listContacts(params: { offset: number; limit: number; filter?: FilterNode | undefined; orderBy?: OrderByItem[]; signal?: AbortSignal; priority?: RequestPriority }): Promise<ContactList>;
};

/** A collected contact: its id, a label for the report (name, email, phone or id), and its tags when collected. */
export type BulkTarget = { id: string; label: string; tags: readonly string[] };

/** The tags to add and to remove, as the person chose them. */
export type TagChange = { tagsToAdd: readonly string[]; tagsToRemove: readonly string[] };

/**
 * Progress of the walk: `done` contacts found of `total` (`meta.maxResults` of the walk, or the ids chosen);
 * `waitingUntil` is the epoch ms a 429 pause lasts until (null when not paused).
 */
export type CollectProgress = { done: number; total: number; waitingUntil: number | null };

/**
 * The walk's result: the contacts found (each once), and how many chosen ids no longer exist. `changed`: a filter's
 * `meta.maxResults` differed between pages, so contacts were added or removed during the walk and its offsets may
 * have shifted (a contact skipped); walking again finds what was skipped (bulk erasure does, bulk-erase-job.ts).
 */
export type Collected = { targets: BulkTarget[]; missing: number; changed?: boolean };

export type CollectOptions = {
  client: BulkClient;
  source: BulkSource;
  /** Tries of one request answered 429 before the walk fails; default 20. */
  maxRetries?: number;
  signal?: AbortSignal;
  onProgress?: (progress: CollectProgress) => void;
  /** For tests: the wait between 429 retries (default: a timer that an abort ends early). */
  sleep?: (ms: number) => Promise<void>;
};

const PAGE = 100;
const WALK_ORDER: OrderByItem[] = [{ field: 'created', direction: 'asc' }];

/** A contact's label in the report. */
export function contactLabel(contact: Pick<Contact, 'id' | 'name' | 'email' | 'phone'>): string {
  return contact.name || contact.email || contact.phone || contact.id;
}

/** The part of `change` that alters a contact with `tags`: tags to add it lacks, tags to remove it has (docs/decisions.md section 7). */
export function effectiveChange(tags: readonly string[], change: TagChange): { tagsToAdd: string[]; tagsToRemove: string[] } {
  return { tagsToAdd: change.tagsToAdd.filter((tag) => !tags.includes(tag)), tagsToRemove: change.tagsToRemove.filter((tag) => tags.includes(tag)) };
}

/** True when adding `tagsToAdd` and removing `tagsToRemove` would alter `tags`. */
export function wouldChange(tags: readonly string[], change: TagChange): boolean {
  const effective = effectiveChange(tags, change);
  return effective.tagsToAdd.length > 0 || effective.tagsToRemove.length > 0;
}

/**
 * Walks the source (see the module's comment) with priority `person` (the person waits for it in the dialog).
 * Rejects with the AbortError when `signal` aborts, and with the walk's `ApiError` when a page cannot be read.
 */
export async function collectBulkTargets(options: CollectOptions): Promise<Collected> {
  const { client, source, signal, onProgress, maxRetries = 20 } = options;
  const sleep = options.sleep ?? ((ms: number) => sleepUnlessAborted(ms, signal));
  let progress: CollectProgress = { done: 0, total: 'ids' in source ? source.ids.length : 0, waitingUntil: null };
  const report = (patch: Partial<CollectProgress>) => {
    progress = { ...progress, ...patch };
    onProgress?.(progress);
  };
  report({});

  /** `call`, tried again after each 429's Retry-After (the progress shows the pause). */
  const patiently = async <T>(call: () => Promise<T>): Promise<T> => {
    for (let attempt = 0; ; attempt++) {
      try {
        const value = await call();
        if (progress.waitingUntil) report({ waitingUntil: null });
        return value;
      } catch (error) {
        if (!(isApiError(error) && error.status === 429 && attempt < maxRetries)) throw error;
        const until = Date.now() + (error.retryAfter ?? backoffSeconds(attempt)) * 1000;
        report({ waitingUntil: until });
        await sleep(until - Date.now());
        signal?.throwIfAborted();
      }
    }
  };

  const targets = new Map<string, BulkTarget>();
  const keep = (contact: Contact) => {
    if (!targets.has(contact.id)) targets.set(contact.id, { id: contact.id, label: contactLabel(contact), tags: contact.tags });
  };
  signal?.throwIfAborted();
  if ('ids' in source) {
    const ids = [...new Set(source.ids)];
    for (let start = 0; start < ids.length; start += PAGE) {
      const chunk = ids.slice(start, start + PAGE);
      const page = await patiently(() => client.listContacts({ offset: 0, limit: PAGE, filter: inList('id', chunk), signal, priority: 'person' }));
      page.items.forEach(keep);
      report({ done: Math.min(ids.length, start + chunk.length) });
    }
    return { targets: [...targets.values()], missing: ids.length - targets.size };
  }
  let firstTotal: number | null = null;
  let changed = false;
  const walk = paginate(
    (page) =>
      patiently(async () => {
        const answer = await client.listContacts({ ...page, filter: source.filter, orderBy: WALK_ORDER, priority: 'person' });
        firstTotal ??= answer.meta.maxResults;
        if (answer.meta.maxResults !== firstTotal) changed = true;
        report({ total: answer.meta.maxResults });
        return answer;
      }),
    { pageSize: PAGE, signal },
  );
  for await (const contact of walk) {
    keep(contact);
    if (targets.size % PAGE === 0) report({ done: targets.size });
  }
  if (signal?.aborted) throw signal.reason ?? new DOMException('The walk was cancelled', 'AbortError');
  report({ done: targets.size, total: Math.max(progress.total, targets.size) });
  return { targets: [...targets.values()], missing: 0, changed };
}

/** True for the error a cancelled walk rejects with. */
export function isCancelled(error: unknown): boolean {
  return isAbortError(error);
}

/**
 * The durable job of a bulk tag change (kind `bulk-tags`): one `patch-tags` step per target the change alters,
 * with only the tags that alter it; the others in `report.unchangedRecords`; `meta` keeps the change as asked.
 */
export function bulkTagSpec(collected: Collected, change: TagChange): JobSpec<ContactStep> {
  const steps: ContactStep[] = [];
  const unchangedRecords: { id: string; label: string }[] = [];
  for (const target of collected.targets) {
    const effective = effectiveChange(target.tags, change);
    if (!effective.tagsToAdd.length && !effective.tagsToRemove.length) unchangedRecords.push({ id: target.id, label: target.label });
    else steps.push({ kind: 'patch-tags', contactId: target.id, ...effective, label: target.label });
  }
  return {
    kind: 'bulk-tags' satisfies ContactJobKind,
    steps,
    report: { unchangedRecords },
    meta: { tagsToAdd: [...change.tagsToAdd], tagsToRemove: [...change.tagsToRemove], matched: collected.targets.length, missing: collected.missing },
  };
}

/** Ids in one `POST /contacts/tags` (docs/decisions.md section 12). */
export const TAG_REQUEST_IDS = 1000;

/**
 * The durable job of a bulk tag change in requests of our service (kind `bulk-tags`, see the module's comment):
 * one `tag-contacts` step with the filter's text (the whole workspace: `id ne ''`, which every contact matches,
 * since the route takes exactly one of a filter and ids), or one per `TAG_REQUEST_IDS` chosen ids. `matched`: the
 * contacts the person chose (the filter's count as shown), which the job's title names ("Add vip on 45 contacts")
 * since its steps are not one per contact; the distinct ids where left out for ids.
 * @throws RangeError from `printFilter` for a tree that cannot be printed.
 */
export function bulkTagRequestSpec(source: BulkSource, change: TagChange, matched?: number): JobSpec<ContactStep> {
  const tags = { tagsToAdd: [...change.tagsToAdd], tagsToRemove: [...change.tagsToRemove] };
  const steps: ContactStep[] = [];
  let count = matched;
  if ('ids' in source) {
    const ids = [...new Set(source.ids)];
    count ??= ids.length;
    for (let start = 0; start < ids.length; start += TAG_REQUEST_IDS) steps.push({ kind: 'tag-contacts', ids: ids.slice(start, start + TAG_REQUEST_IDS), ...tags });
  } else steps.push({ kind: 'tag-contacts', filter: printFilter(source.filter ?? compare('id', 'ne', '')), ...tags });
  return { kind: 'bulk-tags' satisfies ContactJobKind, steps, meta: { ...tags, inOneRequest: true, ...(count !== undefined ? { matched: count } : {}) } };
}

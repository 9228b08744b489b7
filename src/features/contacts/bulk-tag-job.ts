/**
 * The bulk tag job (issue 13, "Work on every matching contact"), framework-free so it is unit-tested:
 *
 * 1. Collect: every contact of the source, walked page by page with the typed client before anything changes, so a
 *    filter the job itself changes (removing the tag that was the filter) still reaches every contact that matched
 *    when it started. A filter is walked in `created asc` order (then `id`, decisions.md section 6), 100 a page,
 *    so contacts created meanwhile land after the walk's end instead of shifting its pages; selected ids are read
 *    as `id in (...)`, 100 at a time (the `in` limit), and ids no longer found are reported as missing.
 * 2. Tag: one `PATCH /contacts/{id}/tags` with the same `tagsToAdd`/`tagsToRemove` for each collected contact that
 *    the change alters, 4 at a time (`runPool`). A contact that already is as asked (every tag to add present,
 *    none to remove present, when collected) is counted unchanged and not sent: the service would change nothing
 *    (decisions.md section 7) and the request would only spend the rate limit.
 *
 * A 429 in either phase pauses the job until its `Retry-After` (without one: 1 s doubling to 60 s, throttle.ts;
 * `waitingUntil` in the progress) and tries again;
 * cancelling (`signal`) stops at once: the walk is abandoned (nothing changed), or no new PATCH starts and those
 * already sent finish and are counted. Other failures of a PATCH are recorded with a sentence (error-sentence.ts)
 * and the job goes on; a failure of the walk ends the job (it cannot know which contacts matched): it rejects.
 */
import { isAbortError, isApiError } from '@/api/api-error';
import type { ContactList } from '@/api/client';
import type { Contact, ContactTagsPatch } from '@/api/contacts';
import { type FilterNode, inList } from '@/api/filter/ast';
import type { OrderByItem } from '@/api/filter/order-by';
import { paginate } from '@/api/paginate';
import { runPool, sleepUnlessAborted } from '@/lib/run-pool';
import { backoffSeconds } from '@/lib/throttle';

/** Where the contacts come from: everything a filter matches (undefined: the whole workspace), or chosen ids. */
export type BulkSource = { filter: FilterNode | undefined } | { ids: readonly string[] };

/** The part of the typed client the job uses (`ApiClient.listContacts`, `ApiClient.patchContactTags`). */
export type BulkClient = {
  listContacts(params: { offset: number; limit: number; filter?: FilterNode | undefined; orderBy?: OrderByItem[]; signal?: AbortSignal }): Promise<ContactList>;
  patchContactTags(contactId: string, body: ContactTagsPatch): Promise<void>;
};

/** A collected contact: its id, a label for the summary (name, email, phone or id), and its tags when collected. */
export type BulkTarget = { id: string; label: string; tags: readonly string[] };

export type BulkPhase = 'collecting' | 'tagging';

/**
 * Progress: in `collecting`, `done` contacts found of `total` (`meta.maxResults` of the walk, or the ids chosen);
 * in `tagging`, `done` contacts handled (sent, or counted unchanged) of `total` collected. `waitingUntil` is the
 * epoch ms a 429 pause lasts until (null when not paused); `startedAt` when the phase began (epoch ms).
 */
export type BulkProgress = { phase: BulkPhase; done: number; total: number; failed: number; waitingUntil: number | null; startedAt: number };

/** One contact the service refused, with the reason as a sentence. */
export type BulkFailure = { id: string; label: string; reason: string; error: unknown };

/**
 * How the job ended: `matched` contacts collected; `changed` (a PATCH answered 2xx), `unchanged` (already as
 * asked), `failures`; `missing` chosen ids that no longer exist; `cancelled`, and then `notReached`: collected
 * contacts neither sent nor counted.
 */
export type BulkResult = { matched: number; changed: number; unchanged: number; failures: BulkFailure[]; missing: number; cancelled: boolean; notReached: number };

export type BulkJobOptions = {
  client: BulkClient;
  source: BulkSource;
  change: { tagsToAdd: readonly string[]; tagsToRemove: readonly string[] };
  concurrency?: number;
  /** Tries of one request answered 429 before it counts as failed; default 20 (a long job pauses often at 60 a minute). */
  maxRetries?: number;
  signal?: AbortSignal;
  onProgress?: (progress: BulkProgress) => void;
  /** For tests: the wait between 429 retries (default: a timer that an abort ends early). */
  sleep?: (ms: number) => Promise<void>;
};

const PAGE = 100;
const WALK_ORDER: OrderByItem[] = [{ field: 'created', direction: 'asc' }];

/** A contact's label in the summary. */
export function contactLabel(contact: Pick<Contact, 'id' | 'name' | 'email' | 'phone'>): string {
  return contact.name || contact.email || contact.phone || contact.id;
}

/** True when adding `tagsToAdd` and removing `tagsToRemove` would alter `tags` (the service's rule, decisions.md section 7). */
export function wouldChange(tags: readonly string[], change: BulkJobOptions['change']): boolean {
  return change.tagsToAdd.some((tag) => !tags.includes(tag)) || change.tagsToRemove.some((tag) => tags.includes(tag));
}

/**
 * Contacts per second over the phase so far (pauses included, so it is what the job really achieves) and the
 * seconds left at that rate; nulls until a second has passed and one contact is done.
 */
export function rateOf(progress: Pick<BulkProgress, 'done' | 'total' | 'startedAt'>, now = Date.now()): { perSecond: number | null; secondsLeft: number | null } {
  const elapsed = (now - progress.startedAt) / 1000;
  if (elapsed < 1 || progress.done < 1) return { perSecond: null, secondsLeft: null };
  const perSecond = progress.done / elapsed;
  return { perSecond, secondsLeft: Math.max(0, (progress.total - progress.done) / perSecond) };
}

/** Runs the job; see the module's comment. Rejects with the walk's error (an `ApiError`) when collecting fails. */
export async function runBulkTagJob(options: BulkJobOptions): Promise<BulkResult> {
  const { client, source, change, signal, onProgress, concurrency = 4, maxRetries = 20 } = options;
  const sleep = options.sleep ?? ((ms: number) => sleepUnlessAborted(ms, signal));
  let progress: BulkProgress = { phase: 'collecting', done: 0, total: 'ids' in source ? source.ids.length : 0, failed: 0, waitingUntil: null, startedAt: Date.now() };
  const report = (patch: Partial<BulkProgress>) => {
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

  // 1. Collect.
  const targets = new Map<string, BulkTarget>();
  const keep = (contact: Contact) => {
    if (!targets.has(contact.id)) targets.set(contact.id, { id: contact.id, label: contactLabel(contact), tags: contact.tags });
  };
  const cancelledEarly = (): BulkResult => ({ matched: targets.size, changed: 0, unchanged: 0, failures: [], missing: 0, cancelled: true, notReached: targets.size });
  try {
    if ('ids' in source) {
      const ids = [...new Set(source.ids)];
      for (let start = 0; start < ids.length; start += PAGE) {
        const chunk = ids.slice(start, start + PAGE);
        const page = await patiently(() => client.listContacts({ offset: 0, limit: PAGE, filter: inList('id', chunk), signal }));
        page.items.forEach(keep);
        report({ done: Math.min(ids.length, start + chunk.length) });
      }
    } else {
      const walk = paginate(
        (page) =>
          patiently(async () => {
            const answer = await client.listContacts({ ...page, filter: source.filter, orderBy: WALK_ORDER });
            report({ total: answer.meta.maxResults });
            return answer;
          }),
        { pageSize: PAGE, signal },
      );
      for await (const contact of walk) {
        keep(contact);
        if (targets.size % PAGE === 0) report({ done: targets.size });
      }
      report({ done: targets.size, total: Math.max(progress.total, targets.size) });
    }
  } catch (error) {
    if (signal?.aborted || isAbortError(error)) return cancelledEarly();
    throw error;
  }
  const missing = 'ids' in source ? new Set(source.ids).size - targets.size : 0;

  // 2. Tag.
  const all = [...targets.values()];
  const needed = all.filter((target) => wouldChange(target.tags, change));
  const unchanged = all.length - needed.length;
  report({ phase: 'tagging', done: unchanged, total: all.length, failed: 0, waitingUntil: null, startedAt: Date.now() });
  const body: ContactTagsPatch = {
    ...(change.tagsToAdd.length ? { tagsToAdd: [...change.tagsToAdd] } : {}),
    ...(change.tagsToRemove.length ? { tagsToRemove: [...change.tagsToRemove] } : {}),
  };
  const outcome = await runPool(needed, (target) => client.patchContactTags(target.id, body).then(() => true), {
    concurrency,
    maxRetries,
    signal,
    ...(options.sleep ? { sleep: options.sleep } : {}),
    onProgress: (pool) => report({ done: unchanged + pool.done, failed: pool.failed, waitingUntil: pool.waitingUntil }),
  });
  const failures = outcome.failures.map((failure) => ({ id: failure.item.id, label: failure.item.label, reason: failure.reason, error: failure.error }));
  const changed = outcome.results.filter(Boolean).length;
  return {
    matched: all.length,
    changed,
    unchanged,
    failures,
    missing,
    cancelled: outcome.aborted,
    notReached: needed.length - changed - failures.length,
  };
}

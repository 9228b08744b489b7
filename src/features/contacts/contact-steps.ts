/**
 * The contacts feature's step kinds (issue 38 point 4): their shapes and their handlers in the job engine's table
 * (src/lib/jobs/step-kinds.ts), registered by src/app/kinds.ts. The import sends `create-contact`, `tag-existing`,
 * `create-contacts` and `patch-tags` steps, the bulk tag job `patch-tags` or `tag-contacts`, the bulk erasure
 * `erase-contact`, and an undo job the inverse `patch-tags` (docs/jobs.md).
 *
 * What each kind does when it runs (the engine's rules on retries, 429 and refused keys: src/lib/jobs/step-runner.ts):
 * - `create-contact`: `POST /contacts`. An answer lost (`lost`) is looked up first (`email eq` or `phone eq`, one
 *   `GET /contacts`), since a hosted service may ignore the Idempotency-Key; found, it counts as created
 *   (`recovered`), else it is sent again with the same key. A 409 is "exists" (the contact's id looked up), except the
 *   service's "in progress" answer to a repeated Idempotency-Key, which the engine waits on.
 * - `create-contacts`: up to 1,000 creates in one `POST /contacts/batch` (extension `contact-batch`, docs/decisions.md
 *   section 12), one request with the step's Idempotency-Key: lost, it is sent again with the same key and the service
 *   replays its first answer; its items' outcomes are stored together as the step's (`batch`).
 * - `tag-contacts`: a filter, or up to 1,000 ids, in one `POST /contacts/tags` (section 12), sent again with its key
 *   when lost; it counts the contacts it `changed`.
 * - `tag-existing`: an import's last step in batches, sent once every batch has settled: the contacts the batches
 *   found existing get the file's tags in a few `POST /contacts/tags` by ids (`tagExistingHandler`).
 * - `patch-tags`: `PATCH /contacts/{id}/tags`, safe to repeat. It should list only the tags that change the contact
 *   (a tag it already has is not in `tagsToAdd`, one it lacks not in `tagsToRemove`): its undo is then the exact
 *   inverse.
 * - `erase-contact`: `DELETE /contacts/{id}` (section 10), safe to repeat, with no Idempotency-Key (section 9 covers
 *   POST and PATCH only). A 404 is checked with one look-up by id: not found, the contact is gone and the step counts
 *   as erased ("already erased": a repeat whose first answer was lost, or someone else erased it); still listed, the
 *   service did not erase it (a service without the route) and the step fails. Only the id is kept: no name, no email
 *   (issue 22 point 7).
 */
import { ApiError, isApiError } from '@/api/api-error';
import type { ContactCreate, ContactTagsPatch } from '@/api/contacts';
import { type FilterNode, compare, or } from '@/api/filter/ast';
import type { ContactBatchResponse, ContactBulkTags } from '@/api/stats';
import { loadAreaSettled, t } from '@/i18n/i18n';
import { errorSentence, loadErrorSentences } from '@/lib/error-sentence';
import type { ItemOutcome, TaggedRecord } from '@/lib/jobs/job-types';
import { type StepContext, type StepHandler, repeatInProgress } from '@/lib/jobs/step-kinds';
import { emailKey, emptyExisting, indexExisting, updatedTag } from './import/existing';
import { FILTER_LIMITS, lookupFilters } from './import/lookup-filters';

/** Creates one contact (`POST /contacts`). */
export type CreateContactStep = { kind: 'create-contact'; body: ContactCreate; rows?: number[]; label?: string };
/** One contact of a `create-contacts` step: the create body and the 1-based data rows of the file it stands for. */
export type BatchItem = { body: ContactCreate; rows?: number[] };
/**
 * Creates up to 1,000 contacts in one `POST /contacts/batch`: one step, one Idempotency-Key. `tagsAfter`: the job's
 * `tag-existing` step tags the items found existing, and its report rows name them (this step's leave them out).
 */
export type CreateContactsStep = { kind: 'create-contacts'; items: BatchItem[]; tagsAfter?: true };
/** Tags every contact a `filter` (printed `$filter` text) matches, or up to 1,000 `ids`: exactly one of the two. */
export type TagContactsStep = { kind: 'tag-contacts'; filter?: string; ids?: string[]; tagsToAdd: string[]; tagsToRemove: string[] };
/**
 * The last step of an import sent in batches: adds the file's tags to the contacts its `create-contacts` steps found
 * existing (409), the import's own tag as `updatedTag(importTag)` (issue 34 point 1). See `tagExistingHandler`.
 */
export type TagExistingStep = { kind: 'tag-existing'; importTag?: string };
/** Adds and removes tags of one contact. */
export type PatchTagsStep = { kind: 'patch-tags'; contactId: string; tagsToAdd: string[]; tagsToRemove: string[]; rows?: number[]; label?: string };
/** Erases one contact: only its id. */
export type EraseContactStep = { kind: 'erase-contact'; contactId: string };

/** Every step the contacts feature puts in a job. */
export type ContactStep = CreateContactStep | CreateContactsStep | TagContactsStep | TagExistingStep | PatchTagsStep | EraseContactStep;

/** The `$filter` that finds the contact a create would make: same email, or same phone. Null without either. */
export function lookupFilter(body: ContactCreate): FilterNode | null {
  const email = typeof body.email === 'string' && body.email.trim() ? compare('email', 'eq', body.email.trim()) : undefined;
  const phone = typeof body.phone === 'string' && body.phone.trim() ? compare('phone', 'eq', body.phone.replace(/[\s()-]/g, '')) : undefined;
  return or(email, phone) ?? null;
}

/**
 * The outcomes of a `create-contacts` step's items from `POST /contacts/batch`'s `results` (docs/decisions.md
 * section 12): 201 is `created`, 409 `exists` with the id of the contact that holds the email or phone where the
 * service names it (our service does; else null, and `tag-existing` looks it up), anything else `failed` with the
 * item's error body as a sentence, as a refusal of `POST /contacts` reads.
 * An item the answer leaves out fails with status 0.
 */
export async function itemOutcomes(answer: ContactBatchResponse, count: number): Promise<ItemOutcome[]> {
  await loadErrorSentences();
  const byIndex = new Map(answer.results.map((result) => [result.index, result]));
  return Array.from({ length: count }, (_, index): ItemOutcome => {
    const result = byIndex.get(index);
    if (result?.status === 201 && result.id) return { kind: 'created', id: result.id };
    const status = result?.status ?? 0;
    const error = new ApiError({
      status,
      message: result?.error?.message ?? `no result for item ${index}`,
      body: result?.error ?? null,
      endpoint: 'POST /contacts/batch',
      url: '/contacts/batch',
    });
    if (status === 409) return { kind: 'exists', id: result?.id ?? null, reason: errorSentence(error) };
    return { kind: 'failed', status, reason: errorSentence(error) };
  });
}

const rowsText = (rows: number[] | undefined) => (rows ?? []).join(' ');

/** Only the tags that change, so a contact's patch leaves out an empty list. */
const tagChange = (step: { tagsToAdd: string[]; tagsToRemove: string[] }) => ({
  ...(step.tagsToAdd.length ? { tagsToAdd: step.tagsToAdd } : {}),
  ...(step.tagsToRemove.length ? { tagsToRemove: step.tagsToRemove } : {}),
});

const describeCreate = (step: CreateContactStep) => {
  const { name, email, phone, tags } = step.body;
  return { rows: rowsText(step.rows), name: name ?? '', email: email ?? '', phone: phone ?? '', tags: (tags ?? []).join(', ') };
};

export const createContactHandler: StepHandler<CreateContactStep> = {
  kind: 'create-contact',
  async send(step, { client, call, lookUp, lost }) {
    const find = async (): Promise<string | null> => {
      const filter = lookupFilter(step.body);
      if (!filter) return null;
      return (await client.listContacts({ filter, limit: 1, ...lookUp })).items[0]?.id ?? null;
    };
    if (lost) {
      const id = await find();
      if (id) return { kind: 'created', id, recovered: true };
    }
    try {
      return { kind: 'created', id: (await client.createContact(step.body, call)).id };
    } catch (error) {
      if (!(isApiError(error) && error.status === 409) || repeatInProgress(error)) throw error;
      const id = await find();
      await loadErrorSentences();
      return { kind: 'exists', id, reason: errorSentence(error) };
    }
  },
  describe: describeCreate,
};

export const createContactsHandler: StepHandler<CreateContactsStep> = {
  kind: 'create-contacts',
  async send(step, { client, call }) {
    // One request for the whole batch, with the step's own Idempotency-Key: a lost answer is sent again with the
    // same key and the service answers the first answer again (docs/decisions.md sections 9 and 12), so nothing is
    // looked up and no contact is created twice.
    const answer = await client.createContactsBatch({ items: step.items.map((item) => item.body) }, call);
    return { kind: 'batch', results: await itemOutcomes(answer, step.items.length) };
  },
  // A batch of creates reads in the report as its items, each a create step of its own with its item's outcome.
  expand(step, outcome) {
    const results = outcome?.kind === 'batch' ? outcome.results : [];
    return step.items.flatMap((item, index) => {
      // An item found existing that the last step tags is that step's report row (`tag-existing`).
      if (step.tagsAfter && results[index]?.kind === 'exists' && item.body.tags?.length) return [];
      return [{ step: { kind: 'create-contact', body: item.body, ...(item.rows ? { rows: item.rows } : {}) }, outcome: results[index] }];
    });
  },
};

export const tagContactsHandler: StepHandler<TagContactsStep> = {
  kind: 'tag-contacts',
  async send(step, { client, call }) {
    const body: ContactBulkTags = { ...(step.filter !== undefined ? { filter: step.filter } : { ids: step.ids ?? [] }), ...tagChange(step) };
    const answer = await client.tagContacts(body, call);
    return { kind: 'tagged', matched: answer.matched, changed: answer.changed };
  },
  describe: (step) => ({ filter: step.filter ?? '', ids: (step.ids ?? []).join(' '), tagsAdded: step.tagsToAdd.join(', '), tagsRemoved: step.tagsToRemove.join(', ') }),
};

/** A contact an import's batch found existing, the tags its rows want on it, and those rows. */
type ExistingItem = { id: string | null; body: ContactCreate; tags: string[]; rows?: number[] };

/**
 * The existing contacts of the job's `create-contacts` steps (409 items), from `earlier`: each with the id the batch
 * answered (or null) and the tags its rows want, the import's own tag (`importTag`) as `updatedTag(importTag)`.
 */
async function existingItems(earlier: StepContext['earlier'], importTag: string | undefined): Promise<ExistingItem[]> {
  const updated = importTag ? updatedTag(importTag) : undefined;
  const found: ExistingItem[] = [];
  await earlier(({ step, outcome }) => {
    if (step.kind !== 'create-contacts' || outcome?.kind !== 'batch') return;
    (step as CreateContactsStep).items.forEach((item, index) => {
      const result = outcome.results[index];
      if (result?.kind !== 'exists') return;
      const tags = [...new Set((item.body.tags ?? []).map((tag) => (tag === importTag ? updated! : tag)))];
      if (tags.length) found.push({ id: result.id, body: item.body, tags, ...(item.rows ? { rows: item.rows } : {}) });
    });
  });
  return found;
}

/**
 * Ids for the items the batches answered without one (a service that does not name the contact a 409 met): looked up
 * by lower-cased email, then by phone, 100 values a `GET /contacts` (`lookupFilters`). An item found by neither
 * (erased meanwhile) keeps null and is left out.
 */
async function lookUpIds(items: ExistingItem[], client: StepContext['client'], lookUp: StepContext['lookUp']): Promise<void> {
  const missing = items.filter((item) => item.id === null);
  if (!missing.length) return;
  const found = emptyExisting();
  const emails = missing.flatMap((item) => (item.body.email ? [emailKey(item.body.email)] : []));
  const phones = missing.flatMap((item) => (item.body.phone ? [item.body.phone] : []));
  for (const filter of [...lookupFilters('email', emails), ...lookupFilters('phone', phones)]) {
    indexExisting((await client.listContacts({ filter, limit: FILTER_LIMITS.maxValues, ...lookUp })).items, found);
  }
  for (const item of missing) item.id = (item.body.email ? found.byEmail.get(emailKey(item.body.email)) : undefined)?.id ?? (item.body.phone ? found.byPhone.get(item.body.phone) : undefined)?.id ?? null;
}

/**
 * The `POST /contacts/tags` bodies that add `items`' tags: the contacts grouped by the set of tags they get (a
 * contact met by several items gets the union), each group in requests of up to 1,000 ids (docs/decisions.md section
 * 12), groups in the order of their first contact. The same items give the same bodies, so a step sent again after a
 * lost answer repeats each request under its own Idempotency-Key.
 */
export function existingTagRequests(items: readonly { id: string | null; tags: readonly string[] }[]): { ids: string[]; tagsToAdd: string[] }[] {
  const wanted = new Map<string, Set<string>>();
  for (const { id, tags } of items) {
    if (id === null) continue;
    const set = wanted.get(id) ?? new Set<string>();
    for (const tag of tags) set.add(tag);
    wanted.set(id, set);
  }
  const groups = new Map<string, { tags: string[]; ids: string[] }>();
  for (const [id, set] of wanted) {
    const tags = [...set].sort();
    const key = JSON.stringify(tags);
    const group = groups.get(key) ?? { tags, ids: [] };
    group.ids.push(id);
    groups.set(key, group);
  }
  return [...groups.values()].flatMap(({ tags, ids }) =>
    Array.from({ length: Math.ceil(ids.length / MAX_TAG_IDS) }, (_, chunk) => ({ ids: ids.slice(chunk * MAX_TAG_IDS, (chunk + 1) * MAX_TAG_IDS), tagsToAdd: tags })),
  );
}

/** Ids one `POST /contacts/tags` takes (docs/decisions.md section 12). */
const MAX_TAG_IDS = 1000;

/**
 * `tag-existing`: once every batch of the import has settled (`afterEarlier`), the contacts they found existing get
 * the file's tags in a few `POST /contacts/tags` by ids (`existingTagRequests`: 8,575 existing contacts of a
 * 100,000-row file are 9 requests where each would be a PATCH), instead of a look-up of every row before the import
 * and a PATCH a contact. The n-th request carries `<step's Idempotency-Key>.<n>`, so a step sent again after a lost
 * answer gets the first answers replayed. Its outcome counts the contacts `matched` and those whose tags `changed`,
 * and keeps a record per existing contact, which the report shows in place of the batches' 409 items (`tagsAfter`).
 * Undone with the job's activity batch (the requests carry its `Activity-Batch`); it has no undo step of its own.
 */
export const tagExistingHandler: StepHandler<TagExistingStep> = {
  kind: 'tag-existing',
  afterEarlier: true,
  async send(step, { client, call, lookUp, earlier }) {
    const items = await existingItems(earlier, step.importTag);
    await lookUpIds(items, client, lookUp);
    let matched = 0;
    let changed = 0;
    // Whether each contact's request changed it: all of its contacts (true), none (false), or some (unknown).
    const changedOf = new Map<string, boolean | undefined>();
    for (const [n, body] of existingTagRequests(items).entries()) {
      const answer = await client.tagContacts(body, call.idempotencyKey ? { ...call, idempotencyKey: `${call.idempotencyKey}.${n}` } : call);
      matched += answer.matched;
      changed += answer.changed;
      const known = answer.changed === 0 ? false : answer.changed === answer.matched && answer.matched === body.ids.length ? true : undefined;
      for (const id of body.ids) changedOf.set(id, known);
    }
    const records = items.map(({ id, rows, tags }): TaggedRecord => {
      const known = id === null ? undefined : changedOf.get(id);
      return { id, tagsToAdd: tags, ...(rows ? { rows } : {}), ...(known === undefined ? {} : { changed: known }) };
    });
    return { kind: 'tagged', matched, changed, records };
  },
  // Each contact it meant to tag reads as the tag PATCH the request-per-contact way sends: tags changed, unchanged
  // (it had them all), or failed (not found: erased since its batch).
  expand(step, outcome) {
    const records = outcome?.kind === 'tagged' ? (outcome.records ?? []) : [];
    return records.map(({ id, rows, tagsToAdd, changed }) => {
      const patch: PatchTagsStep = { kind: 'patch-tags', contactId: id ?? '', tagsToAdd, tagsToRemove: [], ...(rows ? { rows } : {}) };
      if (id === null) return { step: patch, outcome: { kind: 'failed', status: 404, reason: t('jobs.existingNotFound') } };
      return { step: patch, outcome: changed === false ? { kind: 'exists', id, reason: t('jobs.noteAsAsked') } : { kind: 'tagged' } };
    });
  },
};

export const patchTagsHandler: StepHandler<PatchTagsStep> = {
  kind: 'patch-tags',
  async send(step, { client, call }) {
    const body: ContactTagsPatch = tagChange(step);
    await client.patchContactTags(step.contactId, body, call);
    return { kind: 'tagged' };
  },
  describe: (step) => ({ rows: rowsText(step.rows), contact: step.label ?? '', tagsAdded: step.tagsToAdd.join(', '), tagsRemoved: step.tagsToRemove.join(', ') }),
  recordId: (step) => step.contactId,
  // Tags it added are removed, tags it removed are added back, on the same contact.
  undo: (step, outcome) =>
    outcome.kind === 'tagged'
      ? { kind: 'patch-tags', contactId: step.contactId, tagsToAdd: [...step.tagsToRemove], tagsToRemove: [...step.tagsToAdd], ...(step.label ? { label: step.label } : {}) }
      : null,
};

export const eraseContactHandler: StepHandler<EraseContactStep> = {
  kind: 'erase-contact',
  async send(step, { client, call, lookUp }) {
    // No Idempotency-Key: section 9 gives it to POST and PATCH; a DELETE repeated answers 404, checked here.
    const { idempotencyKey: _key, ...options } = call;
    try {
      await client.eraseContact(step.contactId, options);
      return { kind: 'erased' };
    } catch (error) {
      if (!(isApiError(error) && error.status === 404)) throw error;
      const found = await client.listContacts({ filter: compare('id', 'eq', step.contactId), limit: 1, ...lookUp });
      if (found.items.length) {
        await Promise.all([loadErrorSentences(), loadAreaSettled('jobs')]);
        // Stored with the outcome, in the language shown when the step ended (as every step's reason).
        return { kind: 'failed', status: 404, reason: t('jobs.eraseNotDone', { sentence: errorSentence(error) }) };
      }
      return { kind: 'erased', already: true };
    }
  },
  // The report of an erasure lists ids only (issue 22 point 7).
  describe: () => ({}),
  recordId: (step) => step.contactId,
};

/** The contacts feature's handlers, for the engine's table (`registerStepHandlers`). */
export const contactStepHandlers = [createContactHandler, createContactsHandler, tagContactsHandler, tagExistingHandler, patchTagsHandler, eraseContactHandler] as const;

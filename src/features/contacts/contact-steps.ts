/**
 * The contacts feature's step kinds (issue 38 point 4): their shapes and their handlers in the job engine's table
 * (src/lib/jobs/step-kinds.ts), registered by src/app/kinds.ts. The import sends `create-contact`,
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
import type { ItemOutcome } from '@/lib/jobs/job-types';
import { type StepHandler, repeatInProgress } from '@/lib/jobs/step-kinds';

/** Creates one contact (`POST /contacts`). */
export type CreateContactStep = { kind: 'create-contact'; body: ContactCreate; rows?: number[]; label?: string };
/** One contact of a `create-contacts` step: the create body and the 1-based data rows of the file it stands for. */
export type BatchItem = { body: ContactCreate; rows?: number[] };
/** Creates up to 1,000 contacts in one `POST /contacts/batch`: one step, one Idempotency-Key. */
export type CreateContactsStep = { kind: 'create-contacts'; items: BatchItem[] };
/** Tags every contact a `filter` (printed `$filter` text) matches, or up to 1,000 `ids`: exactly one of the two. */
export type TagContactsStep = { kind: 'tag-contacts'; filter?: string; ids?: string[]; tagsToAdd: string[]; tagsToRemove: string[] };
/** Adds and removes tags of one contact. */
export type PatchTagsStep = { kind: 'patch-tags'; contactId: string; tagsToAdd: string[]; tagsToRemove: string[]; rows?: number[]; label?: string };
/** Erases one contact: only its id. */
export type EraseContactStep = { kind: 'erase-contact'; contactId: string };

/** Every step the contacts feature puts in a job. */
export type ContactStep = CreateContactStep | CreateContactsStep | TagContactsStep | PatchTagsStep | EraseContactStep;

/** The `$filter` that finds the contact a create would make: same email, or same phone. Null without either. */
export function lookupFilter(body: ContactCreate): FilterNode | null {
  const email = typeof body.email === 'string' && body.email.trim() ? compare('email', 'eq', body.email.trim()) : undefined;
  const phone = typeof body.phone === 'string' && body.phone.trim() ? compare('phone', 'eq', body.phone.replace(/[\s()-]/g, '')) : undefined;
  return or(email, phone) ?? null;
}

/**
 * The outcomes of a `create-contacts` step's items from `POST /contacts/batch`'s `results` (docs/decisions.md
 * section 12): 201 is `created`, 409 `exists` (the contact's id is not looked up: that would cost a request per
 * item), anything else `failed` with the item's error body as a sentence, as a refusal of `POST /contacts` reads.
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
    if (status === 409) return { kind: 'exists', id: null, reason: errorSentence(error) };
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
    return step.items.map((item, index) => ({ step: { kind: 'create-contact', body: item.body, ...(item.rows ? { rows: item.rows } : {}) }, outcome: results[index] }));
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
export const contactStepHandlers = [createContactHandler, createContactsHandler, tagContactsHandler, patchTagsHandler, eraseContactHandler] as const;

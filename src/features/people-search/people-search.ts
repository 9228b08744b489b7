/**
 * The header's search across workspaces and "everything about this person" (issue 24 points 6 and 7), without React:
 *
 * - `searchWorkspaces`: one `GET /contacts` per saved workspace, all at once, each with that workspace's own key and
 *   so its own budget (src/lib/budgeted-client.ts), at priority 'person' (the person is waiting for the answer);
 *   the filter is the contacts page's search box (src/lib/person-filter.ts). A key without contacts:read-only is
 *   not asked: its workspace is reported as `no-scope`. A failure in one workspace is reported for it alone.
 * - `findPerson`: the contacts with the same email or phone in every workspace, as stored (every field the
 *   service answers: tags, notification settings, and fields unknown to the contract, kept by its loose schemas),
 *   and the organizations' workspaces without a key here, named as not searched (`no-key`).
 * - `personJson` and `personCsv`: the download, one record per contact with the workspace named on it; CSV cells
 *   guarded against formula injection (a `'` before a leading `=`, `+`, `-`, `@`, tab or carriage return) by the
 *   service's export rule (docs/decisions.md section 7, revised; src/lib/csv-table.ts `guardCsvCell`): a phone
 *   number in international form in the `phone` column stays as it is.
 */
import Papa from 'papaparse';
import { guardCsvCell } from '@/lib/csv-table';
import type { ApiClient } from '@/api/client';
import type { Contact } from '@/api/contacts';
import type { FilterNode } from '@/api/filter/ast';
import { budgetedClient } from '@/lib/budgeted-client';
import type { SavedConnection } from '@/lib/connections';
import { allows } from '@/lib/permissions';
import { personSearchFilter, samePersonFilter } from '@/lib/person-filter';

/** Results shown per workspace; the total says how many more there are. */
export const RESULTS_PER_WORKSPACE = 10;
/** Records read per workspace for one person: the contacts list's page cap (docs/decisions.md section 6). */
export const RECORDS_PER_WORKSPACE = 100;

/** A workspace the console holds a key for. */
export type WorkspaceRef = { workspaceId: string; workspaceName: string };

/**
 * One workspace's answer: its contacts and their total, or why it has none: `no-scope` (its key cannot read
 * contacts), `error` (the search failed), `no-key` (a workspace of the same organization the console holds no key
 * for, so never searched: issue 34 point 5).
 */
export type WorkspaceAnswer = WorkspaceRef &
  ({ status: 'ok'; contacts: Contact[]; total: number } | { status: 'no-scope' } | { status: 'error'; error: unknown } | { status: 'no-key' });

type Options = { signal?: AbortSignal; clientFor?: (connection: SavedConnection) => ApiClient };

/** Asks every workspace of `connections` at once for the contacts `filter` matches (see the module comment). */
async function askEveryWorkspace(connections: readonly SavedConnection[], filter: FilterNode, limit: number, options: Options): Promise<WorkspaceAnswer[]> {
  const clientFor = options.clientFor ?? budgetedClient;
  const sorted = connections.toSorted((a, b) => a.workspaceName.localeCompare(b.workspaceName));
  return Promise.all(
    sorted.map(async (connection): Promise<WorkspaceAnswer> => {
      const ref = { workspaceId: connection.workspaceId, workspaceName: connection.workspaceName };
      if (!allows(connection.permissions, 'contacts:read-only')) return { ...ref, status: 'no-scope' };
      try {
        const page = await clientFor(connection).listContacts({ filter, limit, priority: 'person', signal: options.signal });
        return { ...ref, status: 'ok', contacts: page.items, total: page.meta.maxResults };
      } catch (error) {
        options.signal?.throwIfAborted();
        return { ...ref, status: 'error', error };
      }
    }),
  );
}

/**
 * The contacts whose name or email contains `text`, or whose phone contains it typed as a phone number, in every
 * workspace of `connections` (sorted by workspace name), `RESULTS_PER_WORKSPACE` each.
 * Rejects only with the AbortError of `signal`.
 */
export function searchWorkspaces(connections: readonly SavedConnection[], text: string, options: Options = {}): Promise<WorkspaceAnswer[]> {
  return askEveryWorkspace(connections, personSearchFilter(text.trim()), RESULTS_PER_WORKSPACE, options);
}

/**
 * Every contact with the email or the phone of `person` in every workspace of `connections`.
 * @throws RangeError when `person` has neither an email nor a phone (nothing to look for).
 */
export function findPerson(connections: readonly SavedConnection[], person: { email?: string | null; phone?: string | null }, options: Options = {}): Promise<WorkspaceAnswer[]> {
  const filter = samePersonFilter(person);
  if (!filter) throw new RangeError('A person is found across workspaces by email or phone: this contact has neither');
  return Promise.all([askEveryWorkspace(connections, filter, RECORDS_PER_WORKSPACE, options), keylessWorkspaces(connections, options)]).then(([asked, keyless]) => [...asked, ...keyless]);
}

/** Workspaces read per organization when looking for those without a key (`GET /workspaces` pages of 100). */
const WORKSPACES_READ = 1000;

/**
 * The workspaces of the connections' organizations that the console holds no key for, as `no-key` answers sorted by
 * name (issue 34 point 5: a person report said nothing of them, as if they had been searched). Each organization is
 * listed once (`GET /workspaces`, docs/decisions.md section 7), with the first of its keys that has feeds:read-only;
 * an organization none of whose keys may list, or whose list fails, adds nothing (what cannot be known is not said).
 */
async function keylessWorkspaces(connections: readonly SavedConnection[], options: Options): Promise<WorkspaceAnswer[]> {
  const clientFor = options.clientFor ?? budgetedClient;
  const held = new Set(connections.map((connection) => connection.workspaceId));
  const lister = new Map<string, SavedConnection>();
  for (const connection of connections) if (!lister.has(connection.organizationId) && allows(connection.permissions, 'feeds:read-only')) lister.set(connection.organizationId, connection);
  const lists = await Promise.all(
    [...lister.values()].map(async (connection) => {
      const found: WorkspaceRef[] = [];
      try {
        for (let offset = 0; offset < WORKSPACES_READ; offset += 100) {
          const page = await clientFor(connection).listWorkspaces({ limit: 100, offset, priority: 'person', signal: options.signal });
          for (const workspace of page.items) if (!held.has(workspace.id)) found.push({ workspaceId: workspace.id, workspaceName: workspace.name });
          if (offset + page.items.length >= page.meta.maxResults || !page.items.length) break;
        }
      } catch {
        options.signal?.throwIfAborted();
      }
      return found;
    }),
  );
  return lists.flat().toSorted((a, b) => a.workspaceName.localeCompare(b.workspaceName)).map((ref) => ({ ...ref, status: 'no-key' as const }));
}

/** A stored contact with the workspace it is in named first. */
export type PersonRecord = { workspaceId: string; workspaceName: string } & Contact;

/** The records of `answers`, each with its workspace named. */
export function personRecords(answers: readonly WorkspaceAnswer[]): PersonRecord[] {
  return answers.flatMap((answer) =>
    answer.status === 'ok' ? answer.contacts.map((contact) => ({ workspaceId: answer.workspaceId, workspaceName: answer.workspaceName, ...contact })) : [],
  );
}

/**
 * The JSON download: `{ subject, generatedAt, foundIn, notFoundIn, notSearched, deletion, records }`, where each
 * record is the contact as stored with `workspaceId` and `workspaceName` first. Two-space indented.
 */
export function personJson(subject: { email?: string | null; phone?: string | null }, answers: readonly WorkspaceAnswer[], deletion: string, now = new Date()): string {
  const ref = (answer: WorkspaceAnswer) => ({ workspaceId: answer.workspaceId, workspaceName: answer.workspaceName });
  return JSON.stringify(
    {
      subject: { email: subject.email ?? null, phone: subject.phone ?? null },
      generatedAt: now.toISOString(),
      foundIn: answers.filter((a) => a.status === 'ok' && a.contacts.length).map((a) => ({ ...ref(a), records: a.status === 'ok' ? a.contacts.length : 0 })),
      notFoundIn: answers.filter((a) => a.status === 'ok' && !a.contacts.length).map(ref),
      notSearched: answers.filter((a) => a.status !== 'ok').map((a) => ({ ...ref(a), reason: a.status })),
      deletion,
      records: personRecords(answers),
    },
    null,
    2,
  );
}

/** A CSV cell for a stored value: text as is, null and undefined empty, anything else (tags, settings) as JSON. */
function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/**
 * The CSV download: a header row of `workspaceId`, `workspaceName`, then every field any record has (in the order
 * first seen), one row per record; CRLF line ends, no BOM, formula-guarded cells (see the module comment).
 */
export function personCsv(answers: readonly WorkspaceAnswer[]): string {
  const records = personRecords(answers);
  const fields: string[] = ['workspaceId', 'workspaceName'];
  for (const record of records) for (const field of Object.keys(record)) if (!fields.includes(field)) fields.push(field);
  const data = records.map((record) => fields.map((field) => guardCsvCell(cell((record as Record<string, unknown>)[field]), field === 'phone')));
  return Papa.unparse({ fields: fields.map((field) => guardCsvCell(field)), data }, { newline: '\r\n', escapeFormulae: false });
}

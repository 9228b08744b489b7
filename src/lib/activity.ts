/**
 * The console's reading of our service's activity log (docs/decisions.md section 11, issue 33): the query of one
 * record's history, an entry's changes as lines a person reads ("City: Bergen → Oslo", "Tags: added vip"), which
 * entries can be reverted, the conflict reasons as sentences, and a contact's consent record (its create and every
 * change of its notification settings) as JSON and CSV proof. Texts come from the `activity` catalog.
 */
import Papa from 'papaparse';
import {
  ACTIVITY_ACTIONS,
  ACTIVITY_RESOURCES,
  type ActivityAction,
  type ActivityEntry,
  type ActivityResource,
  REVERT_CONFLICT_REASONS,
  type RevertConflict,
  type RevertConflictReason,
} from '@/api/activity';
import type { ApiClient } from '@/api/client';
import { NOTIFICATION_CHOICES } from '@/api/contacts';
import type { Scope } from '@/api/scopes';
import { compare } from '@/api/filter/ast';
import { formatDateTime } from '@/i18n/format';
import { t } from '@/i18n/i18n';

/** Entries of one record shown at most (newest first); older ones are on the Activity page. */
export const HISTORY_LIMIT = 100;

/** Query keys and options of the activity log, under the workspace's prefix so a workspace switch never mixes them. */
export const activityQueries = {
  all: (workspaceId: string) => ['ws', workspaceId, 'activity'] as const,
  record: (api: ApiClient, workspaceId: string, resourceId: string) => ({
    queryKey: [...activityQueries.all(workspaceId), 'record', resourceId] as const,
    queryFn: ({ signal }: { signal: AbortSignal }) =>
      api.listActivity({ filter: compare('resourceId', 'eq', resourceId), orderBy: [{ field: 'created', direction: 'desc' }], limit: HISTORY_LIMIT, signal }),
    staleTime: 30_000,
  }),
};

/** The scope a revert of an entry about `resource` needs (docs/decisions.md section 11), or null for an unknown resource. */
export function revertScope(resource: string): Scope | null {
  return resource === 'contact' ? 'contacts:read-write' : resource === 'product' || resource === 'collection' ? 'products:read-write' : resource === 'post-request' ? 'posts:read-write' : null;
}

const REVERTIBLE = new Set(['create', 'update', 'tags', 'notifications']);

/** True when the service may undo `entry` (section 11: not an erase, delete, withdraw or revert). */
export function isRevertible(entry: Pick<ActivityEntry, 'action' | 'changes'>): boolean {
  return REVERTIBLE.has(entry.action) && entry.changes !== null;
}

/** The catalog key of each field the `activity` catalog names: a contact's, a product's, a collection's, a post's. */
const FIELD_KEYS: Record<string, string> = {
  name: 'activity.field.name',
  email: 'activity.field.email',
  phone: 'activity.field.phone',
  image: 'activity.field.image',
  bio: 'activity.field.bio',
  address: 'activity.field.address',
  city: 'activity.field.city',
  postalCode: 'activity.field.postalCode',
  region: 'activity.field.region',
  source: 'activity.field.source',
  systemSource: 'activity.field.systemSource',
  customMessage: 'activity.field.customMessage',
  statusTags: 'activity.field.statusTags',
  follows: 'activity.field.follows',
  tags: 'activity.field.tags',
  state: 'activity.field.state',
  notificationSettings: 'activity.field.notificationSettings',
  addDirectly: 'activity.field.addDirectly',
  useEmailByDefault: 'activity.field.useEmailByDefault',
  title: 'activity.field.title',
  handle: 'activity.field.handle',
  bodyHtml: 'activity.field.bodyHtml',
  type: 'activity.field.type',
  status: 'activity.field.status',
  vendor: 'activity.field.vendor',
  url: 'activity.field.url',
  imageUrl: 'activity.field.imageUrl',
  price: 'activity.field.price',
  originalPrice: 'activity.field.originalPrice',
  currency: 'activity.field.currency',
  isForSale: 'activity.field.isForSale',
  customProperties: 'activity.field.customProperties',
  collectionIds: 'activity.field.collectionIds',
  externalId: 'activity.field.externalId',
  action: 'activity.field.action',
  header: 'activity.field.header',
  text: 'activity.field.text',
  publishDate: 'activity.field.publishDate',
};

/** A field's name as people say it, in the language shown; an unknown field as it is. */
export function fieldLabel(field: string): string {
  const key = Object.hasOwn(FIELD_KEYS, field) ? FIELD_KEYS[field] : undefined;
  return key ? t(key) : field;
}

/** A value as people read it: `—` for none, lists joined, on/off for booleans, settings as "Email on, SMS off". */
export function valueText(value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'boolean') return value ? t('activity.on') : t('activity.off');
  if (Array.isArray(value)) return value.length ? value.map((item) => valueText(item)).join(', ') : '—';
  if (typeof value === 'object') {
    const settings = value as Record<string, unknown>;
    if ('email' in settings || 'sms' in settings) {
      return t('activity.settings', { email: settings.email ? t('activity.on') : t('activity.off'), sms: settings.sms ? t('activity.on') : t('activity.off') });
    }
    return JSON.stringify(value);
  }
  if (typeof value === 'string' && value === 'active') return t('activity.stateActive');
  if (typeof value === 'string' && value === 'pending') return t('activity.statePending');
  return String(value);
}

/**
 * A contact's notification settings in words (issue 34 point 9): the create body's channel choice
 * (`email`, `sms`, `email,sms`, `none`: `NOTIFICATION_CHOICES` of src/api/contacts.ts) as "email and SMS", never the
 * raw `email,sms`; the `{ email, sms }` object of a later change as `valueText` writes it; anything else as it is.
 */
export function notificationText(value: unknown): string {
  if (typeof value === 'string' && (NOTIFICATION_CHOICES as readonly string[]).includes(value)) return t('activity.notificationChoice', { choice: value });
  return valueText(value);
}

/** The changes of `entry` as lines: "City: Bergen → Oslo", "Tags: added vip, x; removed y", a create's "City: Oslo". */
export function changeLines(entry: Pick<ActivityEntry, 'action' | 'changes'>): string[] {
  if (!entry.changes) return entry.action === 'erase' ? [t('activity.erasedNothingKept')] : [];
  return Object.entries(entry.changes).map(([field, pair]) => {
    const [before, after] = Array.isArray(pair) ? pair : [null, pair];
    if (field === 'tags') {
      const added = Array.isArray(before) ? (before as string[]) : [];
      const removed = Array.isArray(after) ? (after as string[]) : [];
      return `${fieldLabel(field)}: ${[added.length ? t('activity.tagsAdded', { tags: added.join(', ') }) : '', removed.length ? t('activity.tagsRemoved', { tags: removed.join(', ') }) : ''].filter(Boolean).join('; ')}`;
    }
    const text = field === 'notificationSettings' ? notificationText : valueText;
    if (before === null || before === undefined) return `${fieldLabel(field)}: ${text(after)}`;
    return `${fieldLabel(field)}: ${text(before)} → ${text(after)}`;
  });
}

/** What an entry did, in words: "Created", "Tags changed", "Notification settings changed", ... */
const ACTION_KEYS: Record<ActivityAction, string> = {
  create: 'activity.action.create',
  update: 'activity.action.update',
  tags: 'activity.action.tags',
  notifications: 'activity.action.notifications',
  erase: 'activity.action.erase',
  delete: 'activity.action.delete',
  withdraw: 'activity.action.withdraw',
  revert: 'activity.action.revert',
};

export function actionText(action: string): string {
  return (ACTIVITY_ACTIONS as readonly string[]).includes(action) ? t(ACTION_KEYS[action as ActivityAction]) : action;
}

const RESOURCE_KEYS: Record<ActivityResource, string> = {
  contact: 'activity.resource.contact',
  product: 'activity.resource.product',
  collection: 'activity.resource.collection',
  'post-request': 'activity.resource.postRequest',
};

/** A kind of record in words ("Contact", "Post"); an unknown one as it is. */
export function resourceText(resource: string): string {
  return (ACTIVITY_RESOURCES as readonly string[]).includes(resource) ? t(RESOURCE_KEYS[resource as ActivityResource]) : resource;
}

/** Who and from where: "…a1b2 · console/import", or "an older key" for a key made before the log. */
export function actorText(entry: Pick<ActivityEntry, 'keyHint' | 'source'>): string {
  return `${entry.keyHint ?? t('activity.olderKey')} · ${entry.source}`;
}

/** Why the service left an entry as it was, as a sentence (section 11's reasons). */
const CONFLICT_KEYS: Record<RevertConflictReason, string> = {
  'changed-since': 'activity.conflict.changedSince',
  gone: 'activity.conflict.gone',
  published: 'activity.conflict.published',
  'not-revertible': 'activity.conflict.notRevertible',
  'already-reverted': 'activity.conflict.alreadyReverted',
};

export function conflictSentence(reason: string): string {
  return (REVERT_CONFLICT_REASONS as readonly string[]).includes(reason) ? t(CONFLICT_KEYS[reason as RevertConflictReason]) : reason;
}

/** Conflicts as CSV (`activityId,resourceId,reason,explanation`), formulas escaped, with a BOM for spreadsheets. */
export function conflictsCsv(conflicts: readonly RevertConflict[]): string {
  const data = conflicts.map((conflict) => [conflict.activityId, conflict.resourceId, conflict.reason, conflictSentence(conflict.reason)]);
  return `\uFEFF${Papa.unparse({ fields: ['activityId', 'resourceId', 'reason', 'explanation'], data }, { newline: '\r\n', escapeFormulae: true })}\r\n`;
}

/** The fields of an entry that are consent (section 11: the create's settings and state, every settings change). */
const CONSENT_FIELDS = ['addDirectly', 'notificationSettings', 'state'] as const;

/** A contact's consent record: the entries that gave, changed or took back consent, oldest first. */
export function consentEntries(history: readonly ActivityEntry[]): ActivityEntry[] {
  return history
    .filter((entry) => entry.action === 'create' || entry.action === 'notifications' || (entry.changes !== null && CONSENT_FIELDS.some((field) => field in (entry.changes ?? {}))))
    .map((entry) => ({ ...entry, changes: entry.changes && Object.fromEntries(Object.entries(entry.changes).filter(([field]) => (CONSENT_FIELDS as readonly string[]).includes(field))) }))
    .sort((a, b) => a.created.localeCompare(b.created));
}

/** One consent entry as proof: when (ISO 8601 UTC), what, by which key, from which source, the service's ids. */
export type ConsentProof = { when: string; action: string; changes: ActivityEntry['changes']; keyHint: string | null; source: string; activityId: string; requestId: string | null };

/** The consent record of contact `contactId` as JSON text (`{ contactId, exported, entries: ConsentProof[] }`). */
export function consentJson(contactId: string, entries: readonly ActivityEntry[], exported = new Date()): string {
  const proof: ConsentProof[] = entries.map((entry) => ({
    when: entry.created,
    action: entry.action,
    changes: entry.changes,
    keyHint: entry.keyHint,
    source: entry.source,
    activityId: entry.activityId,
    requestId: entry.requestId,
  }));
  return `${JSON.stringify({ contactId, exported: exported.toISOString(), entries: proof }, null, 2)}\n`;
}

/** The consent record as CSV: when, local time, what (in words), key hint, source, activity id; formulas escaped. */
export function consentCsv(entries: readonly ActivityEntry[]): string {
  const data = entries.map((entry) => [entry.created, formatDateTime(entry.created), [actionText(entry.action), ...changeLines(entry)].join('; '), entry.keyHint ?? '', entry.source, entry.activityId]);
  return `\uFEFF${Papa.unparse({ fields: ['when', 'localTime', 'what', 'keyHint', 'source', 'activityId'], data }, { newline: '\r\n', escapeFormulae: true })}\r\n`;
}

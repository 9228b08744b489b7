/**
 * A key's permissions in words (issue 34 point 9): what the header's key menu, the connected notice and the workspaces
 * page say a key allows, never the scope names (`contacts: read-write`). Texts: the `tools` catalog area, loaded with
 * the header tools and the workspaces page. A module of its own so /connect (which announces a connection through
 * key-announcement.ts) does not carry it.
 */
import { formatList } from '@/i18n/format';
import { t } from '@/i18n/i18n';

/** The resources of a permissions map (docs/decisions.md section 4), in the order the console shows them. */
export const PERMISSION_RESOURCES = ['contacts', 'products', 'posts', 'feeds'] as const;

/** Each resource's name in words (the key menu's rows). */
const RESOURCE_KEYS: Record<(typeof PERMISSION_RESOURCES)[number], string> = {
  contacts: 'tools.resourceContacts',
  products: 'tools.resourceProducts',
  posts: 'tools.resourcePosts',
  feeds: 'tools.resourceFeeds',
};

/** What each level of each resource lets a person do, in words (docs/contract.md section 4's endpoint table). */
const LEVEL_KEYS: Record<string, Record<string, string>> = {
  contacts: { 'read-write': 'tools.scopeContactsWrite', 'read-only': 'tools.scopeContactsRead' },
  products: { 'read-write': 'tools.scopeProductsWrite', 'read-only': 'tools.scopeProductsRead' },
  posts: { 'read-write': 'tools.scopePostsWrite', 'read-only': 'tools.scopePostsRead' },
  // feeds:read-write creates contacts (POST /contacts), feeds:read-only lists the workspaces (GET /workspaces).
  feeds: { 'read-write': 'tools.scopeFeedsWrite', 'read-only': 'tools.scopeFeedsRead' },
};

/** `contacts` -> `Contacts` (`Kontakter`), in the language shown; a resource the console does not know as it is. */
export function resourceName(resource: string): string {
  const key = RESOURCE_KEYS[resource as keyof typeof RESOURCE_KEYS];
  return key ? t(key) : resource;
}

/**
 * What `level` of `resource` lets a person do (`contacts`, `read-write` -> `see and change contacts`), in the language
 * shown; no level -> `no access`; a level the console does not know as the API names it (`contacts: admin`).
 */
export function permissionWords(resource: string, level: string | undefined): string {
  if (!level) return t('tools.permissionNone');
  const key = LEVEL_KEYS[resource]?.[level];
  return key ? t(key) : `${resource}: ${level}`;
}

/**
 * What a key allows, in words (issue 34 point 9: not `contacts: read-write`): `see and change contacts, see products
 * and list the workspaces` (`se og endre kontakter, se produkter og se arbeidsområdene`), the resources it has no
 * level on left out; `nothing yet` when it has none. From the `tools` catalog area, loaded with the header tools and
 * the workspaces page that show it.
 */
export function permissionSummary(permissions: Record<string, string>): string {
  const known = [...PERMISSION_RESOURCES, ...Object.keys(permissions).filter((resource) => !(PERMISSION_RESOURCES as readonly string[]).includes(resource))];
  const phrases = known.filter((resource) => permissions[resource]).map((resource) => permissionWords(resource, permissions[resource]));
  return phrases.length ? formatList(phrases) : t('tools.scopeNothing');
}

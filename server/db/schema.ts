/**
 * Table types of the service database, for Kysely. Times are ISO 8601 UTC strings with milliseconds
 * (docs/decisions.md section 1), so text order is time order on every database. Booleans are 0/1 integers and
 * JSON values are text, so the same columns serve SQLite and PostgreSQL.
 */
import type { Generated } from 'kysely';
import type { ContactState } from '../../src/api/contacts';

export interface OrganizationTable {
  id: string;
  name: string;
  created: string;
}

export interface WorkspaceTable {
  id: string;
  organization_id: string;
  name: string;
  image_url: string | null;
  currency: string;
  /** Bumped in the same transaction as every contact write; keys the count cache. */
  contacts_version: Generated<number>;
  created: string;
}

export interface ApiKeyTable {
  id: string;
  workspace_id: string;
  /** SHA-256 of the whole key, hex. */
  key_hash: string;
  /** Comma-separated scopes. */
  scopes: string;
  created: string;
  revoked: string | null;
  /** `…` and the key's last four characters, stored at creation (migration 0008; null for older keys). */
  key_hint: Generated<string | null>;
}

export interface BasicCredentialTable {
  id: string;
  workspace_id: string;
  access_key: string;
  /** `scrypt$N$r$p$salt$hash`, base64 parts. */
  secret_hash: string;
  created: string;
  revoked: string | null;
}

export interface ContactTable {
  id: string;
  workspace_id: string;
  name: string | null;
  email: string | null;
  /** Lower-cased email, unique per workspace (409 on a duplicate, docs/decisions.md section 7). */
  email_key: string | null;
  phone: string | null;
  image: string | null;
  bio: string | null;
  address: string | null;
  city: string | null;
  postal_code: string | null;
  region: string | null;
  source: string | null;
  system_source: string | null;
  custom_message: string | null;
  state: string;
  /** JSON array of the tags, also kept row by row in contact_tags for filtering. */
  tags: string;
  status_tags: string | null;
  follows: string | null;
  notify_email: number;
  notify_sms: number;
  created: string;
  updated: string;
}

export interface ContactTagTable {
  workspace_id: string;
  contact_id: string;
  tag: string;
  /** The contact's `created`, copied (it never changes): orders a tag's contacts newest first from an index. */
  created: string;
}

export interface CollectionTable {
  id: string;
  workspace_id: string;
  external_id: string | null;
  title: string;
  handle: string;
  body_html: string | null;
  source: string | null;
  custom_properties: string | null;
  created: string;
  updated: string;
}

export interface ProductTable {
  id: string;
  workspace_id: string;
  external_id: string | null;
  title: string;
  handle: string;
  body_html: string | null;
  type: string | null;
  status: string;
  vendor: string | null;
  source: string | null;
  url: string | null;
  image_url: string | null;
  price: number | null;
  original_price: number | null;
  currency: string | null;
  is_for_sale: number | null;
  /** JSON array, also kept row by row in product_tags for filtering. */
  tags: string;
  custom_properties: string | null;
  created: string;
  updated: string;
}

export interface ProductTagTable {
  workspace_id: string;
  product_id: string;
  tag: string;
}

export interface ProductCollectionTable {
  workspace_id: string;
  product_id: string;
  collection_id: string;
}

export interface PostTable {
  /** Also the request id answered by `POST /post-requests`. */
  id: string;
  workspace_id: string;
  /** `published`, `scheduled` or `suggested`; a due scheduled post is listed before the job flips it. */
  state: string;
  header: string | null;
  text: string | null;
  image_url: string | null;
  media_image_urls: string;
  cta_link: string | null;
  button: string | null;
  author: string | null;
  recipients: string | null;
  /** 1 when `recipients` names anyone: never listed. */
  is_private: number;
  notification_settings: string | null;
  /** When the post is (or will be) public: now for publish, `publishDate` for schedule, null for suggest. */
  published_date: string | null;
  claps: number;
  created: string;
  updated: string;
  /** `publish`, `schedule` or `suggest`: the request's action (migration 0007; null only if written around the service). */
  action: string | null;
}

/** A remembered Idempotency-Key (docs/decisions.md section 9; plugins/idempotency.ts). */
export interface IdempotencyKeyTable {
  workspace_id: string;
  /** The request path without the query string (`/api/contacts`). */
  path: string;
  /** SHA-256 (hex) of the Idempotency-Key header. */
  key_hash: string;
  /** SHA-256 (hex) of the method and the body as canonical JSON. */
  request_hash: string;
  /** `running` while the first request runs, `done` once its answer is kept. */
  state: string;
  status: number | null;
  /** The replayed headers as a JSON object. */
  headers: string | null;
  body: string | null;
  created: string;
}

/** A rate-limit counter (issue 8): requests counted for `key` in the window that ends at `reset_at`. */
export interface RateLimitTable {
  /** `key:<api key id>`, `basic:<Basic access key>` or `ip:<address>` (plugins/auth.ts). */
  key: string;
  count: number;
  /** End of the current window, ms since the epoch (a bigint: PostgreSQL hands it back as a string). */
  reset_at: number | string;
}

/**
 * One entry of the activity log (docs/decisions.md section 11, migration 0008): one changed record of one write.
 * `seq` orders entries as they were written (ties of `created`); `changes` is JSON text, null after erasure.
 */
export interface ActivityTable {
  seq: Generated<number | string>;
  activity_id: string;
  workspace_id: string;
  created: string;
  resource: string;
  resource_id: string;
  action: string;
  changes: string | null;
  key_hint: string | null;
  source: string;
  batch_id: string | null;
  request_id: string | null;
  idempotency_key: string | null;
  revert_of: string | null;
}

/** An open `GET /events` stream of some process (docs/decisions.md section 13, migration 0009). */
export interface EventStreamTable {
  id: string;
  key_id: string;
  /** Last heartbeat, ms since the epoch (PostgreSQL hands a bigint back as a string). */
  seen: number | string;
}

/** A shared view (docs/decisions.md section 13, migration 0009); `query` is JSON text, `name_key` the name in lower case. */
export interface ViewTable {
  id: string;
  workspace_id: string;
  name: string;
  name_key: string;
  resource: string;
  query: string;
  key_hint: string | null;
  created: string;
  updated: string;
}

/**
 * Kept counts of a workspace's contacts (migration 0010, issue 39 point 2), written by database triggers only: `kind`
 * 'state' (name: the state), 'tag' (name: the tag) or 'day' (name: the UTC day of `created`, `YYYY-MM-DD`); `n` > 0
 * (a row whose count reaches 0 is deleted). PostgreSQL's bigint comes back as a string.
 */
export interface ContactCountTable {
  workspace_id: string;
  /** 'state', 'day', or `tag:<state>` (a tag's contacts in that state; server/db/contact-counts.ts). */
  kind: 'state' | 'day' | `tag:${ContactState}`;
  name: string;
  n: number | string;
}

export interface Database {
  organizations: OrganizationTable;
  workspaces: WorkspaceTable;
  api_keys: ApiKeyTable;
  basic_credentials: BasicCredentialTable;
  contacts: ContactTable;
  contact_tags: ContactTagTable;
  contact_counts: ContactCountTable;
  collections: CollectionTable;
  products: ProductTable;
  product_tags: ProductTagTable;
  product_collections: ProductCollectionTable;
  posts: PostTable;
  rate_limits: RateLimitTable;
  idempotency_keys: IdempotencyKeyTable;
  activity: ActivityTable;
  event_streams: EventStreamTable;
  views: ViewTable;
}

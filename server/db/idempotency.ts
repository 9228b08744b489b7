/**
 * Remembered Idempotency-Keys (docs/decisions.md section 9), in the table `idempotency_keys` (migration 0007), so every
 * process of one database sees the same keys. A key is remembered per workspace and request path for
 * `IDEMPOTENCY_TTL_MS` (24 hours); the key is stored as its SHA-256 hash, the request as the SHA-256 of its method
 * and body (canonical JSON, so `{"a":1,"b":2}` and `{"b":2,"a":1}` are the same request). plugins/idempotency.ts
 * drives it: `claim` before the handler, `finish` with the answer, `release` when the answer is not to be kept.
 */
import { createHash } from 'node:crypto';
import { type Kysely, type Transaction, sql } from 'kysely';
import type { Dialect } from './connection';
import type { Database } from './schema';

/** How long a key is remembered, in ms (docs/decisions.md section 9: 24 hours). */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * A `running` row older than this (ms) belongs to a request whose process died before it answered (the request
 * timeout is 30 s, plugins/transport.ts): a later request with the key runs instead of being told 409 forever.
 */
export const IDEMPOTENCY_STALE_RUNNING_MS = 2 * 60 * 1000;

/** The headers of a kept answer that a replay repeats (docs/decisions.md section 9: "Location-like headers"). */
export const REPLAYED_HEADERS = ['content-type', 'location', 'content-disposition'] as const;

/** What `claim` found: the request may run (`claimed`), or the earlier answer, or a 409 / 422 case. */
export type Claim =
  | { kind: 'claimed' }
  | { kind: 'replay'; status: number; headers: Record<string, string>; body: string | null }
  | { kind: 'running' }
  | { kind: 'mismatch' };

/** Where a key lives: its workspace, request path and hashed key. */
export type KeySlot = { workspaceId: string; path: string; keyHash: string };

/** SHA-256 hex of `text`. */
export const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** `value` as JSON text with object keys sorted at every depth: equal JSON values give equal text. */
export function canonicalJson(value: unknown): string {
  if (value === undefined) return '';
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((item) => (item === undefined ? 'null' : canonicalJson(item))).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, item]) => item !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
}

/** The hash identifying a request for key reuse: its method and body as canonical JSON. */
export const requestHash = (method: string, body: unknown) => sha256(`${method}\n${canonicalJson(body)}`);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const UUIDS = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

/** Idempotency-Key rows of one database. */
export class IdempotencyStore {
  private lastPurge = 0;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
  ) {}

  /**
   * Claims `slot` for a request with hash `hash`: inserted as `running` when free (or expired, or a stale
   * `running`), else what the row holds: the kept answer (same hash, `done`), `running` (same hash, still
   * running: 409), `mismatch` (another hash: 422). Atomic across processes: one insert whose conflict on the row's
   * primary key updates the row only when it is expired or stale.
   */
  async claim(slot: KeySlot, hash: string, now = new Date()): Promise<Claim> {
    await this.purgeExpired(now);
    const expired = new Date(now.getTime() - IDEMPOTENCY_TTL_MS).toISOString();
    const stale = new Date(now.getTime() - IDEMPOTENCY_STALE_RUNNING_MS).toISOString();
    for (let attempt = 0; attempt < 3; attempt++) {
      // One statement (issue 20 point 6: a job sends a key with every create): inserted when free, taken over when
      // the row there is expired or a stale `running` one, left alone (nothing returned) otherwise.
      const claimed = await this.db
        .insertInto('idempotency_keys')
        .values({ workspace_id: slot.workspaceId, path: slot.path, key_hash: slot.keyHash, request_hash: hash, state: 'running', status: null, headers: null, body: null, created: now.toISOString() })
        .onConflict((conflict) =>
          conflict
            .columns(['workspace_id', 'path', 'key_hash'])
            .doUpdateSet((eb) => ({
              request_hash: eb.ref('excluded.request_hash'),
              state: eb.ref('excluded.state'),
              status: null,
              headers: null,
              body: null,
              created: eb.ref('excluded.created'),
            }))
            .where((eb) =>
              eb.or([
                eb('idempotency_keys.created', '<', expired),
                eb.and([eb('idempotency_keys.state', '=', 'running'), eb('idempotency_keys.created', '<', stale)]),
              ]),
            ),
        )
        .returning('key_hash')
        .execute();
      if (claimed.length) return { kind: 'claimed' };
      const row = await this.where(this.db.selectFrom('idempotency_keys').selectAll(), slot).executeTakeFirst();
      if (!row) continue; // released between the insert and the read: try again
      if (row.request_hash !== hash) return { kind: 'mismatch' };
      if (row.state !== 'done' || row.status === null) return { kind: 'running' };
      return { kind: 'replay', status: row.status, headers: row.headers ? (JSON.parse(row.headers) as Record<string, string>) : {}, body: row.body };
    }
    return { kind: 'running' };
  }

  /** Keeps the answer of the request that claimed `slot`. */
  async finish(slot: KeySlot, status: number, headers: Record<string, string>, body: string | null): Promise<void> {
    await this.where(this.db.updateTable('idempotency_keys').set({ state: 'done', status, headers: JSON.stringify(headers), body }), slot)
      .where('state', '=', 'running')
      .execute();
  }

  /** Forgets `slot` (a 5xx answer, an answer that could not be kept, a request that ended without one). */
  async release(slot: KeySlot): Promise<void> {
    await this.where(this.db.deleteFrom('idempotency_keys'), slot).where('state', '=', 'running').execute();
  }

  /** Deletes expired keys of every workspace, at most once a minute per process. */
  private async purgeExpired(now: Date): Promise<void> {
    if (now.getTime() - this.lastPurge < 60_000) return;
    this.lastPurge = now.getTime();
    await this.db.deleteFrom('idempotency_keys').where('created', '<', new Date(now.getTime() - IDEMPOTENCY_TTL_MS).toISOString()).execute();
  }

  // Kysely types each builder's `where` apart (delete, select, update); this helper serves all three, so it is typed
  // by shape and calls through `any`, as Kysely's own documentation does for builders of several kinds.
  /* eslint-disable @typescript-eslint/no-explicit-any */
  private where<Q extends { where: (...args: any[]) => Q }>(query: Q, slot: KeySlot): Q {
    return (query as any).where('workspace_id', '=', slot.workspaceId).where('path', '=', slot.path).where('key_hash', '=', slot.keyHash) as Q;
  }
  /* eslint-enable @typescript-eslint/no-explicit-any */

  /**
   * In `trx`, deletes every kept answer of `workspaceId` that holds `text` in its path or body (a contact's id:
   * `POST /contacts` answers hold it in the body, `PATCH /contacts/{id}` ones in the path; docs/decisions.md section 10,
   * erasure). `text` is bound, never spliced.
   */
  /**
   * `eraseHolding` for many erased ids at once (a reverted import, db/revert.ts): one pass over the workspace's kept
   * answers instead of one per id. Ids are looked up as the UUIDs in each path and body, any other id by substring.
   */
  static async eraseHoldingAny(trx: Transaction<Database>, workspaceId: string, ids: readonly string[]): Promise<void> {
    if (!ids.length) return;
    const wanted = new Set(ids);
    const others = ids.filter((id) => !UUID.test(id));
    const rows = await trx.selectFrom('idempotency_keys').select(['path', 'key_hash', 'body']).where('workspace_id', '=', workspaceId).execute();
    const holds = (text: string | null) => text !== null && ((text.match(UUIDS) ?? []).some((id) => wanted.has(id)) || others.some((id) => text.includes(id)));
    const doomed = rows.filter((row) => holds(row.path) || holds(row.body));
    for (const row of doomed) {
      await trx.deleteFrom('idempotency_keys').where('workspace_id', '=', workspaceId).where('path', '=', row.path).where('key_hash', '=', row.key_hash).execute();
    }
  }

  static async eraseHolding(trx: Transaction<Database>, dialect: Dialect, workspaceId: string, text: string): Promise<void> {
    const contains = (column: 'path' | 'body') =>
      dialect.name === 'postgres' ? sql<boolean>`strpos(${sql.ref(column)}, ${text}) > 0` : sql<boolean>`instr(${sql.ref(column)}, ${text}) > 0`;
    await trx
      .deleteFrom('idempotency_keys')
      .where('workspace_id', '=', workspaceId)
      .where((eb) => eb.or([contains('path'), contains('body')]))
      .execute();
  }
}

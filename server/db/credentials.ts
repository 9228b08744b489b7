/**
 * API keys and Basic credentials (docs/decisions.md sections 1 and 4): issued here, stored hashed, checked in
 * constant time. Keys are `wsk_` + 40 base62 characters, stored as SHA-256; Basic access keys are `wsa_` + 24
 * and secrets 40 base62 characters, secrets stored as scrypt.
 */
import { createHash, randomBytes, randomUUID, scrypt as scryptCallback, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import type { Kysely } from 'kysely';
import { keyHintOf } from '../../src/api/activity';
import { type Scope, isScope } from '../../src/api/scopes';
import { precompiled } from './connection';
import type { Database } from './schema';

const scrypt = promisify(scryptCallback) as (password: string, salt: Buffer, keylen: number, options: object) => Promise<Buffer>;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const SCRYPT = { N: 16384, r: 8, p: 1, keylen: 32 };

/** `length` random base62 characters, unbiased. */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest();
const KEY_FORMAT = /^wsk_[0-9A-Za-z]{40}$/;

/** What a valid API key stands for. */
export type KeyPrincipal = { keyId: string; workspaceId: string; organizationId: string; scopes: Scope[]; keyHint: string | null };

/** Creates a key for `workspaceId` with `scopes`; returns the key in clear, the only time it is seen. */
export async function createApiKey(db: Kysely<Database>, workspaceId: string, scopes: readonly Scope[]): Promise<string> {
  const key = `wsk_${randomBase62(40)}`;
  await db
    .insertInto('api_keys')
    .values({ id: randomUUID(), workspace_id: workspaceId, key_hash: sha256(key).toString('hex'), scopes: scopes.join(','), created: new Date().toISOString(), revoked: null, key_hint: keyHintOf(key) })
    .execute();
  return key;
}

/** Marks `key` revoked; returns false when no live key matches. */
export async function revokeApiKey(db: Kysely<Database>, key: string): Promise<boolean> {
  const result = await db
    .updateTable('api_keys')
    .set({ revoked: new Date().toISOString() })
    .where('key_hash', '=', sha256(key).toString('hex'))
    .where('revoked', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** The principal of a live key, or null for a malformed, unknown or revoked one. */
/** The live-key lookup by hash, compiled once per database (it runs on every API request). */
const keyQueries = new WeakMap<Kysely<Database>, ReturnType<typeof compileKeyQuery>>();
const compileKeyQuery = (db: Kysely<Database>) =>
  precompiled(
    db
      .selectFrom('api_keys')
      .innerJoin('workspaces', 'workspaces.id', 'api_keys.workspace_id')
      .select(['api_keys.id', 'api_keys.key_hash', 'api_keys.scopes', 'api_keys.key_hint', 'api_keys.workspace_id', 'workspaces.organization_id'])
      .where('api_keys.key_hash', '=', '')
      .where('api_keys.revoked', 'is', null),
  );
function keyQuery(db: Kysely<Database>) {
  let query = keyQueries.get(db);
  if (!query) keyQueries.set(db, (query = compileKeyQuery(db)));
  return query;
}

export async function findApiKey(db: Kysely<Database>, key: string): Promise<KeyPrincipal | null> {
  if (!KEY_FORMAT.test(key)) return null;
  const hash = sha256(key);
  const [row] = (await db.executeQuery(keyQuery(db)(hash.toString('hex')))).rows;
  if (!row || !timingSafeEqual(Buffer.from(row.key_hash, 'hex'), hash)) return null;
  return { keyId: row.id, workspaceId: row.workspace_id, organizationId: row.organization_id, scopes: row.scopes.split(',').filter(isScope), keyHint: row.key_hint };
}

async function hashSecret(secret: string, salt = randomBytes(16)): Promise<string> {
  const hash = await scrypt(secret, salt, SCRYPT.keylen, { N: SCRYPT.N, r: SCRYPT.r, p: SCRYPT.p });
  return `scrypt$${SCRYPT.N}$${SCRYPT.r}$${SCRYPT.p}$${salt.toString('base64')}$${hash.toString('base64')}`;
}

async function verifySecret(secret: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const actual = await scrypt(secret, Buffer.from(salt, 'base64'), expected.length, { N: Number(n), r: Number(r), p: Number(p) });
  return timingSafeEqual(actual, expected);
}

/** Creates Basic credentials for `workspaceId`; returns the secret in clear, the only time it is seen. */
export async function createBasicCredential(db: Kysely<Database>, workspaceId: string) {
  const accessKey = `wsa_${randomBase62(24)}`;
  const secret = randomBase62(40);
  await db
    .insertInto('basic_credentials')
    .values({ id: randomUUID(), workspace_id: workspaceId, access_key: accessKey, secret_hash: await hashSecret(secret), created: new Date().toISOString(), revoked: null })
    .execute();
  return { accessKey, secret, workspaceId };
}

/** A stored hash to verify against when the access key is unknown, so both paths take the same time. */
const decoy = hashSecret(randomBase62(40));

const ACCESS_KEY_FORMAT = /^wsa_[0-9A-Za-z]{24}$/;
const SECRET_FORMAT = /^[0-9A-Za-z]{40}$/;

/**
 * The workspace of live Basic credentials, or null when the pair does not match. A pair not in the issued
 * format (`wsa_` + 24, secret 40 base62 characters) is refused without a lookup or a hash: the format is no
 * secret, and a flood of junk then costs nothing (issue 12 point 7).
 */
export async function verifyBasicCredential(db: Kysely<Database>, accessKey: string, secret: string): Promise<{ workspaceId: string } | null> {
  if (!ACCESS_KEY_FORMAT.test(accessKey) || !SECRET_FORMAT.test(secret)) return null;
  const row = await db
    .selectFrom('basic_credentials')
    .select(['workspace_id', 'secret_hash'])
    .where('access_key', '=', accessKey)
    .where('revoked', 'is', null)
    .executeTakeFirst();
  const ok = await verifySecret(secret, row?.secret_hash ?? (await decoy));
  return row && ok ? { workspaceId: row.workspace_id } : null;
}

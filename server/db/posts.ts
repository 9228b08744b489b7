/**
 * Post requests and the three post lists (endpoints 11 to 14), docs/decisions.md section 7:
 * - `publish` is public now, `schedule` at its `publishDate`, `suggest` never here;
 * - a post with recipients is private and never listed;
 * - visibility is decided at read time (`published_date <= now`), so a scheduled post shows from its
 *   `publishDate` exactly; `publishDuePosts` makes the stored state catch up, each post once, because a
 *   conditional UPDATE moves a row out of `scheduled` only once whichever process runs it.
 */
import { randomUUID } from 'node:crypto';
import { type Kysely, type Selectable, type Transaction, sql } from 'kysely';
import { DATE_RANGE } from '../../src/api/common';
import type { FilterNode } from '../../src/api/filter/ast';
import type { OrderByItem } from '../../src/api/filter/order-by';
import { type PostRequestParsed, type PostState, hasRecipients } from '../../src/api/posts';
import { HttpError, badRequest, notFound } from '../errors';
import { type FieldMap, compileFilter, compileOrderBy } from '../filter/compile';
import { type WriteContext, lockWorkspace, recordActivity } from './activity';
import type { Dialect } from './connection';
import type { Database, PostTable } from './schema';

export const POST_FIELDS: FieldMap = {
  id: { kind: 'column', column: 'posts.id', type: 'string' },
  header: { kind: 'column', column: 'posts.header', type: 'string' },
  text: { kind: 'column', column: 'posts.text', type: 'string' },
  publishedDate: { kind: 'column', column: 'posts.published_date', type: 'date' },
  claps: { kind: 'column', column: 'posts.claps', type: 'integer' },
};
export const DEFAULT_POST_ORDER: OrderByItem[] = [{ field: 'publishedDate', direction: 'desc' }];

/**
 * `GET /post-requests` fields (docs/decisions.md section 10), over the derived table `requests` of `PostStore.requests`:
 * `state` is the state as of the request (a due scheduled post is `published`, as the lists show it).
 */
export const POST_REQUEST_FIELDS: FieldMap = {
  state: { kind: 'column', column: 'requests.state_now', type: 'string' },
  action: { kind: 'column', column: 'requests.action', type: 'string' },
  publishDate: { kind: 'column', column: 'requests.published_date', type: 'date', nullable: true },
  created: { kind: 'column', column: 'requests.created', type: 'date' },
};
export const DEFAULT_POST_REQUEST_ORDER: OrderByItem[] = [{ field: 'created', direction: 'desc' }];

type PostRow = Selectable<PostTable>;
const parse = <T>(text: string | null): T | null => (text === null ? null : (JSON.parse(text) as T));

/** `<publicUrl>/embed/<workspaceId>#post-<postId>` (docs/decisions.md section 7). */
export function postUrl(publicUrl: string, workspaceId: string, postId: string): string {
  return `${publicUrl.replace(/\/$/, '')}/embed/${encodeURIComponent(workspaceId)}#post-${postId}`;
}

/** The API shape of a listed post. */
export function toPost(row: PostRow, publicUrl: string) {
  return {
    id: row.id,
    feedId: row.workspace_id,
    header: row.header,
    text: row.text,
    imageUrl: row.image_url,
    mediaImageUrls: JSON.parse(row.media_image_urls) as string[],
    ctaLink: parse<{ url: string }>(row.cta_link),
    button: parse<{ text: string; url: string }>(row.button),
    author: parse<{ name: string }>(row.author),
    publishedDate: row.published_date as string,
    claps: row.claps,
    postUrl: postUrl(publicUrl, row.workspace_id, row.id),
  };
}

/** The public summary of a post (`GET /public-posts`), `postImage` from `imageUrl` or the first media image. */
export function toPublicSummary(row: PostRow, workspace: { id: string; name: string; image_url: string | null }, publicUrl: string) {
  const src = row.image_url ?? (JSON.parse(row.media_image_urls) as string[])[0] ?? null;
  return {
    postId: row.id,
    postUrl: postUrl(publicUrl, row.workspace_id, row.id),
    postText: row.text,
    publishedDate: row.published_date as string,
    feedId: workspace.id,
    feedName: workspace.name,
    feedImageUrl: workspace.image_url,
    claps: row.claps,
    postImage: src ? { type: 'image', alt: row.header ?? row.text?.slice(0, 120) ?? '', src } : null,
  };
}

/** Post reads and writes for one database. */
export class PostStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
  ) {}

  /**
   * Creates the post of a post request; returns its id (the request id) and state. 400 for a schedule time
   * not in the future and for recipient contact ids not in the workspace.
   */
  async create(workspaceId: string, request: PostRequestParsed, now = new Date(), write: WriteContext = {}): Promise<{ requestId: string; state: PostState }> {
    const publishAt = request.publishDate ? new Date(request.publishDate) : undefined;
    if (request.action === 'schedule' && publishAt && publishAt.getTime() <= now.getTime()) {
      throw badRequest(`publishDate must be in the future to schedule a post, got ${request.publishDate}`);
    }
    const recipients = request.recipients;
    const contactIds = Array.isArray(recipients) ? recipients : (recipients?.contactIds ?? []);
    const state: PostState = request.action === 'publish' ? 'published' : request.action === 'schedule' ? 'scheduled' : 'suggested';
    const id = randomUUID();
    await this.db.transaction().execute(async (trx) => {
      await lockWorkspace(trx, workspaceId);
      if (contactIds.length) {
        const found = await trx.selectFrom('contacts').select('id').where('workspace_id', '=', workspaceId).where('id', 'in', [...new Set(contactIds)]).execute();
        const unknown = contactIds.find((contactId) => !found.some((row) => row.id === contactId));
        if (unknown) throw badRequest(`recipients: unknown contact ${unknown}`);
      }
      const stamp = now.toISOString();
      await trx
        .insertInto('posts')
        .values({
          id,
          workspace_id: workspaceId,
          state,
          header: request.header ?? null,
          text: request.text ?? null,
          image_url: request.imageUrl ?? null,
          media_image_urls: JSON.stringify(request.mediaImageUrls ?? []),
          cta_link: request.ctaLink ? JSON.stringify(request.ctaLink) : null,
          button: request.button ? JSON.stringify(request.button) : null,
          author: request.author ? JSON.stringify(request.author) : null,
          recipients: recipients === undefined ? null : JSON.stringify(recipients),
          is_private: hasRecipients(recipients) ? 1 : 0,
          notification_settings: request.notificationSettings ? JSON.stringify(request.notificationSettings) : null,
          published_date: state === 'published' ? stamp : state === 'scheduled' ? publishAt!.toISOString() : null,
          claps: 0,
          action: request.action,
          created: stamp,
          updated: stamp,
        })
        .execute();
      // The request as the activity log keeps it (docs/decisions.md section 11): its action, state and content, not
      // its recipients (contact ids, which an erasure removes from the post).
      const changes = {
        action: [null, request.action],
        state: [null, state],
        ...(request.header === undefined ? {} : { header: [null, request.header] }),
        ...(request.text === undefined ? {} : { text: [null, request.text] }),
        ...(request.imageUrl === undefined ? {} : { imageUrl: [null, request.imageUrl] }),
        ...(request.publishDate === undefined ? {} : { publishDate: [null, request.publishDate] }),
      } as Record<string, [unknown, unknown]>;
      await recordActivity(trx, workspaceId, write.actor, [{ resource: 'post-request', resourceId: id, action: 'create', changes }], stamp);
    });
    return { requestId: id, state };
  }

  /**
   * The public posts of `workspaceId` as of `now`: published, or scheduled and due; never private or suggested.
   * A stored date outside DATE_RANGE (a row written before issue 12 point 4: `+010000-...` sorts as text before
   * every four-digit year) is never due.
   */
  private visible(workspaceId: string, now: string) {
    return this.db
      .selectFrom('posts')
      .where('posts.workspace_id', '=', workspaceId)
      .where('posts.is_private', '=', 0)
      .where('posts.state', 'in', ['published', 'scheduled'])
      .where('posts.published_date', '>=', DATE_RANGE.min)
      .where('posts.published_date', '<=', now);
  }

  /** One page of public posts and the exact total (endpoints 12 and 14). */
  async list(workspaceId: string, publicUrl: string, query: { filter?: FilterNode; orderBy: readonly OrderByItem[]; offset: number; limit: number }) {
    let base = this.visible(workspaceId, new Date().toISOString());
    if (query.filter) base = base.where(compileFilter(query.filter, POST_FIELDS, this.dialect));
    const [rows, total] = await Promise.all([
      base.selectAll('posts').orderBy(compileOrderBy(query.orderBy, POST_FIELDS, 'posts.id')).limit(query.limit).offset(query.offset).execute(),
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { items: rows.map((row) => toPost(row, publicUrl)), maxResults: Number(total.n) };
  }

  /** The newest `limit` public posts of the workspace as summaries (endpoint 13). */
  async publicSummaries(workspaceId: string, publicUrl: string, limit: number) {
    const workspace = await this.db.selectFrom('workspaces').select(['id', 'name', 'image_url']).where('id', '=', workspaceId).executeTakeFirstOrThrow();
    const rows = await this.visible(workspaceId, new Date().toISOString())
      .selectAll('posts')
      .orderBy(compileOrderBy(DEFAULT_POST_ORDER, POST_FIELDS, 'posts.id'))
      .limit(limit)
      .execute();
    return rows.map((row) => toPublicSummary(row, workspace, publicUrl));
  }

  /**
   * Marks every due scheduled post published; returns the ids this call published (each id once, ever, across
   * processes: issue 8). The conditional UPDATE is the claim. On PostgreSQL (READ COMMITTED) a second process's
   * UPDATE that meets a row the first is publishing waits for that row lock, re-checks `state = 'scheduled'`
   * once the first commits, and leaves the row out: what `FOR UPDATE SKIP LOCKED` would guarantee, at the cost
   * of waiting a statement's length instead of skipping. SQLite serializes writers. Tested with two real
   * processes in multi-process.test.ts.
   */
  async publishDuePosts(now = new Date()): Promise<string[]> {
    const stamp = now.toISOString();
    const rows = await this.db
      .updateTable('posts')
      .set({ state: 'published', updated: stamp })
      .where('state', '=', 'scheduled')
      .where('published_date', '>=', DATE_RANGE.min)
      .where('published_date', '<=', stamp)
      .returning('id')
      .execute();
    return rows.map((row) => row.id);
  }

  /**
   * The workspace's post requests in every state as of `now` (derived table `requests`): each post's columns plus
   * `state_now`, `published` for a scheduled post already due (the lists show it from its publishDate on).
   */
  private requests(workspaceId: string, now: string) {
    const inner = this.db
      .selectFrom('posts')
      .selectAll('posts')
      .select(sql<string>`case when posts.state = 'scheduled' and posts.published_date >= ${DATE_RANGE.min} and posts.published_date <= ${now} then 'published' else posts.state end`.as('state_now'))
      .where('posts.workspace_id', '=', workspaceId);
    return this.db.selectFrom(inner.as('requests'));
  }

  /**
   * `GET /post-requests` (docs/decisions.md section 10, `post-requests-list`): one page of the workspace's post requests
   * in every state, private ones included, and the exact total. Items `{ requestId, state, action, header, text,
   * imageUrl, publishDate, created }`; `publishDate` is when it is (or was, or will be) public, null for a
   * suggestion without one.
   */
  async listRequests(workspaceId: string, query: { filter?: FilterNode; orderBy: readonly OrderByItem[]; offset: number; limit: number }) {
    let base = this.requests(workspaceId, new Date().toISOString());
    if (query.filter) base = base.where(compileFilter(query.filter, POST_REQUEST_FIELDS, this.dialect));
    const [rows, total] = await Promise.all([
      base.selectAll().orderBy(compileOrderBy(query.orderBy, POST_REQUEST_FIELDS, 'requests.id')).limit(query.limit).offset(query.offset).execute(),
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    const items = rows.map((row) => ({
      requestId: row.id,
      state: row.state_now,
      action: row.action ?? (row.state === 'suggested' ? 'suggest' : row.state === 'scheduled' ? 'schedule' : 'publish'),
      header: row.header,
      text: row.text,
      imageUrl: row.image_url,
      publishDate: row.published_date,
      created: row.created,
    }));
    return { items, maxResults: Number(total.n) };
  }

  /**
   * `DELETE /post-requests/{requestId}` (docs/decisions.md section 10, `post-request-cancel`): withdraws a suggested post,
   * or a scheduled one not yet due at `now`; it is deleted, so it is never published. One conditional DELETE is the
   * claim, against `publishDuePosts`' conditional UPDATE: whichever commits first wins the row (PostgreSQL
   * re-checks the other's condition once the first commits; SQLite serializes writers), so a post is either
   * withdrawn and never listed, or published and the withdrawal is a 409, even when both run in the same
   * millisecond. A scheduled post whose time has come counts as published (the lists show it from then on) even
   * before the job marks it. 404 `Post request not found` outside the workspace.
   */
  async withdraw(workspaceId: string, requestId: string, now = new Date(), write: WriteContext = {}): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await lockWorkspace(trx, workspaceId);
      await this.withdrawIn(trx, workspaceId, requestId, now, write);
    });
  }

  /** `withdraw` in the caller's transaction, recorded as `withdraw` (or as `revertOf`'s `revert`). */
  async withdrawIn(trx: Transaction<Database>, workspaceId: string, requestId: string, now = new Date(), write: WriteContext & { revertOf?: string; batchId?: string } = {}): Promise<void> {
    const stamp = now.toISOString();
    const deleted = await trx
      .deleteFrom('posts')
      .where('id', '=', requestId)
      .where('workspace_id', '=', workspaceId)
      .where((eb) => eb.or([eb('state', '=', 'suggested'), eb.and([eb('state', '=', 'scheduled'), eb('published_date', '>', stamp)])]))
      .returning('id')
      .execute();
    if (deleted.length) {
      await recordActivity(trx, workspaceId, write.actor, [
        { resource: 'post-request', resourceId: requestId, action: write.revertOf ? 'revert' : 'withdraw', changes: null, revertOf: write.revertOf, batchId: write.batchId },
      ]);
      return;
    }
    const found = await trx.selectFrom('posts').select('id').where('id', '=', requestId).where('workspace_id', '=', workspaceId).executeTakeFirst();
    if (!found) throw notFound('Post request not found');
    throw new HttpError(409, `Post request ${requestId} is already published`);
  }
}

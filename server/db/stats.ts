/**
 * `GET /stats` (docs/decisions.md section 12; issue 35 point 1): a workspace's figures in one request, each
 * section only for a resource the key can read. Contact figures are exact and cached per workspace and data
 * version (`ContactStore.stats`, `createdPerDay`); products, collections and posts are counted on each request
 * over their workspace indexes (tables of thousands, not millions).
 */
import { type Kysely, sql } from 'kysely';
import type { Stats } from '../../src/api/stats';
import type { ContactStore } from './contacts';
import type { Database } from './schema';

const DAY_MS = 86_400_000;

/**
 * The Mondays (`YYYY-MM-DD`, UTC) starting the last 12 ISO weeks, oldest first, the current week last. `now` in
 * ms since the epoch.
 */
export function lastTwelveWeeks(now: number): string[] {
  const today = new Date(Math.floor(now / DAY_MS) * DAY_MS);
  const monday = today.getTime() - ((today.getUTCDay() + 6) % 7) * DAY_MS;
  return Array.from({ length: 12 }, (_, i) => new Date(monday - (11 - i) * 7 * DAY_MS).toISOString().slice(0, 10));
}

/** Which sections the key may read: its read scopes on contacts, products (with collections) and posts. */
export type StatsSections = { contacts: boolean; products: boolean; posts: boolean };

/** The `GET /stats` answer for `workspaceId` with the `sections` the key reads; `now` ms since the epoch (tests). */
export async function workspaceStats(db: Kysely<Database>, contacts: ContactStore, workspaceId: string, sections: StatsSections, now = Date.now()): Promise<Stats> {
  const stats: Stats = {};
  if (sections.contacts) {
    const weeks = lastTwelveWeeks(now);
    const [figures, days] = await Promise.all([contacts.stats(workspaceId, undefined), contacts.createdPerDay(workspaceId, weeks[0] as string)]);
    const counts = weeks.map(() => 0);
    for (const [day, n] of days) {
      const week = weeks.findLastIndex((start) => start <= day);
      if (week >= 0) counts[week] = (counts[week] ?? 0) + n;
    }
    stats.contacts = { ...figures, createdByWeek: weeks.map((weekStart, i) => ({ weekStart, count: counts[i] ?? 0 })) };
  }
  if (sections.products) {
    const [statuses, collections] = await Promise.all([
      db.selectFrom('products').select(['status', (eb) => eb.fn.countAll<number>().as('n')]).where('workspace_id', '=', workspaceId).groupBy('status').execute(),
      db.selectFrom('collections').select((eb) => eb.fn.countAll<number>().as('n')).where('workspace_id', '=', workspaceId).executeTakeFirstOrThrow(),
    ]);
    const byStatus = { active: 0, draft: 0, archived: 0 };
    for (const row of statuses) if (row.status in byStatus) byStatus[row.status as keyof typeof byStatus] += Number(row.n);
    stats.products = { total: statuses.reduce((sum, row) => sum + Number(row.n), 0), byStatus };
    stats.collections = { total: Number(collections.n) };
  }
  if (sections.posts) {
    const at = new Date(now).toISOString();
    const since = new Date(now - 30 * DAY_MS).toISOString();
    // A due scheduled post counts as published before the scheduler flips it, as the post lists show it.
    const published = sql<boolean>`(state = 'published' or (state = 'scheduled' and published_date <= ${at}))`;
    const row = await db
      .selectFrom('posts')
      .select([
        sql<number>`sum(case when ${published} and published_date >= ${since} then 1 else 0 end)`.as('published'),
        sql<number>`sum(case when ${published} and published_date >= ${since} then claps else 0 end)`.as('claps'),
        sql<number>`sum(case when state = 'scheduled' and published_date > ${at} then 1 else 0 end)`.as('scheduled'),
        sql<number>`sum(case when state = 'suggested' then 1 else 0 end)`.as('suggested'),
      ])
      .where('workspace_id', '=', workspaceId)
      .executeTakeFirstOrThrow();
    stats.posts = {
      publishedLast30Days: Number(row.published ?? 0),
      scheduled: Number(row.scheduled ?? 0),
      suggested: Number(row.suggested ?? 0),
      clapsLast30Days: Number(row.claps ?? 0),
    };
  }
  return stats;
}

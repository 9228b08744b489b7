/**
 * Upkeep of the contact search index on SQLite (the FTS5 table `contacts_search`, migration 0007): keeping it in few
 * segments, which is what makes erasing a contact from it cheap.
 *
 * FTS5 writes each transaction's new terms as a new segment and merges segments of like size as it goes (its
 * `automerge`), so an index of 1,000,000 contacts built over time holds some 16 segments, five of them large. The
 * search index keeps `secure-delete` on (docs/decisions.md section 10: an erased value leaves the files), and a
 * secure delete looks every term of the contact up in every segment: 5 to 7.6 ms a contact on that index, against 1.1
 * to 1.6 ms once it is merged into one (docs/benchmarks.md, "The search index merged"). Reverting an import of 1,000
 * contacts (`POST /activity/revert`, each create undone by an erasure) took 10 to 11.9 s, and 1.8 to 2.6 s merged.
 *
 * `SearchIndexUpkeep.run` merges the index into one segment, the incremental `optimize` of FTS5's documentation, in
 * steps of a transaction each (sized to about `STEP_MS` by `TimedChunks`, so another writer waits for one step at most)
 * until a step changes fewer than two rows. Only the first step that begins the merge is a `merge` with a negative page
 * count; the rest are positive. A negative `merge` moves every segment to a new level and starts merging them anew
 * whenever the index is not one merge's inputs and its output (FTS5's `fts5IndexOptimizeStruct`): after any other
 * write has added a segment, each negative step dropped the merge under way and began another, leaving one more
 * segment each time. Under steady writes the segments grew by one a write until FTS5's limit of 2,000, after which
 * every write failed with SQLITE_FULL, "database or disk is full" (stop 48's soak: 14,938 answers 500; reproduced at
 * 1,000,000 contacts with a writer beside the merge). A positive `merge` continues the merge under way at the top
 * level, as FTS5's automerge after each write does too, and the writes' new segments wait on their own level.
 * `needsMerge` says when that is worth it: the segments other than the largest hold a quarter of its leaf pages or
 * more, so the whole index is rewritten about once for every quarter of it written anew. PostgreSQL's trigram
 * indexes need none of this.
 */
import { statSync } from 'node:fs';
import { type Kysely, sql } from 'kysely';
import type { Database } from './schema';
import { TimedChunks, yieldToOthers } from './timed-chunks';

/** The time a merge step aims at, ms (well under the 200 ms another writer may wait: issue 35). */
export const STEP_MS = 25;

/** The share of the largest segment's pages the other segments must reach before a merge is run. */
export const MERGE_SHARE = 0.25;

/** Leaf pages at or under which the index is left alone, whatever its segments (a small index merges cheaply anyway). */
export const MIN_PAGES = 1000;

/**
 * The WAL size past which a merge does not start its next step, bytes (256 MiB). A merge writes the whole index anew
 * (about 1.5 GB at 1,000,000 contacts), and while a reader holds an old snapshot (an export reads for minutes) no
 * checkpoint can restart the WAL, so every page written piles up in it: under a soak's three export loops the WAL
 * grew 35 MB a second with a merge running, against 5 without (docs/benchmarks.md, "The search index merged"). The
 * merge waits for a later check instead, once the readers let the WAL restart (the service's connection truncates
 * it to 64 MiB then: `journal_size_limit`, server/db/connection.ts).
 */
export const MERGE_WAL_LIMIT_BYTES = 256 * 1024 * 1024;

/**
 * The leaf pages of each segment of the index, largest first: the rows of each segment in the FTS5 table's `_idx`
 * shadow table, about one per leaf page (FTS5 keeps the first term of each leaf page there). A read of
 * a few milliseconds at 1,000,000 contacts.
 */
export async function searchSegments(db: Kysely<Database>): Promise<number[]> {
  const { rows } = await sql<{ pages: number }>`select count(*) as pages from contacts_search_idx group by segid order by pages desc`.execute(db);
  return rows.map((row) => Number(row.pages));
}

/**
 * The leaf pages of the whole index, doclist-only pages included (which `searchSegments` does not see): for each
 * segment, the span of its leaf pages' rowids in the `_data` shadow table (FTS5 numbers a segment's leaf page `pgno`
 * as rowid `segid << 37 | pgno`; a merge's inputs lose their first pages as they are consumed). Two seeks a segment:
 * about 2 ms at 1,000,000 contacts.
 */
export async function searchLeafPages(db: Kysely<Database>): Promise<number> {
  // max and min in subqueries of their own: each is then one seek (SQLite's min/max optimization), where
  // `max(id) - min(id)` in one select read every page of the range (0.2 to 0.55 s at 1,000,000 contacts, against 2 ms).
  const { rows } = await sql<{ pages: number | null }>`
    select sum(
      (select max(id) from contacts_search_data where id between (segid << 37) + 1 and (segid << 37) + 2147483647) -
      (select min(id) from contacts_search_data where id between (segid << 37) + 1 and (segid << 37) + 2147483647) + 1) as pages
    from (select distinct segid from contacts_search_idx)`.execute(db);
  return Number(rows[0]?.pages ?? 0);
}

/** True when the segments (`searchSegments`) are worth merging into one: see MERGE_SHARE and MIN_PAGES. */
export function needsMerge(segments: readonly number[], minPages = MIN_PAGES): boolean {
  const [largest = 0, ...others] = segments;
  const rest = others.reduce((sum, pages) => sum + pages, 0);
  return others.length > 0 && largest + rest > minPages && rest >= MERGE_SHARE * largest;
}

/**
 * What one run did: the merge steps (transactions) it took and the time, ms; `complete` false when it was stopped
 * (`stop`) or paused for the WAL's size (MERGE_WAL_LIMIT_BYTES).
 */
export type MergeRun = { steps: number; ms: number; complete: boolean };

/** Merges the SQLite contact search index, one short transaction at a time (see the module's comment). */
export class SearchIndexUpkeep {
  private stopped = false;
  private running: Promise<MergeRun> | null = null;

  /** `minPages`, `walLimitBytes` and `maxStepPages` (a step's most pages): MIN_PAGES, MERGE_WAL_LIMIT_BYTES and 5,000, lowered by tests. */
  constructor(
    private readonly db: Kysely<Database>,
    private readonly minPages = MIN_PAGES,
    private readonly walLimitBytes = MERGE_WAL_LIMIT_BYTES,
    private readonly maxStepPages = 5000,
  ) {}

  private walFile: string | null = null;

  /** The size of the database's WAL file, bytes (0 when there is none: an in-memory database, or no WAL yet). */
  private async walBytes(): Promise<number> {
    if (this.walFile === null) {
      const { rows } = await sql<{ file: string }>`select file from pragma_database_list where name = 'main'`.execute(this.db);
      this.walFile = rows[0]?.file ? `${rows[0].file}-wal` : '';
    }
    if (!this.walFile) return 0;
    try {
      return statSync(this.walFile).size;
    } catch {
      return 0;
    }
  }

  /** Merges when `needsMerge` says so; resolves to the run, or null when none was needed or one is under way. */
  async mergeIfNeeded(): Promise<MergeRun | null> {
    if (this.running || this.stopped) return null;
    if ((await this.walBytes()) > this.walLimitBytes) return null;
    if (!needsMerge(await searchSegments(this.db), this.minPages)) return null;
    return this.run();
  }

  /**
   * Merges the index into one segment; resolves once a step changed fewer than two rows (merged), or after the step
   * under way when `stop` was called or the WAL has grown past `walLimitBytes`. One run at a time: a second call
   * answers the first's promise.
   */
  run(): Promise<MergeRun> {
    this.running ??= this.merge().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  /** Lets the run under way end after its current step, and refuses new ones. */
  stop(): void {
    this.stopped = true;
  }

  private async merge(): Promise<MergeRun> {
    const started = performance.now();
    const steps = new TimedChunks(200, STEP_MS, Math.min(20, this.maxStepPages), this.maxStepPages);
    let count = 0;
    // Positive steps first (a merge left under way by a paused run is continued, not begun anew), then one negative step
    // to begin the full merge, then positive steps again. Each phase of positive steps ends when a step finds nothing
    // to do (FTS5's documentation: it changed fewer than two rows of the index) or when its steps have asked for twice
    // the index's pages, enough for any merge of it: with other writes coming in, FTS5 always finds their new segments
    // to merge, so "nothing to do" may never come. See the module's comment for why a negative step must not be repeated
    // while other writes come in between.
    const twiceTheIndex = async () => 2 * (await searchLeafPages(this.db));
    let budget = await twiceTheIndex();
    let begun = false;
    let pagesSign = 1;
    while (!this.stopped && (await this.walBytes()) <= this.walLimitBytes) {
      const pages = steps.next();
      const began = performance.now();
      const changed = await this.db.transaction().execute(async (trx) => {
        const before = await sql<{ n: number }>`select total_changes() as n`.execute(trx);
        await sql`insert into contacts_search(contacts_search, rank) values ('merge', ${pagesSign * pages})`.execute(trx);
        const after = await sql<{ n: number }>`select total_changes() as n`.execute(trx);
        return Number(after.rows[0]?.n) - Number(before.rows[0]?.n);
      });
      steps.record(pages, performance.now() - began);
      count++;
      budget -= pages;
      if (pagesSign < 0) pagesSign = 1;
      else if (changed < 2 || budget <= 0) {
        if (begun) return { steps: count, ms: performance.now() - started, complete: true };
        begun = true;
        budget = await twiceTheIndex();
        pagesSign = -1;
      }
      await yieldToOthers();
    }
    return { steps: count, ms: performance.now() - started, complete: false };
  }
}

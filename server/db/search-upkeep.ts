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
 * `SearchIndexUpkeep.run` merges the index into one segment the way FTS5's documentation gives for an incremental
 * `optimize`: `merge` commands with a negative page count, each in a transaction of its own (sized to about
 * `STEP_MS` by `TimedChunks`, so another writer waits for one step at most), until a step changes fewer than two rows.
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

  /** `minPages` and `walLimitBytes`: MIN_PAGES and MERGE_WAL_LIMIT_BYTES, lowered by tests. */
  constructor(
    private readonly db: Kysely<Database>,
    private readonly minPages = MIN_PAGES,
    private readonly walLimitBytes = MERGE_WAL_LIMIT_BYTES,
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
    const steps = new TimedChunks(200, STEP_MS, 20, 5000);
    let count = 0;
    while (!this.stopped && (await this.walBytes()) <= this.walLimitBytes) {
      const pages = steps.next();
      const began = performance.now();
      const changed = await this.db.transaction().execute(async (trx) => {
        const before = await sql<{ n: number }>`select total_changes() as n`.execute(trx);
        await sql`insert into contacts_search(contacts_search, rank) values ('merge', ${-pages})`.execute(trx);
        const after = await sql<{ n: number }>`select total_changes() as n`.execute(trx);
        return Number(after.rows[0]?.n) - Number(before.rows[0]?.n);
      });
      steps.record(pages, performance.now() - began);
      count++;
      // FTS5's documentation: merged once a negative 'merge' changes fewer than two rows of the index.
      if (changed < 2) return { steps: count, ms: performance.now() - started, complete: true };
      await yieldToOthers();
    }
    return { steps: count, ms: performance.now() - started, complete: false };
  }
}

/**
 * What spooling an export costs (issue 37; server/db/spool.ts): on a copy of the seeded 1,000,000-contact SQLite
 * file (bench/seeded-file.ts), reads every contact's export columns in the export's default order through
 * `ServiceDatabase.streamRows`, straight from the snapshot (`direct`) and spooled from the first chunk
 * (`spoolAfterMs: 0`), alternating (A B A B, `--rounds N`, default 3), and prints each read's wall and CPU seconds
 * and the median ratio spooled / direct. In process, no HTTP, no CSV or xlsx writing:
 *
 *   npx tsx bench/spool-cost.ts [--rounds N]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openMigratedDatabase } from '../server/database';
import { ContactStore, DEFAULT_CONTACT_ORDER } from '../server/db/contacts';
import { EXPORT_SOURCE_COLUMNS } from '../server/export/contacts-export';
import { seededFile } from './seeded-file';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '3' } } });
const rounds = Number(values.rounds);
const dir = mkdtempSync(join(tmpdir(), 'wsa-spool-cost-'));
try {
  const { file, workspaceId } = await seededFile(dir, 1_000_000, { cacheDir: join(tmpdir(), 'wsa-bench-seeded'), log: (line) => console.error(line) });
  const database = await openMigratedDatabase(file);
  const contacts = new ContactStore(database.db, database.dialect);
  const query = contacts.selectColumns(workspaceId, { orderBy: DEFAULT_CONTACT_ORDER }, EXPORT_SOURCE_COLUMNS);
  const ratios: number[] = [];
  for (let round = 1; round <= rounds; round++) {
    const seconds: number[] = [];
    for (const spoolAfterMs of [undefined, 0]) {
      const started = performance.now();
      const cpu = process.cpuUsage();
      let rows = 0;
      for await (const chunk of database.streamRows(query, { spoolAfterMs })) rows += chunk.length;
      const used = process.cpuUsage(cpu);
      seconds.push((performance.now() - started) / 1000);
      console.log(`round ${round} ${spoolAfterMs === undefined ? 'direct ' : 'spooled'}: ${rows.toLocaleString('en-US')} rows in ${seconds.at(-1)?.toFixed(2)} s (CPU ${((used.user + used.system) / 1e6).toFixed(2)} s)`);
    }
    ratios.push((seconds[1] as number) / (seconds[0] as number));
  }
  ratios.sort((a, b) => a - b);
  console.log(`spooled / direct, median of ${rounds}: ${ratios[Math.floor(rounds / 2)]?.toFixed(2)}`);
  await database.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}

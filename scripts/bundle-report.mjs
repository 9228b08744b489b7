// Prints the JavaScript each first screen loads (gzip), from the Vite manifest: the entry's static imports plus
// the lazy chunks that screen renders, and their static imports. Fails when a budget of scripts/first-screens.json
// (the ceiling CI enforces) is exceeded, and says how far each screen is from issue 16's goal (the connect and
// contacts screens 150 KB each, the public embed page 30 KB). This is the
// build-time floor of each figure; e2e/first-screens.spec.ts measures what Chromium really fetches (prefetches
// and lazy chunks loaded before the network is idle included) against the same budgets.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const dist = process.env.DASHBOARD_DIR ?? new URL('../dist/', import.meta.url).pathname;
const manifest = JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8'));
const KB = 1024;
const screens = JSON.parse(readFileSync(new URL('./first-screens.json', import.meta.url), 'utf8')).screens.map((screen) => ({
  name: screen.name,
  chunks: screen.manifest,
  budget: screen.budgetKB * KB,
  goal: screen.goalKB * KB,
}));

function staticClosure(key, seen) {
  if (seen.has(key) || !manifest[key]) return seen;
  seen.add(key);
  for (const child of manifest[key].imports ?? []) staticClosure(child, seen);
  return seen;
}

const gzipped = new Map();
const size = (file) => {
  if (!gzipped.has(file)) gzipped.set(file, gzipSync(readFileSync(join(dist, file)), { level: 9 }).length);
  return gzipped.get(file);
};

let failed = false;
console.log('First-screen JavaScript (gzip):');
for (const screen of screens) {
  const missing = screen.chunks.filter((key) => !manifest[key]);
  if (missing.length) {
    console.log(`  ${screen.name}: chunk(s) not in the build: ${missing.join(', ')}`);
    failed = true;
    continue;
  }
  const keys = screen.chunks.reduce((seen, key) => staticClosure(key, seen), new Set());
  const files = [...keys].map((key) => manifest[key].file).filter((file) => file.endsWith('.js'));
  const bytes = files.reduce((sum, file) => sum + size(file), 0);
  const ok = bytes <= screen.budget;
  failed ||= !ok;
  const goal = bytes <= screen.goal ? 'met' : `over by ${((bytes - screen.goal) / KB).toFixed(1)} KB`;
  console.log(`  ${screen.name.padEnd(16)} ${(bytes / KB).toFixed(1).padStart(6)} KB in ${files.length} file(s); budget ${screen.budget / KB} KB: ${ok ? 'ok' : 'EXCEEDED'}; goal ${screen.goal / KB} KB: ${goal}`);
}
if (failed) process.exit(1);

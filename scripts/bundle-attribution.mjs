// Which packages and source folders each first screen's JavaScript comes from (issue 16, docs/bundle.md), after
// `npm run build`: for every file of the screen's manifest closure (as scripts/bundle-report.mjs counts it), the
// bytes of each mapped segment are attributed to the source file the source map names, then scaled to the file's
// gzip size (level 9), so the figures add up to the report's. Packages are summed by name (`@mantine/core`), the
// console's own code by folder (`src/features/contacts`). Usage: node scripts/bundle-attribution.mjs [top N, 25].
// source-map-js is Vite's own source map reader (through postcss), not a dependency of ours.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const { SourceMapConsumer } = createRequire(import.meta.url)('source-map-js');
const dist = process.env.DASHBOARD_DIR ?? new URL('../dist/', import.meta.url).pathname;
const manifest = JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8'));
const { screens } = JSON.parse(readFileSync(new URL('./first-screens.json', import.meta.url), 'utf8'));
const top = Number(process.argv[2] ?? 25);
const KB = 1024;

const closure = (key, seen) => {
  if (seen.has(key) || !manifest[key]) return seen;
  seen.add(key);
  for (const child of manifest[key].imports ?? []) closure(child, seen);
  return seen;
};

/** `@scope/name` or `name` for a file under node_modules; `src/<folder>` (or the file) for our own code. */
function owner(source) {
  const pkg = source.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (pkg) return pkg[1];
  const own = source.match(/src\/([^/]+)\/([^/]+)/);
  return own ? `src/${own[1]}/${own[2]}` : source;
}

/** Gzip bytes of `file` by owner. */
function attribute(file) {
  const code = readFileSync(join(dist, file), 'utf8');
  const gzip = gzipSync(code, { level: 9 }).length;
  let map;
  try {
    map = JSON.parse(readFileSync(join(dist, `${file}.map`), 'utf8'));
  } catch {
    return new Map([[file, gzip]]);
  }
  const lines = code.split('\n');
  const segments = [];
  new SourceMapConsumer(map).eachMapping((mapping) => segments.push(mapping));
  segments.sort((a, b) => a.generatedLine - b.generatedLine || a.generatedColumn - b.generatedColumn);
  const raw = new Map();
  segments.forEach((segment, index) => {
    const next = segments[index + 1];
    const end = next && next.generatedLine === segment.generatedLine ? next.generatedColumn : lines[segment.generatedLine - 1].length;
    const key = segment.source ? owner(segment.source) : '(unmapped: chunk glue)';
    raw.set(key, (raw.get(key) ?? 0) + end - segment.generatedColumn);
  });
  const total = [...raw.values()].reduce((sum, bytes) => sum + bytes, 0) || 1;
  return new Map([...raw].map(([key, bytes]) => [key, (bytes / total) * gzip]));
}

for (const screen of screens) {
  const files = [...screen.manifest.reduce((seen, key) => closure(key, seen), new Set())].map((key) => manifest[key].file).filter((file) => file.endsWith('.js'));
  const sums = new Map();
  for (const file of files) for (const [key, bytes] of attribute(file)) sums.set(key, (sums.get(key) ?? 0) + bytes);
  const rows = [...sums].sort((a, b) => b[1] - a[1]);
  const total = rows.reduce((sum, [, bytes]) => sum + bytes, 0);
  console.log(`${screen.name}: ${(total / KB).toFixed(1)} KB of gzip in ${files.length} files`);
  for (const [key, bytes] of rows.slice(0, top)) console.log(`  ${(bytes / KB).toFixed(1).padStart(6)} KB  ${key}`);
  const rest = rows.slice(top).reduce((sum, [, bytes]) => sum + bytes, 0);
  if (rest) console.log(`  ${(rest / KB).toFixed(1).padStart(6)} KB  (${rows.length - top} more)`);
}

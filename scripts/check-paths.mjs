/**
 * `npm run lint`'s citation check (issue 38 point 1): every repository file a comment or a doc names must exist,
 * so that a reader of the repository alone can follow each citation.
 *
 * Scans the tracked `.ts`, `.tsx`, `.mjs`, `.js`, `.md` files (comments and docs alike: a path in code is checked
 * the same way). Two kinds of names are checked:
 * - a path under one of the repository's top folders (`src/lib/jobs/step-runner.ts`, `docs/decisions.md`), resolved
 *   from the repository root, or from the naming file's folder for a Markdown link (`[x](deploy.md)`);
 * - in prose (a Markdown file or a comment line), a bare source or doc file name (`.ts`, `.tsx`, `.mjs`, `.md`, as
 *   `step-runner.ts` or `jobs.md`): some tracked file must have that name.
 * Names of things outside the repository are not paths here: URLs, `node_modules/...`, `/tmp/...`, files a test or
 * a command writes at run time (those .gitignore ignores, and the names in RUNTIME_NAMES), and a path containing
 * `*`, `<`, `{` or `$` (a pattern).
 *
 * Prints each missing name as `file:line: name` and exits 1 when there is one; prints nothing and exits 0 otherwise.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join, normalize } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const tracked = execFileSync('git', ['ls-files', '-co', '--exclude-standard'], { cwd: root, encoding: 'utf8' })
  .split('\n')
  .filter((file) => file && existsSync(join(root, file)));
const names = new Set(tracked.map((file) => basename(file)));
const folders = new Set(tracked.filter((file) => file.includes('/')).map((file) => file.split('/')[0]));

/** File names that are made at run time, or belong to a tool, not to the repository. */
const RUNTIME_NAMES = new Set([
  'package.json', 'tsconfig.json', 'README.md', 'index.html', 'vite.config.ts', 'main.js', 'cli.js', 'app.js',
  'data.sqlite', 'service.sqlite', 'demo.sqlite', 'backup.sqlite', 'index.d.ts', 'index.js', 'index.ts', 'sw.js',
  'CHANGELOG.md', 'a.ts', 'b.ts',
]);
const EXTENSIONS = 'ts|tsx|mjs|mts|js|md|json|css|html';
const pathPattern = new RegExp(String.raw`(?<![\w./@~-])((?:[\w.-]+/)+[\w.-]+\.(?:${EXTENSIONS}))(?![\w/-])`, 'g');
const namePattern = /(?<![\w./@~$-])([\w-]+(?:\.[\w-]+)*\.(?:ts|tsx|mjs|mts|md))(?![\w/(-])/gi;
const linkPattern = /\]\(([^)#\s]+)(?:#[^)]*)?\)/g;

const missing = [];
for (const file of tracked) {
  if (!/\.(ts|tsx|mjs|js|md)$/.test(file) || file === 'package-lock.json') continue;
  const lines = readFileSync(join(root, file), 'utf8').split('\n');
  lines.forEach((line, index) => {
    const report = (name) => missing.push(`${file}:${index + 1}: ${name}`);
    if (file.endsWith('.md')) {
      for (const [, target] of line.matchAll(linkPattern)) {
        if (/^[a-z]+:|^\//.test(target) || /[*<{$]/.test(target)) continue;
        if (!existsSync(join(root, normalize(join(dirname(file), target))))) report(target);
      }
    }
    const bare = line.replace(/https?:\/\/\S+/g, '').replace(linkPattern, '');
    for (const [, path] of bare.matchAll(pathPattern)) {
      const top = path.split('/')[0];
      if (!folders.has(top) || /[*<{$]/.test(path)) continue;
      if (!existsSync(join(root, path))) report(path);
    }
    // Bare names only in prose: a Markdown file, or a comment line of code.
    const prose = file.endsWith('.md') || /^\s*(\*|\/\/|\/\*)/.test(line);
    for (const [, name] of prose ? bare.matchAll(namePattern) : []) {
      if (names.has(name) || RUNTIME_NAMES.has(name)) continue;
      report(name);
    }
  });
}
// A file the repository ignores is made at run time (e2e/.state.json, dist/...): it may be named and not exist yet.
const ignored = (name) => {
  try {
    execFileSync('git', ['check-ignore', '-q', '--no-index', name], { cwd: root });
    return true;
  } catch {
    return false;
  }
};
missing.splice(0, missing.length, ...missing.filter((line) => !ignored(line.slice(line.lastIndexOf(': ') + 2))));
if (missing.length > 0) {
  console.error(`Citations of files that do not exist (${missing.length}):\n${missing.join('\n')}`);
  process.exit(1);
}

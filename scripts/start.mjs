// `npm start` (docs/decisions.md section 8): builds the dashboard (dist/) and the compiled service (dist-server/,
// scripts/build-server.mjs) when either is missing or older than its sources, then serves with plain Node and the
// V8 flags of scripts/node-flags.mjs.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { START_NODE_FLAGS } from './node-flags.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = (name) => join(root, 'node_modules', '.bin', name);

/** Newest modification time under `path`, in ms. */
function newest(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((max, name) => Math.max(max, newest(join(path, name))), stat.mtimeMs);
}

/** Runs `command` unless `output` exists and is newer than every path of `sources`. */
function buildIfStale(what, output, sources, command, args) {
  const present = sources.map((name) => join(root, name)).filter(existsSync);
  if (existsSync(output) && Math.max(...present.map(newest)) <= statSync(output).mtimeMs) return;
  console.log(`Building ${what}...`);
  const build = spawnSync(command, args, { stdio: 'inherit', cwd: root });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

buildIfStale('the dashboard', join(root, 'dist', 'index.html'), ['src', 'public', 'index.html', 'embed.html', 'vite.config.ts', 'package-lock.json'], bin('vite'), ['build', '--logLevel', 'warn']);
buildIfStale('the service', join(root, 'dist-server', 'main.js'), ['server', 'src/api', 'package-lock.json'], process.execPath, [join(root, 'scripts', 'build-server.mjs')]);
// With the V8 flags that bound the process's memory (scripts/node-flags.mjs; docs/benchmarks.md, issue 21 point 3).
const server = spawn(process.execPath, [...START_NODE_FLAGS, join(root, 'dist-server', 'main.js')], { stdio: 'inherit', cwd: root });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));

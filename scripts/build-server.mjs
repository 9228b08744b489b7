// Compiles the service (server/main.ts and what it imports from server/ and src/api/) and the operator command line
// (server/cli.ts) into dist-server/ with esbuild, so `npm start` runs the service on plain Node: no TypeScript loader
// in the serving process, which saves its memory (about 50 MB of resident memory, issue 2 benchmark) and start-up
// time. The browser tests run both compiled (e2e/server.ts), as `npm start` serves. Packages stay imports of
// node_modules; lazily loaded modules (the demo seed and its faker data) stay separate chunks.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
await build({
  absWorkingDir: root,
  entryPoints: ['server/main.ts', 'server/cli.ts'],
  outdir: 'dist-server',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
});

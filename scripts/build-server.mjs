// Compiles the service (server/main.ts and what it imports from server/ and src/api/) into dist-server/ with
// esbuild, so `npm start` runs it on plain Node: no TypeScript loader in the serving process, which saves its
// memory (about 50 MB of resident memory, issue 2 benchmark) and start-up time. Packages stay imports of
// node_modules; lazily loaded modules (the demo seed and its faker data) stay separate chunks.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
await build({
  absWorkingDir: root,
  entryPoints: ['server/main.ts'],
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

// Compiles the service (server/main.ts and what it imports from server/ and src/api/) and the operator command line
// (server/cli.ts) into dist-server/ (or the folder given as the first argument) with esbuild, so `npm start` runs the
// service on plain Node: no TypeScript loader in the serving process, which saves its memory (about 50 MB of resident
// memory, issue 2 benchmark) and start-up time. The browser tests run both compiled (e2e/server.ts), as `npm start`
// serves, and server/test/cli.test.ts runs the command line compiled here. Packages stay imports of node_modules,
// except `INLINED`: Kysely, pure ESM in about 400 small files, which Node would otherwise read and compile one by one
// at every start. Measured on this machine, `cli.js --help` took 1.2 s of CPU (0.91 s) with every package external and
// the demo seed loaded up front, and 0.48 s (0.43 s) with Kysely inlined and the seed loaded only by `demo seed`.
// zod stays external: fastify-type-provider-zod imports it, and two copies of zod would not know each other's
// schemas. CommonJS packages stay external too (an ES module bundle cannot `require` Node's built-ins). Lazily loaded
// modules (the demo seed and its faker data) stay separate chunks.
import { build } from 'esbuild';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** Packages bundled into the output instead of imported from node_modules. */
const INLINED = new Set(['kysely']);

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * Compiles server/main.ts and server/cli.ts into `outdir` (main.js, cli.js and their shared chunks) as described
 * above; `sourcemap` (default true) writes their source maps. Resolves when written; rejects with esbuild's errors.
 * server/test/started-service.ts builds the tests' service and command line with it.
 */
export async function buildServer(outdir, { sourcemap = true } = {}) {
  await build({
    absWorkingDir: root,
    entryPoints: ['server/main.ts', 'server/cli.ts'],
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap,
    logLevel: 'warning',
    plugins: [
      {
        name: 'node-modules-external',
        setup(compiler) {
          // A bare import (a package, not `./x` or the `@/` alias of src/) stays an import, unless its package is inlined.
          compiler.onResolve({ filter: /^[^./]/ }, (args) => {
            if (args.path.startsWith('@/')) return undefined;
            const parts = args.path.split('/');
            const name = args.path.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
            return INLINED.has(name) ? undefined : { path: args.path, external: true };
          });
        },
      },
    ],
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await buildServer(process.argv[2] ?? 'dist-server');

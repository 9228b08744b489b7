// Runs the npm scripts named on the command line at the same time (`node scripts/parallel.mjs lint typecheck`),
// each one's output printed whole when it ends (never interleaved), and exits with 1 when any of them failed.
// `npm test` runs the lint, the type check, the unit tests and the dashboard's build this way: the unit tests wait on
// sockets and databases for a part of their time, and the other three fill it (about 30 s less than one after another).
import { spawn } from 'node:child_process';

const names = process.argv.slice(2);
const results = await Promise.all(
  names.map(
    (name) =>
      new Promise((resolve) => {
        const started = Date.now();
        const child = spawn('npm', ['run', '--silent', name], { stdio: ['ignore', 'pipe', 'pipe'] });
        const chunks = [];
        child.stdout.on('data', (chunk) => chunks.push(chunk));
        child.stderr.on('data', (chunk) => chunks.push(chunk));
        child.on('close', (code) => {
          process.stdout.write(`> npm run ${name}: ${code === 0 ? 'ok' : `failed (exit ${code})`} in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
          process.stdout.write(Buffer.concat(chunks));
          resolve(code === 0);
        });
      }),
  ),
);
process.exit(results.every(Boolean) ? 0 : 1);

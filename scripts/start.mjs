// `npm start` (decisions.md section 8): builds the dashboard when dist/ is missing, then serves.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const bin = (name) => new URL(`../node_modules/.bin/${name}`, import.meta.url).pathname;
if (!existsSync(new URL('../dist/index.html', import.meta.url))) {
  console.log('Building the dashboard (first start)...');
  const build = spawnSync(bin('vite'), ['build', '--logLevel', 'warn'], { stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
const server = spawn(bin('tsx'), [new URL('../server/main.ts', import.meta.url).pathname], { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));

// `npm test`: the lint, the type check, the unit tests and the dashboard's build side by side, and the browser tests
// as soon as the build is in (Chromium made sure of first), beside the unit tests: those wait on sockets, child
// processes and databases for most of their time (0.7 of a core, docs/benchmarks.md), and the browser tests fill it.
// The browser tests' output is streamed; each other phase's output is printed whole when it ends, or, if the browser
// tests are running then, once they end (never interleaved). Ends with a table of each phase's time and the total;
// exits with 1 when any phase failed. The browser tests run even when lint, the type check or the unit tests fail
// (the table says which failed); not when the build does.
// The table's lines match neither vitest's "Tests N passed" nor Playwright's "N passed (", which .ci/run reads.
import { spawn } from 'node:child_process';

const started = Date.now();
/** Outputs held back while the browser tests stream theirs. */
let held = null;
const print = (text) => (held ? held.push(text) : process.stdout.write(text));

/** Runs `command args` (output captured, or streamed when `stream`); resolves with whether it passed and its time. */
function run(label, command, args, { stream = false } = {}) {
  return new Promise((resolve) => {
    const start = Date.now();
    const child = spawn(command, args, { stdio: ['ignore', stream ? 'inherit' : 'pipe', stream ? 'inherit' : 'pipe'] });
    const chunks = [];
    child.stdout?.on('data', (chunk) => chunks.push(chunk));
    child.stderr?.on('data', (chunk) => chunks.push(chunk));
    child.on('close', (code) => {
      const seconds = (Date.now() - start) / 1000;
      if (!stream) print(`> ${label}: ${code === 0 ? 'ok' : `failed (exit ${code})`} in ${seconds.toFixed(1)} s\n${Buffer.concat(chunks)}`);
      resolve({ label, ok: code === 0, seconds });
    });
  });
}

const npmRun = (label, script) => run(label, 'npm', ['run', '--silent', script]);

const build = npmRun('build', 'build');
const browserRun = build.then(async (built) => {
  if (!built.ok) return null;
  const chromium = await run('chromium', process.execPath, ['scripts/ensure-chromium.mjs'], { stream: true });
  if (!chromium.ok) return { ...chromium, label: 'browser' };
  held = [];
  const result = await run('browser', 'npx', ['playwright', 'test'], { stream: true });
  for (const text of held) process.stdout.write(text);
  held = null;
  return result;
});
const phases = await Promise.all([npmRun('lint', 'lint'), npmRun('typecheck', 'typecheck'), npmRun('unit', 'test:unit'), build]);
const browser = await browserRun;

const clock = (seconds) => {
  const whole = Math.round(seconds);
  return `${Math.floor(whole / 60)} min ${String(whole % 60).padStart(2, '0')} s`;
};
const row = (name, seconds, note) => `  ${name.padEnd(28)}${clock(seconds).padStart(13)}  ${note}`.trimEnd();
const lines = ['', 'npm test, each phase (the browser tests start when the build is in, beside the others):'];
for (const phase of phases) lines.push(row(phase.label, phase.seconds, phase.ok ? 'ok' : 'FAILED'));
lines.push(browser ? row('browser', browser.seconds, browser.ok ? 'ok' : 'FAILED') : `  ${'browser'.padEnd(28)}${'not run'.padStart(13)}  (the build failed)`);
lines.push(row('total', (Date.now() - started) / 1000, ''));
console.log(lines.join('\n'));
process.exit(phases.every((phase) => phase.ok) && browser?.ok ? 0 : 1);

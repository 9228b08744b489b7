// `npm test`: the lint, the type check, the unit tests and the dashboard's build side by side, and the browser tests
// as soon as the build has passed (Chromium made sure of first), beside whichever of the other three still run: the
// unit tests wait on sockets, timers and databases for part of their time (0.7 to 0.9 of a core alone,
// docs/benchmarks.md), which the browser tests fill. The first four's outputs are printed whole when each ends, the browser tests' line by line
// as they come, never one inside another. Ends with a table of each phase's time and the total; exits with 1 when any
// phase failed. The table's lines match neither vitest's "Tests N passed" nor Playwright's "N passed (", which
// .ci/run reads.
// The type check runs TypeScript 7, the native compiler (the package alias `typescript-7`): 10 s of CPU for the
// whole tree against 35 to 39 s for TypeScript 5.9, which stays installed as `typescript` for typescript-eslint (its
// peer range ends below 6.1) and editors; tsconfig.json keeps to what both accept (`paths` without `baseUrl`).
import { spawn } from 'node:child_process';

const started = Date.now();

/**
 * Runs `command args`, its output captured and printed whole when it ends, or with `stream`, printed line by line as
 * it comes; resolves with whether it passed and its time in seconds.
 */
function run(label, command, args, { stream = false } = {}) {
  return new Promise((resolve) => {
    const start = Date.now();
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks = [];
    // Streamed, each of the child's two outputs keeps its own unfinished line, so a line is never joined to the other's.
    const partial = { stdout: '', stderr: '' };
    const take = (name) => (chunk) => {
      if (!stream) return chunks.push(chunk);
      const lines = (partial[name] + chunk.toString('utf8')).split('\n');
      partial[name] = lines.pop();
      if (lines.length) process.stdout.write(`${lines.join('\n')}\n`);
    };
    child.stdout.on('data', take('stdout'));
    child.stderr.on('data', take('stderr'));
    child.on('close', (code) => {
      const seconds = (Date.now() - start) / 1000;
      if (stream) {
        for (const rest of [partial.stdout, partial.stderr]) if (rest) process.stdout.write(`${rest}\n`);
      } else {
        process.stdout.write(`> ${label}: ${code === 0 ? 'ok' : `failed (exit ${code})`} in ${seconds.toFixed(1)} s\n`);
        process.stdout.write(Buffer.concat(chunks));
      }
      resolve({ label, ok: code === 0, seconds });
    });
  });
}

const npmRun = (label, script) => run(label, 'npm', ['run', '--silent', script]);

const build = npmRun('build', 'build');
const browserPhase = build.then(async ({ ok }) => {
  if (!ok) return null;
  const chromium = await run('chromium', process.execPath, ['scripts/ensure-chromium.mjs'], { stream: true });
  return chromium.ok ? run('browser', 'npx', ['playwright', 'test'], { stream: true }) : { ...chromium, label: 'browser' };
});
const phases = await Promise.all([npmRun('lint', 'lint'), npmRun('typecheck', 'typecheck'), npmRun('unit', 'test:unit'), build]);
const sideBySide = (Date.now() - started) / 1000;
const browser = await browserPhase;

const clock = (seconds) => {
  const whole = Math.round(seconds);
  return `${Math.floor(whole / 60)} min ${String(whole % 60).padStart(2, '0')} s`;
};
const row = (name, seconds, note) => `  ${name.padEnd(28)}${clock(seconds).padStart(13)}  ${note}`.trimEnd();
const lines = ['', 'npm test, each phase:'];
for (const phase of phases) lines.push(row(phase.label, phase.seconds, phase.ok ? 'ok' : 'FAILED'));
lines.push(row('(those four side by side)', sideBySide, ''));
lines.push(browser ? row('browser (from the build on)', browser.seconds, browser.ok ? 'ok' : 'FAILED') : `  ${'browser'.padEnd(28)}${'not run'.padStart(13)}  (the build failed)`);
lines.push(row('total', (Date.now() - started) / 1000, ''));
console.log(lines.join('\n'));
// exitCode, not exit(): a pipe's writes may still be queued (the unit output, printed whole just before the table).
process.exitCode = phases.every((phase) => phase.ok) && browser?.ok ? 0 : 1;

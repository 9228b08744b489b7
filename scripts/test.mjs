// `npm test`: the lint, the type check, the unit tests and the dashboard's build side by side, each one's output
// printed whole when it ends (never interleaved): the unit tests wait on sockets and databases for a part of their
// time, and the other three fill it. Then, when all four passed, the browser tests (Chromium made sure of first), their
// output streamed. Ends with a table of each phase's time and the total; exits with 1 when any phase failed.
// The table's lines match neither vitest's "Tests N passed" nor Playwright's "N passed (", which .ci/run reads.
import { spawn } from 'node:child_process';

const started = Date.now();

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
      if (!stream) {
        process.stdout.write(`> ${label}: ${code === 0 ? 'ok' : `failed (exit ${code})`} in ${seconds.toFixed(1)} s\n`);
        process.stdout.write(Buffer.concat(chunks));
      }
      resolve({ label, ok: code === 0, seconds });
    });
  });
}

const npmRun = (label, script) => run(label, 'npm', ['run', '--silent', script]);

const phases = await Promise.all([npmRun('lint', 'lint'), npmRun('typecheck', 'typecheck'), npmRun('unit', 'test:unit'), npmRun('build', 'build')]);
const sideBySide = (Date.now() - started) / 1000;
let browser = null;
if (phases.every((phase) => phase.ok)) {
  const chromium = await run('chromium', process.execPath, ['scripts/ensure-chromium.mjs'], { stream: true });
  browser = chromium.ok ? await run('browser', 'npx', ['playwright', 'test'], { stream: true }) : { ...chromium, label: 'browser' };
}

const clock = (seconds) => {
  const whole = Math.round(seconds);
  return `${Math.floor(whole / 60)} min ${String(whole % 60).padStart(2, '0')} s`;
};
const row = (name, seconds, note) => `  ${name.padEnd(28)}${clock(seconds).padStart(13)}  ${note}`.trimEnd();
const lines = ['', 'npm test, each phase:'];
for (const phase of phases) lines.push(row(phase.label, phase.seconds, phase.ok ? 'ok' : 'FAILED'));
lines.push(row('(those four side by side)', sideBySide, ''));
lines.push(browser ? row('browser', browser.seconds, browser.ok ? 'ok' : 'FAILED') : `  ${'browser'.padEnd(28)}${'not run'.padStart(13)}  (a phase above failed)`);
lines.push(row('total', (Date.now() - started) / 1000, ''));
console.log(lines.join('\n'));
process.exit(phases.every((phase) => phase.ok) && browser?.ok ? 0 : 1);

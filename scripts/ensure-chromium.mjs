// Makes sure the Chromium the browser tests run in is installed: Debian's headless shell at
// /usr/bin/chromium-headless-shell (package chromium-headless-shell), or CHROMIUM_PATH's binary. As root it installs
// the package when missing; otherwise it says how to get one. Imported by playwright.config.ts for the path; run as
// a script by `npm test`.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Where Debian's package chromium-headless-shell puts the shell. */
export const CHROMIUM_HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';

/** Exits 0 when the browser is there (after installing its package, as root); 1 with what to do otherwise. */
function ensure() {
  const path = process.env.CHROMIUM_PATH ?? CHROMIUM_HEADLESS_SHELL;
  if (existsSync(path)) process.exit(0);
  const pkg = path === CHROMIUM_HEADLESS_SHELL ? 'chromium-headless-shell' : 'chromium';
  if (process.getuid?.() === 0) {
    console.log(`No Chromium at ${path}; installing Debian's ${pkg} package...`);
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
    execFileSync('apt-get', ['install', '-y', '-qq', pkg], { stdio: 'inherit', env });
    if (existsSync(path)) process.exit(0);
  }
  console.error(`The browser tests need Chromium at ${path}. Install Debian's package (sudo apt-get install -y ${pkg}), or set CHROMIUM_PATH to a Chromium binary.`);
  process.exit(1);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) ensure();

// Makes sure a Chromium for the browser tests is installed: Debian's package at /usr/bin/chromium (or
// CHROMIUM_PATH). As root it installs the package when missing; otherwise it says how to get one.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const path = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (existsSync(path)) process.exit(0);
if (process.getuid?.() === 0) {
  console.log(`No Chromium at ${path}; installing Debian's chromium package...`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  execFileSync('apt-get', ['install', '-y', '-qq', 'chromium'], { stdio: 'inherit', env });
  if (existsSync(path)) process.exit(0);
}
console.error(`The browser tests need Chromium at ${path}. Install Debian's package (sudo apt-get install -y chromium), or set CHROMIUM_PATH to a Chromium binary.`);
process.exit(1);

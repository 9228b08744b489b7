/**
 * Whether the one-click demo is offered (issue 21 point 4). `/app-config.json` hands the demo workspaces' keys
 * to any caller so the console's connect screen can sign in with one click: harmless when only this machine can
 * reach the server, an open door to the demo workspaces otherwise. The demo is offered when the server listens
 * on a loopback address (`HOST` 127.0.0.0/8, `::1`, `localhost`; the default 127.0.0.1) or `DEMO_PUBLIC=on`
 * says so; any other `HOST` (`0.0.0.0`, `::`, an interface's address, a host name) is exposed, and the start
 * prints a warning (`demoWarning`).
 */
import { isIP } from 'node:net';

/** True when `host` (as given to `listen`) is a loopback address: only this machine can connect. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (bare === 'localhost') return true;
  if (isIP(bare) === 4) return bare.startsWith('127.');
  if (isIP(bare) === 6) {
    if (bare === '::1' || /^(0{1,4}:){7}0{0,3}1$/.test(bare)) return true;
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(bare);
    return mapped !== null && mapped[1]!.startsWith('127.');
  }
  return false;
}

/** True when the demo's keys may be handed out by `/app-config.json`: loopback `host`, or `demoPublic`. */
export function offersDemo(host: string, demoPublic: boolean): boolean {
  return demoPublic || isLoopbackHost(host);
}

/**
 * The warning the start prints (to stderr) when the server listens on `host`, not a loopback address, while
 * demo data exists (`hasDemo`); null when there is nothing to warn about. With `demoPublic` the keys are
 * handed to anyone who can reach the server; without it the one-click demo is off but the demo keys, printed at
 * start, still open the demo workspaces to whoever has them.
 */
export function demoWarning(host: string, demoPublic: boolean, hasDemo: boolean): string | null {
  if (!hasDemo || isLoopbackHost(host)) return null;
  if (demoPublic) {
    return `WARNING: HOST=${host} is not a loopback address and DEMO_PUBLIC=on: /app-config.json hands the demo workspaces' keys to anyone who can reach this server. Unset DEMO_PUBLIC, or use DEMO_SEED=off on a database without demo data, unless that is what you want.`;
  }
  return `WARNING: HOST=${host} is not a loopback address: the one-click demo is off (/app-config.json hands out no demo keys; DEMO_PUBLIC=on would offer them to anyone who can reach this server). The demo workspaces and their keys printed below still exist: whoever has a key can use them.`;
}

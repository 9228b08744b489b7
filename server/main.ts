/**
 * Starts the service (docs/decisions.md section 8) on `HOST:PORT`, serving the built dashboard, and stops it cleanly on
 * SIGINT/SIGTERM within `SHUTDOWN_GRACE_MS` (`stopWithin`). Two modes (app.ts):
 * - direct (default): opens and migrates `DATABASE_URL`, seeds the demo organization into an empty database
 *   unless `DEMO_SEED=off`, serves the API, and prints the URL and the demo keys; the one-click demo
 *   (`/app-config.json` handing out those keys) only on a loopback `HOST` or with `DEMO_PUBLIC=on`, with a
 *   warning on stderr when `HOST` is not loopback (demo-exposure.ts, issue 21 point 4);
 * - proxy (`UPSTREAM_API_URL` set, issue 15): opens no database, seeds nothing, runs no job, forwards `/api/*`
 *   to the upstream, and prints the URL and where the API is forwarded.
 */
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { type CommonConfig, buildApp, buildProxyApp } from './app';
import { type Config, loadConfig } from './config';
import { openMigratedDatabase } from './database';
import { isEmpty } from './db/workspaces';
import { loadDemoCredentials, saveDemoCredentials } from './demo-credentials';
import { demoWarning, offersDemo } from './demo-exposure';

type Started = { app: FastifyInstance; lines: string[]; close(): Promise<void> };

const config = loadConfig();
const origin = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${config.port}`;
const common: CommonConfig = {
  corsOrigins: config.corsOrigins,
  apiOrigins: config.apiOrigins,
  dashboardDir: config.dashboardDir ?? fileURLToPath(new URL('../dist', import.meta.url)),
  logger: { level: process.env.LOG_LEVEL ?? 'warn' },
  trustProxy: config.trustProxy,
  timeouts: config.timeouts,
};

async function startDirect(config: Config): Promise<Started> {
  const database = await openMigratedDatabase(config.databaseUrl);
  if (config.demoSeed === 'auto' && (await isEmpty(database.db))) {
    // Loaded only here: the seed's faker data is tens of MB that a serving process otherwise never needs.
    const { seedDemo } = await import('./db/seed');
    saveDemoCredentials(config.databaseUrl, await seedDemo(database.db, database.dialect, config.publicUrl ?? origin));
  }
  const app = await buildApp({
    ...common,
    database,
    rateLimitPerMinute: config.rateLimitPerMinute,
    rateLimitWindowSeconds: config.rateLimitWindowSeconds,
    publicUrl: config.publicUrl,
    redisUrl: config.redisUrl,
    schedulerIntervalMs: config.schedulerIntervalMs,
    exportConcurrency: config.exportConcurrency,
    activityRetentionDays: config.activityRetentionDays,
    activityLog: config.activityLog,
    // The one-click demo only where only this machine can connect, or when DEMO_PUBLIC=on (issue 21 point 4).
    demo: () => (config.demoSeed === 'auto' && offersDemo(config.host, config.demoPublic) ? loadDemoCredentials(config.databaseUrl) : null),
  });
  const lines = [`Workspace Admin is serving ${origin}/ (API at ${origin}/api)`];
  const demo = config.demoSeed === 'auto' ? loadDemoCredentials(config.databaseUrl) : null;
  const warning = demoWarning(config.host, config.demoPublic, demo !== null);
  if (warning) console.warn(warning);
  for (const workspace of demo?.workspaces ?? []) {
    lines.push(`  ${workspace.name}: x-api-key ${workspace.key}  (Basic ${workspace.accessKey}:${workspace.secret})`);
  }
  if (demo) lines.push(`  try: curl -H 'x-api-key: ${demo.workspaces[0]?.key}' ${origin}/api/contacts?%24limit=2`);
  return { app, lines, close: () => app.close().then(() => database.close()) };
}

async function startProxy(upstreamApiUrl: string, config: Config): Promise<Started> {
  const app = await buildProxyApp({ ...common, upstreamApiUrl, upstreamTimeoutMs: config.upstreamTimeoutMs });
  const lines = [
    `Workspace Admin is serving ${origin}/ in proxy mode: ${origin}/api/* is forwarded to ${upstreamApiUrl}/*`,
    `  connect with a key of that service; try: curl -H 'x-api-key: <key>' ${origin}/api/authorization`,
  ];
  return { app, lines, close: () => app.close() };
}

let started: Started;
try {
  started = config.upstreamApiUrl ? await startProxy(config.upstreamApiUrl, config) : await startDirect(config);
} catch (error) {
  // A migration that failed (rolled back, database.ts) or a database that cannot be opened: one clear line, exit 1.
  console.error(`Workspace Admin cannot start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
await started.app.listen({ port: config.port, host: config.host });
console.log(started.lines.join('\n'));

/**
 * Stops the service on SIGTERM/SIGINT within a bounded time (issue 37 point 3, docs/deploy.md "Stopping"): the
 * app's close answers requests that still arrive with the 503 of docs/decisions.md section 3 (`Service
 * Unavailable: the server is shutting down`), ends the event streams (section 13) and lets the requests in flight
 * finish (plugins/transport.ts); what is still open after `graceMs` (`SHUTDOWN_GRACE_MS`: a long export, a client
 * that stopped reading one) has its connection cut, so the close completes, the database is closed after the last
 * write it acknowledged, and the process exits 0. Should the close still hang, the process exits 1 three seconds
 * later with a message saying so.
 */
async function stopWithin(service: Started, graceMs: number): Promise<void> {
  const cut = setTimeout(() => service.app.server.closeAllConnections(), graceMs);
  const failsafe = setTimeout(() => {
    console.error(`Workspace Admin did not stop within ${graceMs + 3000} ms of the signal; exiting`);
    process.exit(1);
  }, graceMs + 3000);
  failsafe.unref();
  try {
    await service.close();
  } finally {
    clearTimeout(cut);
  }
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    stopWithin(started, config.shutdownGraceMs).then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(`Workspace Admin did not stop cleanly: ${error instanceof Error ? error.message : String(error)}`);
        process.exit(1);
      },
    );
  });
}

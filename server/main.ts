/**
 * Starts the service (decisions.md section 8): opens and migrates `DATABASE_URL`, seeds the demo organization
 * into an empty database unless `DEMO_SEED=off`, serves the API and the built dashboard on `HOST:PORT`, and
 * prints the URL and the demo keys. Stops cleanly on SIGINT/SIGTERM.
 */
import { fileURLToPath } from 'node:url';
import { buildApp } from './app';
import { loadConfig } from './config';
import { openMigratedDatabase } from './database';
import { isEmpty } from './db/workspaces';
import { loadDemoCredentials, saveDemoCredentials } from './demo-credentials';

const config = loadConfig();
const database = await openMigratedDatabase(config.databaseUrl);
const origin = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${config.port}`;
if (config.demoSeed === 'auto' && (await isEmpty(database.db))) {
  // Loaded only here: the seed's faker data is tens of MB that a serving process otherwise never needs.
  const { seedDemo } = await import('./db/seed');
  saveDemoCredentials(config.databaseUrl, await seedDemo(database.db, database.dialect, config.publicUrl ?? origin));
}

const app = await buildApp({
  database,
  rateLimitPerMinute: config.rateLimitPerMinute,
  rateLimitWindowSeconds: config.rateLimitWindowSeconds,
  corsOrigins: config.corsOrigins,
  dashboardDir: config.dashboardDir ?? fileURLToPath(new URL('../dist', import.meta.url)),
  logger: { level: process.env.LOG_LEVEL ?? 'warn' },
  publicUrl: config.publicUrl,
  redisUrl: config.redisUrl,
  schedulerIntervalMs: config.schedulerIntervalMs,
  trustProxy: config.trustProxy,
  demo: () => (config.demoSeed === 'auto' ? loadDemoCredentials(config.databaseUrl) : null),
});
await app.listen({ port: config.port, host: config.host });

const lines = [`Workspace Admin is serving ${origin}/ (API at ${origin}/api)`];
const demo = config.demoSeed === 'auto' ? loadDemoCredentials(config.databaseUrl) : null;
for (const workspace of demo?.workspaces ?? []) {
  lines.push(`  ${workspace.name}: x-api-key ${workspace.key}  (Basic ${workspace.accessKey}:${workspace.secret})`);
}
if (demo) lines.push(`  try: curl -H 'x-api-key: ${demo.workspaces[0]?.key}' ${origin}/api/contacts?%24limit=2`);
console.log(lines.join('\n'));

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void app.close().then(() => database.close()).then(() => process.exit(0));
  });
}

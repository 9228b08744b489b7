/**
 * The operator command line (docs/decisions.md section 8) as a function: `runCli(['key', 'create', ...])` runs one
 * command against the database of `io.env`'s `DATABASE_URL` (as the server reads it, server/config.ts) and resolves to
 * its exit code. A command that succeeds writes exactly one JSON object and a newline to `io.stdout` and resolves 0;
 * any error (a bad argument, an unknown command, a refused write) writes `error: <message>` (commander's own
 * wording for its errors) to `io.stderr`, nothing to `io.stdout`, and resolves 1. It never throws. server/cli.ts
 * runs it on `process.argv`; the tests run it in their own process.
 */
import { Command, CommanderError, InvalidArgumentError } from 'commander';
import { type Scope, parseScopeList } from '../src/api/scopes';
import { createApiKey, createBasicCredential, revokeApiKey } from './db/credentials';
import { createOrganization, createWorkspaceWithKey, findWorkspace } from './db/workspaces';
import { type Config, loadConfig } from './config';
import { backupSqlite, restoreSqlite } from './backup';
import { isPostgresUrl } from './db/connection';
import { openMigratedDatabase } from './database';
import { saveDemoCredentials } from './demo-credentials';

/** Where a command writes and what it reads its settings from. */
export type CliIo = { stdout: (text: string) => void; stderr: (text: string) => void; env: NodeJS.ProcessEnv };

const processIo = (): CliIo => ({ stdout: (text) => process.stdout.write(text), stderr: (text) => process.stderr.write(text), env: process.env });

function parseScopes(value: string): Scope[] {
  try {
    return parseScopeList(value);
  } catch (error) {
    throw new InvalidArgumentError((error as Error).message);
  }
}

function nonEmpty(value: string): string {
  if (!value.trim()) throw new InvalidArgumentError('must not be empty');
  return value.trim();
}

function httpUrl(value: string): string {
  if (!/^https?:\/\//i.test(value) || !URL.canParse(value)) throw new InvalidArgumentError('must be an absolute http(s) URL');
  return value;
}

async function requireWorkspace(database: Awaited<ReturnType<typeof openMigratedDatabase>>, id: string) {
  if (!(await findWorkspace(database.db, id))) throw new Error(`workspace ${id} not found`);
}

/** Runs one command (`args` without `node` and the script) and resolves to its exit code, 0 or 1. */
export async function runCli(args: readonly string[], io: CliIo = processIo()): Promise<number> {
  const print = (result: unknown) => io.stdout(`${JSON.stringify(result)}\n`);

  /** Runs `action` against the migrated database of the configuration and prints its result as one JSON object. */
  async function run(action: (db: Awaited<ReturnType<typeof openMigratedDatabase>>, config: Config) => Promise<unknown>): Promise<void> {
    const config = loadConfig(io.env);
    const database = await openMigratedDatabase(config.databaseUrl);
    try {
      print(await action(database, config));
    } finally {
      await database.close();
    }
  }

  /** Runs `action` on the SQLite file of `DATABASE_URL` and prints its result; a PostgreSQL URL throws `refusal`. */
  function onSqliteFile(refusal: string, action: (file: string) => unknown): void {
    const { databaseUrl } = loadConfig(io.env);
    if (isPostgresUrl(databaseUrl)) throw new Error(refusal);
    print(action(databaseUrl));
  }

  const program = new Command('cli').description('Workspace Admin operator command line').exitOverride().showHelpAfterError(false);
  program.configureOutput({ writeOut: (text) => io.stderr(text), writeErr: (text) => io.stderr(text) });

  program
    .command('org')
    .description('organizations')
    .command('create')
    .requiredOption('--name <name>', 'organization name', nonEmpty)
    .action((options: { name: string }) => run((database) => createOrganization(database.db, options.name)));

  program
    .command('workspace')
    .description('workspaces')
    .command('create')
    .requiredOption('--org <orgId>', 'organization id')
    .requiredOption('--name <name>', 'workspace name', nonEmpty)
    .option('--image-url <url>', 'workspace image URL', httpUrl)
    .option('--key-scope <scopes>', 'also create its first API key with these scopes (comma-separated, or all); printed as key', parseScopes)
    .action((options: { org: string; name: string; imageUrl?: string; keyScope?: Scope[] }) =>
      run((database) => createWorkspaceWithKey(database.db, { organizationId: options.org, name: options.name, imageUrl: options.imageUrl ?? null }, options.keyScope)),
    );

  const key = program.command('key').description('API keys');
  key
    .command('create')
    .requiredOption('--workspace <id>', 'workspace id')
    .requiredOption('--scope <scopes>', 'comma-separated scopes, or all', parseScopes)
    .action((options: { workspace: string; scope: Scope[] }) =>
      run(async (database) => {
        await requireWorkspace(database, options.workspace);
        return { key: await createApiKey(database.db, options.workspace, options.scope), workspaceId: options.workspace, scopes: options.scope };
      }),
    );
  key
    .command('revoke')
    .requiredOption('--key <key>', 'the API key')
    .action((options: { key: string }) =>
      run(async (database) => {
        if (!(await revokeApiKey(database.db, options.key))) throw new Error('no live key matches');
        return { revoked: true };
      }),
    );

  program
    .command('credential')
    .description('Basic credentials for the notification-settings update')
    .command('create')
    .requiredOption('--workspace <id>', 'workspace id')
    .action((options: { workspace: string }) =>
      run(async (database) => {
        await requireWorkspace(database, options.workspace);
        return createBasicCredential(database.db, options.workspace);
      }),
    );

  program
    .command('demo')
    .description('demo data')
    .command('seed')
    .action(() =>
      run(async (database, config) => {
        // Loaded for this command only: the seed brings faker and its locales, a second of start-up for every other command.
        const { seedDemo } = await import('./db/seed');
        const result = await seedDemo(database.db, database.dialect, config.publicUrl ?? `http://${config.host}:${config.port}`);
        saveDemoCredentials(config.databaseUrl, result);
        return result;
      }),
    );

  program
    .command('backup')
    .description('a consistent copy of the live SQLite database (VACUUM INTO; for PostgreSQL use pg_dump, docs/deploy.md)')
    .requiredOption('--to <file>', 'the new file to write')
    .action((options: { to: string }) =>
      onSqliteFile('DATABASE_URL is PostgreSQL: back it up with pg_dump (docs/deploy.md, Backups)', (file) => backupSqlite(file, options.to)),
    );

  program
    .command('restore')
    .description('puts an SQLite backup in place of the database, after an integrity check; stop the service first')
    .requiredOption('--from <file>', 'the backup to restore')
    .action((options: { from: string }) =>
      onSqliteFile('DATABASE_URL is PostgreSQL: restore it with pg_restore or psql (docs/deploy.md, Backups)', (file) => restoreSqlite(options.from, file)),
    );

  try {
    await program.parseAsync([...args], { from: 'user' });
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode || 1;
    io.stderr(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}

// Makes sure the server tests' PostgreSQL target is reachable (issue 8): TEST_POSTGRES_URL, by default the
// machine's PostgreSQL 15 at postgres://postgres:postgres@127.0.0.1:5432/postgres. As root on Debian it installs
// the postgresql package when missing, creates and starts cluster 15/main (pg_ctlcluster) and sets that password;
// otherwise it says what to do. TEST_POSTGRES=off skips the PostgreSQL target (and this check) altogether.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import pg from 'pg';

const url = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres:postgres@127.0.0.1:5432/postgres';
if (process.env.TEST_POSTGRES === 'off') process.exit(0);

async function reachable() {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch (error) {
    return error;
  } finally {
    await client.end().catch(() => {});
  }
}

const run = (command, args) => execFileSync(command, args, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
const clusters = () => execFileSync('pg_lsclusters', ['--no-header'], { encoding: 'utf8' });

let result = await reachable();
if (result === true) process.exit(0);
if (process.getuid?.() === 0 && !process.env.TEST_POSTGRES_URL) {
  console.log(`PostgreSQL is not reachable at ${url} (${result.message}); setting up the machine's PostgreSQL 15...`);
  if (!existsSync('/usr/lib/postgresql/15/bin/postgres')) {
    run('apt-get', ['update', '-qq']);
    run('apt-get', ['install', '-y', '-qq', 'postgresql-15']);
  }
  if (!/^15\s+main\s/m.test(clusters())) run('pg_createcluster', ['15', 'main']);
  if (!/^15\s+main\s+\d+\s+online/m.test(clusters())) run('pg_ctlcluster', ['15', 'main', 'start']);
  run('runuser', ['-u', 'postgres', '--', 'psql', '-q', '-c', "alter user postgres password 'postgres'"]);
  result = await reachable();
  if (result === true) process.exit(0);
}
console.error(
  `The server tests also run on PostgreSQL, which is not reachable at ${url} (${result.message}). ` +
    'Start one (sudo pg_ctlcluster 15 main start), point TEST_POSTGRES_URL at one, or set TEST_POSTGRES=off to run on SQLite only.',
);
process.exit(1);

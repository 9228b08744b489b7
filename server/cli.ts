/**
 * Operator command line (docs/decisions.md section 8): `npm run --silent cli -- <command>`. Each command prints one
 * JSON object on stdout; errors go to stderr with exit code 1. Uses `DATABASE_URL` like the server. The commands are
 * server/cli-program.ts `runCli`.
 */
import { runCli } from './cli-program';

process.exitCode = await runCli(process.argv.slice(2));

/**
 * The PostgreSQL project's global setup (vitest.config.ts): after the run, drops the migrated templates its workers
 * made (server/test/test-database.ts `createMigratedTestDatabase`), whose processes have ended by then.
 */
import { dropStaleTemplates } from './test-database';

export default function setup(): () => Promise<void> {
  return () => dropStaleTemplates();
}

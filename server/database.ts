/**
 * Opens the service database and brings it up to date: what main.ts, the command line, tests and benchmarks
 * all start with. Throws when the database cannot be opened or a migration fails.
 */
import { type ServiceDatabase, openDatabase } from './db/connection';
import { migrateToLatest } from './db/migrations';

export async function openMigratedDatabase(url: string): Promise<ServiceDatabase> {
  const database = openDatabase(url);
  try {
    await migrateToLatest(database.db, database.dialect);
  } catch (error) {
    await database.close();
    throw error;
  }
  return database;
}

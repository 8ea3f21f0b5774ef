import { type Kysely, sql } from 'kysely';
import { type Migration, type MigrationProvider, Migrator } from 'kysely/migration';
import { readdir } from 'node:fs/promises';

/** Loads `NNNN_name.ts` files from ./migrations in name order. Landed files are never edited. */
class FolderMigrationProvider implements MigrationProvider {
  async getMigrations(): Promise<Record<string, Migration>> {
    const folder = new URL('./migrations/', import.meta.url);
    const files = (await readdir(folder)).filter((f) => /^\d{4}_[\w-]+\.ts$/.test(f)).sort();
    const migrations: Record<string, Migration> = {};
    for (const file of files) {
      migrations[file.replace(/\.ts$/, '')] = await import(new URL(file, folder).href);
    }
    return migrations;
  }
}

export async function migrateToLatest(db: Kysely<unknown>): Promise<void> {
  // Kysely looks for its bookkeeping tables in every schema; pin them to ours so that two
  // deployments in one database (or parallel test schemas) never read each other's.
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  const migrator = new Migrator({ db, provider: new FolderMigrationProvider(), migrationTableSchema: rows[0].schema });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    const cause = error instanceof Error ? error.message : String(error ?? '');
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${cause}`);
  }
}

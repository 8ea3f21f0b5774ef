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
  for (let attempt = 1; ; attempt++) {
    const { error, results } = await migrator.migrateToLatest();
    const failed = results?.find((r) => r.status === 'Error');
    if (!error && !failed) return;
    // Kysely finds its bookkeeping table by introspecting every table of the database, calling
    // pg_get_serial_sequence on each name: a table another deployment drops meanwhile (an import's
    // staging table) fails that with "relation … does not exist", and one whose schema is dropped
    // meanwhile (a parallel test app's job schema) with "schema … does not exist", before any
    // migration ran. Migrations run in a transaction, so asking again is safe.
    if (!failed && isDroppedMeanwhile(error) && attempt < 5) continue;
    const cause = error instanceof Error ? error.message : String(error ?? '');
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${cause}`);
  }
}

/** undefined_table, invalid_schema_name */
function isDroppedMeanwhile(error: unknown): boolean {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return code === '42P01' || code === '3F000';
}

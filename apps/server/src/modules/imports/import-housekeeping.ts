import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { createImportStaging } from './import-staging.repository.ts';
import type { ImportsRepository } from './imports.repository.ts';

/** An upload left at Match Format this long is given up (decision 009, "Housekeeping"). */
export const ABANDONED_UPLOAD_HOURS = 24;
/** A file this young may still be arriving: an upload writes it before its import row exists. */
const FILE_GRACE_MS = 60 * 60 * 1000;

/**
 * Frees what imports no longer need: uploaded files once nothing will read them (completed,
 * cancelled, failed for good, abandoned, or deleted with their list), uploads never run after
 * `ABANDONED_UPLOAD_HOURS`, and staging tables of imports that are gone or ended. The disk an
 * embedded database shares with these files would otherwise fill with every file ever imported.
 */
export function createImportHousekeeping(o: {
  repo: ImportsRepository;
  staging: ReturnType<typeof createImportStaging>;
  filesDir: string;
}) {
  async function unusedFiles(now: number): Promise<string[]> {
    const names = await readdir(o.filesDir).catch(() => [] as string[]);
    const settled: string[] = [];
    for (const name of names) {
      const info = await stat(join(o.filesDir, name)).catch(() => undefined);
      if (info?.isFile() && now - info.mtimeMs > FILE_GRACE_MS) settled.push(name);
    }
    const used = new Set<string>();
    for (let i = 0; i < settled.length; i += 500) {
      for (const name of await o.repo.filesInUse(settled.slice(i, i + 500))) used.add(name);
    }
    return settled.filter((name) => !used.has(name));
  }

  return {
    async run(now = Date.now()) {
      const expired = await o.repo.expireUploads(ABANDONED_UPLOAD_HOURS);
      const files = await unusedFiles(now);
      for (const name of files) await rm(join(o.filesDir, name), { force: true });
      const tables = await o.staging.orphanTables();
      for (const table of tables) await o.staging.drop(table);
      return { expiredUploads: expired.length, files: files.length, tables: tables.length };
    },
  };
}

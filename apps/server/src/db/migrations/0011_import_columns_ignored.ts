import { type Kysely, sql } from 'kysely';

// A column of an upload that maps to nothing is ignored from the start (it was `ignored = false`
// with no attribute until Match Format ran). A column that is neither ignored nor mapped then means
// one thing only: its attribute was deleted after the mapping (the key sets it null), which dispatch
// and the run refuse instead of importing the file without that column (decision 009).
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`update import_file_attributes set ignored = true where lead_attribute_id is null and not ignored`.execute(
    db,
  );
}

export async function down(): Promise<void> {
  // Nothing to undo: ignoring a column mapped to nothing is what every run did with it anyway.
}

import type { ColumnType, Generated } from 'kysely';
import type { TMessage } from '@herald/shared/common/messages';
import type { TAttributeType } from '@herald/shared/attributes/attributes.schemas';
import type { TImportFormat, TImportStage, TImportStatus } from '@herald/shared/imports/imports.schemas';

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
type UpdatedAt = ColumnType<Date, Date | string | undefined, Date | string>;
type Counter = Generated<number>;
type StagedColumn = { position: number; attributeId: number; type: TAttributeType; name: string };

export interface ImportFilesTable {
  id: Generated<number>;
  team_id: number;
  user_id: number | null;
  source_id: number;
  list_id: number;
  name: string;
  stored_name: string;
  size_bytes: number;
  format: TImportFormat;
  encoding: string | null;
  delimiter: string | null;
  black_list: Generated<boolean>;
  preview: ColumnType<string[][], string, string>;
  status: Generated<TImportStatus>;
  stage: TImportStage | null;
  progress: Counter;
  sync_progress: Counter;
  mapped_at: Date | null;
  process_id: number | null;
  attempt: Counter;
  heartbeat_at: Date | null;
  parsed_at: Date | null;
  staging_table: string | null;
  /** The mapped columns in staging order (c0, c1, …), recorded when the staging table is made. */
  staging_columns: ColumnType<StagedColumn[] | null, string | null, string | null>;
  staged_rows: Counter;
  published_upto: Counter;
  parsed_leads_count: Counter;
  leads_processed: Counter;
  leads_total: Counter;
  duplicates_resolved_count: Counter;
  leads_failed: Counter;
  ignored_phones_count: Counter;
  invalid_format_phones_count: Counter;
  leads_without_phone: Counter;
  error: string | null;
  error_code: string | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
  finished_at: Date | null;
  /** A lookup of the list is started when the import completes (0039, decision 041). */
  check_mobile_status: Generated<boolean>;
}

export interface ImportFileAttributesTable {
  id: Generated<number>;
  team_id: number;
  import_file_id: number;
  name: string;
  col_position: number;
  lead_attribute_id: number | null;
  ignored: Generated<boolean>;
}

export interface ImportFailedRowsTable {
  id: Generated<number>;
  team_id: number;
  import_file_id: number;
  row_number: number;
  reason: string;
  /** The reason as a message code and params (migration 0015); null on rows written before. */
  reason_message: ColumnType<TMessage | null, string | null, string | null>;
  cells: ColumnType<Array<{ attribute_id: number; value: string }>, string, string>;
}

export interface ImportsTables {
  import_files: ImportFilesTable;
  import_file_attributes: ImportFileAttributesTable;
  import_failed_rows: ImportFailedRowsTable;
}

import { z } from 'zod';
import { ZPageMeta } from '../common/pagination.schemas.ts';
import { ZMessage } from '../common/messages.ts';

/**
 * Where an import is: uploaded (awaiting mapping and run) → queued → parsing → resolving → completed
 * | failed; a cancelled one waits for its run (cancel_queued), is cancelling while its published
 * leads are taken back, then cancelled.
 */
export const IMPORT_STATUSES = [
  'uploaded',
  'queued',
  'parsing',
  'resolving',
  'completed',
  'failed',
  'cancel_queued',
  'cancelling',
  'cancelled',
] as const;
export const ZImportStatus = z.enum(IMPORT_STATUSES);
export type TImportStatus = z.infer<typeof ZImportStatus>;
/** Started imports a cancel takes back (besides one never run, and a failed one that kept its staging). */
export const CANCELLABLE_RUNS = ['queued', 'parsing', 'resolving'] as const satisfies readonly TImportStatus[];

/**
 * The spec's progress events, in order; `rolling_back` while a file found unreadable part-way takes
 * back the leads already published from it, before `failed` (decision 009).
 */
export const IMPORT_STAGES = [
  'parse',
  'parse_finished',
  'start_resolve_duplicates',
  'resolve_duplicates',
  'end_resolve_duplicates',
  'rolling_back',
  'failed',
  'cancelling',
  'cancelled',
] as const;
export const ZImportStage = z.enum(IMPORT_STAGES);
export type TImportStage = z.infer<typeof ZImportStage>;

/**
 * Why a run ended failed (`error_code`; `error` keeps the reader's or the database's own words for
 * support). The web translates the code; `import_failed` is any other error, resumable.
 */
export const IMPORT_FAILURES = [
  'import_failed',
  'import_file_broken',
  'import_file_unclosed_quote',
  'import_file_row_too_large',
  'import_file_invalid_text',
  'import_list_deleted',
  'import_attribute_deleted',
  'import_limit_reached',
  'import_lead_limit_reached',
  'import_no_valid_phone',
  'import_nothing_imported',
] as const;
export type TImportFailure = (typeof IMPORT_FAILURES)[number];
export const isImportFailure = (code: unknown): code is TImportFailure =>
  typeof code === 'string' && (IMPORT_FAILURES as readonly string[]).includes(code);

export const IMPORT_FORMATS = ['csv', 'tsv', 'xlsx', 'xls'] as const;
export type TImportFormat = (typeof IMPORT_FORMATS)[number];

/** The "sync" (duplicate resolution) half of an import; its id is the import's id. */
export const SYNC_STATUSES = ['waiting', 'pending', 'processing', 'completed', 'failed', 'cancelled'] as const;
export const ZSyncImport = z.object({
  id: z.number(),
  status: z.enum(SYNC_STATUSES),
  progress: z.number(),
  duplicates_resolved: z.boolean(),
  duplicates_resolved_count: z.number(),
  leads_processed: z.number(),
});
export type TSyncImport = z.infer<typeof ZSyncImport>;

/** A column of the uploaded document (`processing_document_attribute`). */
export const ZImportColumn = z.object({
  id: z.number(),
  name: z.string(),
  col_position: z.number(),
  /** The lead attribute it is mapped to (proposed after upload, chosen after Match Format). */
  lead_attribute_id: z.number().nullable(),
  ignored: z.boolean(),
  /**
   * Match Format proposes a new attribute of the column's name for it: no attribute matched it and
   * it is not a contact app's bookkeeping column (a phone's label), so importing at once keeps it.
   */
  new_proposed: z.boolean().optional(),
});

export const ZImportFile = z.object({
  id: z.number(),
  name: z.string(),
  client_original_name: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  finished_at: z.string().nullable(),
  source_id: z.number(),
  list_id: z.number(),
  black_list: z.boolean(),
  format: z.enum(IMPORT_FORMATS),
  encoding: z.string().nullable(),
  delimiter: z.string().nullable(),
  size_bytes: z.number(),
  status: ZImportStatus,
  stage: ZImportStage.nullable(),
  progress: z.number(),
  /** True once the import has finished, either way. */
  processed: z.boolean(),
  mapped: z.boolean(),
  /** The mapping asked for a lookup of the list once the import completes (decision 041). */
  check_mobile_status: z.boolean(),
  parsed_leads_count: z.number(),
  leads_processed: z.number(),
  /** Imported leads whose phones no earlier lead of the team held (shown as Unique). */
  leads_total: z.number(),
  duplicates_resolved: z.boolean(),
  /** Imported leads with a phone an earlier lead already held, in this file or before it (Duplicates). */
  duplicates_resolved_count: z.number(),
  leads_failed: z.number(),
  ignored_phones_count: z.number(),
  invalid_format_phones_count: z.number(),
  /** Imported leads that hold no phone (an e-mail-only row, say). */
  leads_without_phone: z.number(),
  error: z.string().nullable(),
  error_code: z.string().nullable(),
  /** A failed import that kept what it published and can go on from there (`PUT sync-import/{id}`). */
  resumable: z.boolean(),
  /**
   * `POST imports/{id}/cancel` would take it: an upload never run (discarded at once), a queued or
   * running import, or a failed one that kept its staging (what it published is taken back).
   */
  cancellable: z.boolean(),
  process_id: z.number().nullable(),
  attributes: z.array(ZImportColumn),
  /** The first rows of the document, one string per column. */
  preview: z.array(z.array(z.string())),
  sync_import: ZSyncImport,
});
export type TImportFile = z.infer<typeof ZImportFile>;

export const ZImportHistoryItem = ZImportFile.omit({ attributes: true, preview: true });
export const ZImportHistoryPage = z.object({ data: z.array(ZImportHistoryItem), meta: ZPageMeta });
export const ZActiveImports = z.object({ data: z.array(ZImportHistoryItem) });

/** The types Match Format may give a new attribute. */
export const NEW_ATTRIBUTE_TYPES = ['string', 'number', 'date', 'url'] as const;
export type TNewAttributeType = (typeof NEW_ATTRIBUTE_TYPES)[number];

/** Match Format: each column mapped to an attribute, ignored, or made a new attribute by name. */
export const ZImportMappingRequest = z.object({
  list: z
    .array(
      z.object({
        processing_document_attribute_id: z.coerce.number().int().positive(),
        lead_attribute_id: z.coerce.number().int().positive().nullable().optional(),
        name: z.string().trim().min(1).max(80).optional(),
        type: z.enum(NEW_ATTRIBUTE_TYPES).optional(),
        ignore: z.boolean().optional(),
      }),
    )
    .min(1)
    .max(500),
  /** A carrier lookup of the imported phones: refused until lookups exist (decision 009). */
  check_mobile_status: z.union([z.boolean(), z.enum(['1', '0'])]).optional(),
});
export type TImportMappingRequest = z.infer<typeof ZImportMappingRequest>;

export const ZSyncImportUpdate = z.object({ status: z.literal('pending') });
export const ZBlackListUpdate = z.object({ black_list: z.union([z.boolean(), z.enum(['1', '0'])]) });

/** A row of the file that was not imported, shown like a lead with its values. */
export const ZFailedLead = z.object({
  id: z.number(),
  row_number: z.number(),
  /** In English, for API clients; the web translates `reason_message`. */
  reason: z.string(),
  reason_message: ZMessage,
  duplicates: z.number(),
  status: z.literal('failed'),
  lead_values: z.array(z.object({ attribute: z.object({ id: z.number(), name: z.string() }), value: z.string() })),
});
export const ZFailedLeadsPage = z.object({
  data: z.array(ZFailedLead),
  meta: ZPageMeta,
  attributes: z.array(z.object({ id: z.number(), name: z.string() })),
  orderable: z.array(z.string()),
});

/**
 * `GET /import-files/{id}/leads-failed/export`, every failed row of an import for the web to save as
 * a CSV (with its reasons in the user's language): newline-delimited JSON, this line first…
 */
export const ZFailedRowsHead = z.object({ attributes: z.array(z.object({ id: z.number(), name: z.string() })) });
export type TFailedRowsHead = z.infer<typeof ZFailedRowsHead>;
/** …then one line a row, in row order: its values by the head's attributes (several joined with `; `). */
export const ZFailedRowLine = z.object({
  row_number: z.number(),
  reason: z.string(),
  reason_message: ZMessage,
  values: z.array(z.string()),
});
export type TFailedRowLine = z.infer<typeof ZFailedRowLine>;

export const ZImportStatusEvent = z.object({
  id: z.number(),
  name: z.string(),
  stage: ZImportStage,
  status: ZImportStatus,
  progress: z.number(),
  parsed_leads_count: z.number(),
  leads_processed: z.number(),
  /** Rows refused so far; a completed import with some shows how many, and where. */
  leads_failed: z.number().optional(),
  error: z.string().nullable(),
  error_code: z.string().nullable(),
});
export type TImportStatusEvent = z.infer<typeof ZImportStatusEvent>;

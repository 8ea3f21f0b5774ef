import type { TAttributeType } from '@herald/shared/attributes/attributes.schemas';
import type { TMessage } from '@herald/shared/common/messages';
import type { TImportFormat } from '@herald/shared/imports/imports.schemas';

/**
 * Joins the values one cell holds for its attribute (a contact app's ` ::: `, or lines) in a staged
 * field; publishing splits them into values of their own. A cell's own text never holds it (the
 * parser drops it from every cell, as it does NUL).
 */
export const VALUE_SEPARATOR = '\u001f';

/** A mapped column: which cell of a row goes to which attribute. */
export interface MappedColumn {
  position: number;
  attributeId: number;
  type: TAttributeType;
}

export interface ParseJob {
  mode: 'preview' | 'full';
  path: string;
  format: TImportFormat;
  encoding: string | null;
  delimiter: string | null;
  previewRows?: number;
  columns?: MappedColumn[];
  /** The team's ignored phone formats, as typed in settings (compiled in the worker). */
  ignoredFormats?: string;
  /** The team's default phone country (decision 011). */
  defaultCountry?: string;
  batchSize?: number;
  /** Batches as COPY text (`row_no`, then one field per mapped column) instead of arrays (PostgreSQL). */
  copyText?: boolean;
  /**
   * Rows up to this number are staged already (a resumed run): they are read and counted again,
   * but not staged twice (failed ones are reported again; they are kept once).
   */
  stagedThrough?: number;
}

export interface ParseCounts {
  parsed: number;
  good: number;
  failed: number;
  ignoredPhones: number;
  invalidPhones: number;
}

export interface FailedRow {
  row: number;
  /** In English, for search and API clients; `message` is what the web translates. */
  reason: string;
  message?: TMessage;
  cells: Array<{ attribute_id: number; value: string }>;
}

export type ParseMessage =
  | { type: 'preview'; header: string[]; rows: string[][]; complete: boolean }
  | {
      type: 'batch';
      /** Row numbers (1-based, counting non-empty data rows) and one array per mapped column. */
      rowNos: number[];
      cols: Array<Array<string | null>>;
      /** With `copyText`: the good rows as lines of PostgreSQL COPY text format (rowNos/cols stay empty). */
      copy?: string;
      failed: FailedRow[];
      /** Good rows in this batch, and the row number of its last one (0 when it has none). */
      staged: number;
      lastRowNo: number;
      counts: ParseCounts;
      bytesRead: number;
    }
  | { type: 'done'; counts: ParseCounts; bytesRead: number }
  /** `code`: why, when the reader knows (an import failure code, see import-failure.ts). */
  | { type: 'error'; message: string; code?: string };

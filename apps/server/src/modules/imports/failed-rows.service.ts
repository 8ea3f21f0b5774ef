import type { TLeadAttribute } from '@herald/shared/attributes/attributes.schemas';
import { joinValues } from '@herald/shared/common/csv-cells';
import type { TMessage } from '@herald/shared/common/messages';
import { pageMeta, type TPageQuery } from '@herald/shared/common/pagination.schemas';
import type { TFailedRowLine, TFailedRowsHead } from '@herald/shared/imports/imports.schemas';
import type { AuthUser } from '../../auth/authenticate.ts';
import { AppError } from '../../http/app-error.ts';
import { pageArgs } from '../../http/paging.ts';
import type { FailedRowsRepository } from './failed-rows.repository.ts';
import type { ImportsRepository } from './imports.repository.ts';

/** Failed rows read at once for their export: at most 100,000 are kept an import. */
const FAILED_EXPORT_BATCH = 2000;
const FAILED_ORDER = ['id', 'row_number', 'reason'] as const;

/** A failed row's reason in English and as the message the web translates (older rows: its English). */
function reasonOf(row: { reason: string; reason_message: TMessage | null }) {
  return { reason: row.reason, reason_message: row.reason_message ?? { code: row.reason } };
}

/** An import's failed rows: the history screen's list, and all of them for the CSV. */
export function createFailedRowsService(deps: {
  repo: ImportsRepository;
  failedRows: FailedRowsRepository;
  attributes: (teamId: number) => Promise<TLeadAttribute[]>;
}) {
  const { repo, failedRows } = deps;

  async function requireImport(teamId: number, id: number) {
    if (!(await repo.findById(teamId, id))) throw new AppError('not_found', 'Import not found.');
  }

  /**
   * The attributes an import's columns were mapped to (`mapped`, once each in column order, with
   * their names), and every attribute's name by id.
   */
  async function mappedAttributes(teamId: number, id: number) {
    const [columns, attributes] = await Promise.all([repo.columns(teamId, id), deps.attributes(teamId)]);
    const names = new Map(attributes.map((a) => [a.id, a.name]));
    const ids = new Set(columns.flatMap((c) => (c.lead_attribute_id && !c.ignored ? [c.lead_attribute_id] : [])));
    return { names, mapped: [...ids].map((aid) => ({ id: aid, name: names.get(aid) ?? '' })) };
  }

  return {
    async failedLeads(user: AuthUser, id: number, query: TPageQuery) {
      await requireImport(user.teamId, id);
      const [{ rows, total }, { names, mapped }] = await Promise.all([
        failedRows.findPage(user.teamId, id, pageArgs(query, FAILED_ORDER, { field: 'row_number', dir: 'asc' })),
        mappedAttributes(user.teamId, id),
      ]);
      return {
        data: rows.map((r) => ({
          id: r.id,
          row_number: r.row_number,
          ...reasonOf(r),
          duplicates: 0,
          status: 'failed' as const,
          lead_values: r.cells.map((c) => ({
            attribute: { id: c.attribute_id, name: names.get(c.attribute_id) ?? '' },
            value: c.value,
          })),
        })),
        meta: pageMeta(query.page, query.limit, total),
        attributes: mapped,
        orderable: [...FAILED_ORDER],
      };
    },

    /**
     * Every failed row of an import as NDJSON lines (`ZFailedRowsHead`, then `ZFailedRowLine`s),
     * read in keyset batches so a hundred thousand rows never sit in memory at once.
     */
    async failedRowsExport(user: AuthUser, id: number): Promise<AsyncIterable<string>> {
      await requireImport(user.teamId, id);
      const { mapped } = await mappedAttributes(user.teamId, id);
      const head: TFailedRowsHead = { attributes: mapped };
      async function* lines() {
        yield `${JSON.stringify(head)}\n`;
        for (let after = 0; ; ) {
          const rows = await failedRows.findAfter(user.teamId, id, after, FAILED_EXPORT_BATCH);
          // One chunk a batch, not a row: a hundred thousand tiny writes would cost more than the rows.
          yield rows
            .map((r) => {
              const line: TFailedRowLine = {
                row_number: r.row_number,
                ...reasonOf(r),
                values: mapped.map((a) =>
                  joinValues(r.cells.filter((c) => c.attribute_id === a.id).map((c) => c.value)),
                ),
              };
              return `${JSON.stringify(line)}\n`;
            })
            .join('');
          if (rows.length < FAILED_EXPORT_BATCH) return;
          after = rows[rows.length - 1].row_number;
        }
      }
      return lines();
    },
  };
}

export type FailedRowsService = ReturnType<typeof createFailedRowsService>;

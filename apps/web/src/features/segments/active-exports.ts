import type { TExport } from '@herald/shared/segments/segments.schemas';

/**
 * The active exports with one just started. Its `ExportStatus` events may have come before the
 * answer to the request that started it (a small export is done in a moment, and the event stream
 * does not wait for the response): what they brought is newer than the pending export answered,
 * which would otherwise show "Generating file" for good.
 */
export function withStartedExport(old: { data: TExport[] } | undefined, started: TExport): { data: TExport[] } {
  const list = old?.data ?? [];
  return list.some((e) => e.id === started.id) ? { data: list } : { data: [started, ...list] };
}

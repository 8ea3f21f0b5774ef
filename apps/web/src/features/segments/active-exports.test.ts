import type { TExport } from '@herald/shared/segments/segments.schemas';
import { describe, expect, it } from 'vitest';
import { withStartedExport } from './active-exports.ts';

const exportOf = (id: number, type: TExport['type']): TExport => ({
  id,
  name: `export ${id}`,
  segment_id: 1,
  type,
  rows: type === 'export-completed' ? 2 : 0,
  progress: type === 'export-completed' ? 100 : 0,
  url: type === 'export-completed' ? `/api/exports/${id}/download` : null,
  error: null,
  created_at: '2026-11-24T10:00:00.000Z',
});

describe('an export just started, among the active ones', () => {
  it('goes first when no event has told of it yet', () => {
    const older = exportOf(1, 'export-completed');
    expect(withStartedExport({ data: [older] }, exportOf(2, 'export-pending')).data.map((e) => e.id)).toEqual([2, 1]);
    expect(withStartedExport(undefined, exportOf(2, 'export-pending')).data).toHaveLength(1);
  });

  it('keeps what its events brought when they came before the answer', () => {
    const done = exportOf(2, 'export-completed');
    const list = withStartedExport({ data: [done] }, exportOf(2, 'export-pending')).data;
    expect(list).toEqual([done]);
  });
});

import type { TImportFile, TImportStatusEvent } from '@herald/shared/imports/imports.schemas';
import { describe, expect, it } from 'vitest';
import { applyImportEvent, isImportRunning, phaseOf, progressOf } from './import-phase.ts';

const file = (over: Partial<TImportFile>) =>
  ({
    status: 'parsing',
    stage: 'parse',
    progress: 40,
    parsed_leads_count: 400,
    leads_processed: 300,
    error: null,
    processed: false,
    sync_import: { progress: 0 },
    ...over,
  }) as TImportFile;

describe('import phases', () => {
  it('shows a file taken back after it broke as Failing, running, with the take-back progress', () => {
    const event: TImportStatusEvent = {
      id: 1,
      name: 'broken.xlsx',
      stage: 'rolling_back',
      status: 'parsing',
      progress: 35,
      parsed_leads_count: 400,
      leads_processed: 200,
      error: 'invalid stored block lengths',
      error_code: 'import_file_broken',
    };
    const folded = applyImportEvent(file({}), event);
    expect(phaseOf(folded)).toBe('failing');
    expect(isImportRunning(folded)).toBe(true);
    expect(progressOf(folded)).toBe(35);
    expect(folded).toMatchObject({
      error: 'invalid stored block lengths',
      error_code: 'import_file_broken',
      processed: false,
    });
    // Resolving when it broke (a resumed run re-reading the file) is shown the same.
    expect(phaseOf({ status: 'resolving', stage: 'rolling_back' })).toBe('failing');
  });

  it('ends Failed once the take-back is done, and keeps the spec states otherwise', () => {
    expect(phaseOf({ status: 'failed', stage: 'failed' })).toBe('failed');
    expect(isImportRunning({ status: 'failed', stage: 'failed' })).toBe(false);
    expect(phaseOf({ status: 'parsing', stage: 'parse' })).toBe('running');
    expect(phaseOf({ status: 'parsing', stage: 'resolve_duplicates' })).toBe('resolving');
    expect(phaseOf({ status: 'cancel_queued', stage: 'parse' })).toBe('cancelling');
  });
});

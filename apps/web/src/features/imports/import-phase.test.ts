import type { TImportFile, TImportStatusEvent } from '@herald/shared/imports/imports.schemas';
import { describe, expect, it } from 'vitest';
import {
  applyImportEvent,
  dispatchedImport,
  importActionsOf,
  isImportRunning,
  phaseOf,
  progressOf,
} from './import-phase.ts';

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

  it("offers Cancel where the server's `cancellable` says, Discard for an upload, Resume when resumable", () => {
    const actions = (status: TImportFile['status'], over: Partial<TImportFile> = {}) =>
      importActionsOf({ status, stage: null, cancellable: false, resumable: false, ...over });
    // Failed before anything was published but kept its staging (an attribute deleted): the server
    // takes the cancel, whatever the counters say.
    expect(actions('failed', { cancellable: true, leads_processed: 0 } as Partial<TImportFile>)).toEqual({
      continue: false,
      resume: false,
      cancel: 'cancel',
    });
    expect(actions('failed', { cancellable: true, resumable: true })).toEqual({
      continue: false,
      resume: true,
      cancel: 'cancel',
    });
    expect(actions('failed')).toEqual({ continue: false, resume: false, cancel: null });
    // An upload never run is continued (mapped and run) or discarded.
    expect(actions('uploaded', { cancellable: true })).toEqual({ continue: true, resume: false, cancel: 'discard' });
    expect(actions('parsing', { cancellable: true })).toEqual({ continue: false, resume: false, cancel: 'cancel' });
    // A broken file already being taken back: nothing to add.
    expect(actions('parsing', { stage: 'rolling_back', cancellable: true })).toEqual({
      continue: false,
      resume: false,
      cancel: null,
    });
    expect(actions('cancel_queued')).toEqual({ continue: false, resume: false, cancel: null });
  });

  it('folds what an event allows: a running import can be cancelled, an ended one waits to be read again', () => {
    const event = (status: TImportStatusEvent['status']): TImportStatusEvent => ({
      id: 1,
      name: 'big.csv',
      stage: status === 'failed' ? 'failed' : status === 'cancel_queued' ? 'cancelling' : 'parse',
      status,
      progress: 10,
      parsed_leads_count: 0,
      leads_processed: 0,
      error: null,
      error_code: null,
    });
    const running = applyImportEvent(file({ status: 'queued', cancellable: true }), event('parsing'));
    expect(importActionsOf(running)).toEqual({ continue: false, resume: false, cancel: 'cancel' });
    const cancelling = applyImportEvent(running, event('cancel_queued'));
    expect(importActionsOf(cancelling)).toEqual({ continue: false, resume: false, cancel: null });
    const failed = applyImportEvent(running, event('failed'));
    expect(importActionsOf(failed)).toEqual({ continue: false, resume: false, cancel: null });
  });
});

describe('the answer to a dispatch', () => {
  const answered = file({ id: 7, status: 'queued', stage: 'parse', progress: 0 });
  it('replaces the upload it ran, or nothing', () => {
    expect(dispatchedImport(file({ id: 7, status: 'uploaded' }), answered)).toBe(answered);
    expect(dispatchedImport(undefined, answered)).toBe(answered);
  });
  it('does not take back what the events told first', () => {
    const done = file({ id: 7, status: 'completed', stage: 'end_resolve_duplicates' });
    expect(dispatchedImport(done, answered)).toBe(done);
  });
});

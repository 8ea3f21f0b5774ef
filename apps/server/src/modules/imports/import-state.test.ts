import { CANCELLABLE_RUNS, IMPORT_STATUSES } from '@herald/shared/imports/imports.schemas';
import { describe, expect, it } from 'vitest';
import { canMove, fromOf, IMPORT_MOVES, targetOf, transition } from './import-state.ts';

describe('the moves of an import’s status', () => {
  it('starts every import at uploaded and ends it completed, failed or cancelled', () => {
    const ends = IMPORT_STATUSES.filter((s) => !Object.values(IMPORT_MOVES).some((m) => s in m));
    expect(ends.sort()).toEqual(['cancelled', 'completed']);
    // Failed is an end too, unless its staging was kept: then it may resume or be cancelled.
    expect(fromOf('resume')).toEqual(['failed']);
  });

  it('reads the file, publishes it, then completes or fails', () => {
    expect(transition({ status: 'uploaded' }, 'dispatch')).toBe('queued');
    expect(transition({ status: 'queued', parsed_at: null }, 'claim')).toBe('parsing');
    expect(transition({ status: 'queued', parsed_at: new Date() }, 'claim')).toBe('resolving');
    expect(transition({ status: 'parsing' }, 'publish')).toBe('resolving');
    expect(transition({ status: 'resolving' }, 'complete')).toBe('completed');
    expect(transition({ status: 'parsing' }, 'fail')).toBe('failed');
  });

  it('cancels one never run at once, and a started one through a run that takes it back', () => {
    expect(transition({ status: 'uploaded' }, 'cancel')).toBe('cancelled');
    expect(fromOf('cancelRun')).toEqual([...CANCELLABLE_RUNS, 'failed']);
    expect(transition({ status: 'cancel_queued' }, 'claim')).toBe('cancelling');
    expect(transition({ status: 'cancelling' }, 'takenBack')).toBe('cancelled');
  });

  it('sends an orphaned run back to wait, a cancelling one to wait for its take-back', () => {
    expect(transition({ status: 'parsing' }, 'orphan')).toBe('queued');
    expect(transition({ status: 'resolving' }, 'orphan')).toBe('queued');
    expect(transition({ status: 'cancelling' }, 'orphan')).toBe('cancel_queued');
  });

  it('refuses every other move', () => {
    expect(() => transition({ status: 'completed' }, 'fail')).toThrow();
    expect(() => transition({ status: 'cancelling' }, 'complete')).toThrow();
    expect(() => transition({ status: 'uploaded' }, 'claim')).toThrow();
    expect(canMove('completed', 'queued')).toBe(false);
    expect(canMove('cancelled', 'cancel_queued')).toBe(false);
    expect(canMove('failed', 'queued')).toBe(true);
  });

  it('names one target for the events that set a status wherever they start', () => {
    expect(targetOf('fail')).toBe('failed');
    expect(targetOf('cancelRun')).toBe('cancel_queued');
    expect(targetOf('publish')).toBe('resolving');
  });
});

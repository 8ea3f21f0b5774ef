import type { TProcess } from '@herald/shared/processes/processes.schemas';

const STATUS_COLOR: Record<TProcess['status'], string> = {
  queued: 'gray',
  running: 'blue',
  completed: 'teal',
  failed: 'red',
  cancelled: 'gray',
};

/**
 * Phases that colour a running process otherwise than blue, per kind: an import resolving
 * duplicates, or taking back its leads after a broken file (red) or a cancel (grey).
 */
const PHASE_COLOR: Record<string, Record<string, string>> = {
  'imports.run': { resolving: 'grape', failing: 'red', cancelling: 'gray' },
};

/** A running process's phase, when it has one; an ended process shows only its status. */
const phaseOf = (process: TProcess) => (process.status === 'running' ? process.phase : null);

export function processColor(process: TProcess): string {
  const phase = phaseOf(process);
  return (phase && PHASE_COLOR[process.kind]?.[phase]) || STATUS_COLOR[process.status];
}

/**
 * The translation keys of a process's badge, first found wins: its kind's name for the phase
 * (`processes.phase.<kind>.<phase>`, so `imports.run` nests as `imports` → `run`), else its status.
 */
export function processLabelKeys(process: TProcess): string[] {
  const phase = phaseOf(process);
  const status = `processes.status.${process.status}`;
  return phase ? [`processes.phase.${process.kind}.${phase}`, status] : [status];
}

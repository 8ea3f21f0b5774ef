import { exportReadyOf, leadsFailedOf, type TProcess } from '@herald/shared/processes/processes.schemas';

const STATUS_COLOR: Record<TProcess['status'], string> = {
  queued: 'gray',
  running: 'blue',
  paused: 'yellow',
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

/**
 * What a process's line says under its bar, from its message's code and params: the rows an
 * import refused (a link to them), nothing for an export's file (its download is shown instead),
 * or a text to translate: the process's own words for its code (a campaign's `sent / messages`),
 * else a failure's reason from the imports' list, else the errors', else that the job failed. The
 * params go to the translation.
 */
export type ProcessNote =
  | { kind: 'rows_failed'; count: number; importId: number }
  | { kind: 'text'; keys: string[]; params: Record<string, string | number> }
  | null;

export function processNote(process: TProcess): ProcessNote {
  const { message } = process;
  if (!message || exportReadyOf(message) !== null) return null;
  const failed = leadsFailedOf(message);
  if (failed) return { kind: 'rows_failed', ...failed };
  const { code, params } = message;
  // A code a kind of process words itself (a campaign's figures, why it paused) comes first.
  return {
    kind: 'text',
    keys: [`processes.message.${code}`, `imports:failure.${code}`, `errors:${code}`, 'processes.failure'],
    params,
  };
}

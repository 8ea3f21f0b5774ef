// Messages between the main thread and the PGlite worker.
export type WorkerRequest =
  | { id: number; type: 'query'; sql: string; params: unknown[] }
  | { id: number; type: 'exec'; sql: string }
  | { id: number; type: 'close' };

export interface WorkerResult {
  rows: Record<string, unknown>[];
  affectedRows: number;
}

export interface WorkerError {
  message: string;
  code?: string;
  detail?: string;
  constraint?: string;
}

export type WorkerResponse = { id: number; result: WorkerResult } | { id: number; error: WorkerError };

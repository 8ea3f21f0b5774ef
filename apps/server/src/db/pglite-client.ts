import { Worker } from 'node:worker_threads';
import { type ConnectionPriority, currentPriority } from './connection-priority.ts';
import type { WorkerError, WorkerRequest, WorkerResponse, WorkerResult } from './pglite-protocol.ts';

type DistributiveOmit<T, K extends keyof T> = T extends unknown ? Omit<T, K> : never;

/** An error raised by PostgreSQL inside the worker, carrying its SQLSTATE like pg's DatabaseError. */
export class DatabaseError extends Error {
  code?: string;
  detail?: string;
  constraint?: string;
  constructor(error: WorkerError) {
    super(error.message);
    this.name = 'DatabaseError';
    this.code = error.code;
    this.detail = error.detail;
    this.constraint = error.constraint;
  }
}

/**
 * Interactive acquisitions granted in a row while bulk ones wait, before one bulk acquisition goes:
 * bulk work always progresses, however many requests arrive.
 */
export const INTERACTIVE_BEFORE_BULK = 16;

/**
 * After an interactive holder releases, how long waiting bulk work is held back for the same
 * request's next statement. A page's request runs several statements one after another; without
 * this, bulk work took the connection between each two, and the request waited a bulk hold per
 * statement instead of once (decision 013).
 */
export const INTERACTIVE_FOLLOW_UP_MS = 5;

/**
 * The one connection to PGlite running in a worker thread. Callers take the lock (`acquire`) to
 * use it; it is held per query, or for the whole of a transaction, so statements of concurrent
 * callers never interleave inside someone else's transaction. Waiting callers form two FIFO
 * queues: interactive ones are granted the connection before bulk ones (decision 013).
 */
export class PgliteClient {
  #worker: Worker;
  #nextId = 1;
  #pending = new Map<number, { resolve: (r: WorkerResult) => void; reject: (e: Error) => void }>();
  #interactive: Array<() => void> = [];
  #bulk: Array<() => void> = [];
  /** Interactive grants since bulk work last had the connection while it waited. */
  #streak = 0;
  #locked = false;
  #lockedSince = 0;
  /** Set while the connection is kept for an interactive follow-up (see INTERACTIVE_FOLLOW_UP_MS). */
  #followUp: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(dataDir: string | undefined) {
    this.#worker = new Worker(new URL('./pglite-worker.ts', import.meta.url), { workerData: { dataDir } });
    this.#worker.on('message', (message: WorkerResponse) => {
      const pending = this.#pending.get(message.id);
      if (!pending) return;
      this.#pending.delete(message.id);
      if ('error' in message) pending.reject(new DatabaseError(message.error));
      else pending.resolve(message.result);
    });
    this.#worker.on('error', (error) => {
      for (const pending of this.#pending.values()) pending.reject(error);
      this.#pending.clear();
    });
  }

  /**
   * Waits for the connection; resolves with a release function. Interactive callers (the default)
   * go before bulk ones; each kind is FIFO. Bulk callers are those inside `runAsBulk`.
   */
  acquire(priority: ConnectionPriority = currentPriority()): Promise<() => void> {
    if (this.#closed) return Promise.reject(new Error('Database is closed'));
    return new Promise((resolve) => {
      const grant = () => {
        this.#locked = true;
        this.#lockedSince = Date.now();
        let released = false;
        resolve(() => {
          if (released) return;
          released = true;
          const bulkOnly = this.#interactive.length === 0 && this.#bulk.length > 0;
          if (priority === 'interactive' && bulkOnly && this.#streak < INTERACTIVE_BEFORE_BULK) {
            this.#followUp = setTimeout(() => {
              this.#followUp = undefined;
              this.#grantNext();
            }, INTERACTIVE_FOLLOW_UP_MS);
          } else this.#grantNext();
        });
      };
      if (!this.#locked) grant();
      else if (priority === 'interactive' && this.#followUp) {
        clearTimeout(this.#followUp);
        this.#followUp = undefined;
        if (this.#bulk.length > 0) this.#streak++;
        grant();
      } else if (priority === 'bulk') this.#bulk.push(grant);
      else this.#interactive.push(grant);
    });
  }

  #grantNext() {
    const bulkWaits = this.#bulk.length > 0;
    if (this.#interactive.length > 0 && !(bulkWaits && this.#streak >= INTERACTIVE_BEFORE_BULK)) {
      if (bulkWaits) this.#streak++;
      this.#interactive.shift()?.();
    } else if (bulkWaits) {
      this.#streak = 0;
      this.#bulk.shift()?.();
    } else {
      this.#locked = false;
    }
  }

  /** How long the current holder has had the connection, or 0 when it is free. */
  busyForMs(): number {
    return this.#locked ? Date.now() - this.#lockedSince : 0;
  }

  /** Runs one statement; the caller must hold the lock. */
  query(sql: string, params: readonly unknown[] = []): Promise<WorkerResult> {
    return this.#send({ type: 'query', sql, params: params.map(toWire) });
  }

  /** Runs a script of several statements without parameters; the caller must hold the lock. */
  exec(sql: string): Promise<WorkerResult> {
    return this.#send({ type: 'exec', sql });
  }

  /** Takes the lock, runs one statement, releases. */
  async run(sql: string, params: readonly unknown[] = []): Promise<WorkerResult> {
    const release = await this.acquire();
    try {
      return params.length === 0 && hasSeveralStatements(sql) ? await this.exec(sql) : await this.query(sql, params);
    } finally {
      release();
    }
  }

  /** Waits for the queries in flight, closes PGlite cleanly (a hard kill can damage its files). */
  async close(): Promise<void> {
    if (this.#closed) return;
    const release = await this.acquire();
    this.#closed = true;
    try {
      await this.#send({ type: 'close' });
    } finally {
      release();
      await this.#worker.terminate();
    }
  }

  #send(request: DistributiveOmit<WorkerRequest, 'id'>): Promise<WorkerResult> {
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#worker.postMessage({ ...request, id });
    });
  }
}

// PGlite serializes by the parameter types it describes (arrays, json); only undefined needs mapping.
function toWire(value: unknown): unknown {
  return value === undefined ? null : value;
}

function hasSeveralStatements(sql: string): boolean {
  const trimmed = sql.trim().replace(/;$/, '');
  return trimmed.includes(';');
}

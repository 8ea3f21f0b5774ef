/** What every benchmark receives from `bench/run.ts`. */
export interface BenchContext {
  /** Where Herald keeps its data in this run. */
  database: 'embedded' | 'postgres';
  /** PostgreSQL to run on (BENCH_DATABASE_URL); each benchmark gets a schema of its own on it. */
  databaseUrl?: string;
  /** Seconds of measured load per target (BENCH_DURATION). */
  durationSeconds: number;
  /** Progress lines on stderr, so the table on stdout stays clean. */
  log(message: string): void;
}

/** A bar from DESIGN.md §5, applied to the value itself or to its ratio against the reference. */
export interface Bar {
  op: '>=' | '<=';
  target: number;
  of: 'value' | 'ratio';
  /** Where the bar comes from, e.g. "DESIGN §5 api". */
  source: string;
}

export interface Row {
  metric: string;
  value: number;
  unit: string;
  /** The same quantity measured on a reference in the same run (bare server, bare COPY, …). */
  reference?: { value: number; label: string };
  bar?: Bar;
}

export interface Benchmark {
  name: string;
  description: string;
  run(ctx: BenchContext): Promise<Row[]>;
}

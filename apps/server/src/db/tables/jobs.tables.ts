import type { ColumnType } from 'kysely';

/** A token bucket every worker shares (migration 0025, jobs/rate-buckets.ts). */
export interface RateBucketsTable {
  key: string;
  tokens: number;
  /** Tokens a second. */
  rate: number;
  burst: number;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface JobsTables {
  rate_buckets: RateBucketsTable;
}

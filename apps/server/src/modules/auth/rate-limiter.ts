import { type Kysely, sql } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { AppError } from '../../http/app-error.ts';

/**
 * Fixed-window counters in the database, so every API process shares them. `hit` counts an
 * attempt and throws 429 once `limit` attempts fall in the window; callers run it before any
 * password hashing, so a flood costs one small UPDATE per request.
 */
export function createRateLimiter(db: Kysely<DB>) {
  return {
    async hit(key: string, limit: number, windowMs: number): Promise<void> {
      const resetAt = new Date(Date.now() + windowMs);
      const row = await db
        .insertInto('rate_limits')
        .values({ key, hits: 1, reset_at: resetAt })
        .onConflict((oc) =>
          oc.column('key').doUpdateSet({
            hits: sql<number>`case when rate_limits.reset_at <= now() then 1 else rate_limits.hits + 1 end`,
            reset_at: sql<Date>`case when rate_limits.reset_at <= now() then excluded.reset_at else rate_limits.reset_at end`,
          }),
        )
        .returning(['hits'])
        .executeTakeFirstOrThrow();
      if (row.hits > limit) throw new AppError('too_many_requests');
    },
    async reset(key: string): Promise<void> {
      await db.deleteFrom('rate_limits').where('key', '=', key).execute();
    },
  };
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;

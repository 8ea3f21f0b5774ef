import { type Kysely, sql } from 'kysely';
import type { DB } from '../db/schema.ts';

/** One bucket: `rate` tokens a second up to `burst` (e.g. `gateway:7`, SMS parts a second). */
export interface Bucket {
  key: string;
  rate: number;
  burst: number;
}

export interface Taken {
  /** Tokens taken from every bucket (0 to `want`). */
  granted: number;
  /** When fewer than wanted: how long until the scarcest bucket would have held all that was wanted. */
  waitMs: number;
}

/**
 * Token buckets kept in the database, so every worker of every process draws on one rate
 * (decision 024). A take refills each bucket by `rate · Δt` up to `burst`, grants what the scarcest
 * one holds (at most `want`) and subtracts it from all; rows are locked in key order, so two takes
 * over the same buckets wait for each other and cannot deadlock. `at` replaces the database clock
 * (tests drive time themselves).
 */
export async function takeTokens(db: Kysely<DB>, buckets: Bucket[], want: number, at?: Date): Promise<Taken> {
  if (buckets.length === 0 || want <= 0) return { granted: Math.max(0, want), waitMs: 0 };
  const sorted = [...buckets].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const keys = sorted.map((b) => b.key);
  const rates = sorted.map((b) => b.rate);
  const bursts = sorted.map((b) => Math.max(1, b.burst));
  const clock = sql`coalesce(${at ?? null}::timestamptz, clock_timestamp())`;
  return db.transaction().execute(async (tx) => {
    // A new bucket starts full; its row exists before it is locked.
    await sql`insert into rate_buckets (key, tokens, rate, burst, updated_at)
      select key, burst, rate, burst, ${clock}
      from unnest(${keys}::text[], ${rates}::float8[], ${bursts}::float8[]) as p(key, rate, burst)
      order by key
      on conflict (key) do nothing`.execute(tx);
    await sql`select key from rate_buckets where key = any(${keys}::text[]) order by key for update`.execute(tx);
    const rows = await sql<{ granted: number; avail: number; rate: number }>`
      with p as (
        select * from unnest(${keys}::text[], ${rates}::float8[], ${bursts}::float8[]) as p(key, rate, burst)
      ), t as (select ${clock} as at), b as (
        select r.key, p.rate, p.burst,
          least(p.burst, r.tokens + p.rate * greatest(0, extract(epoch from (t.at - r.updated_at)))) as avail
        from rate_buckets r join p using (key), t
      ), g as (select greatest(0, least(${want}::int, floor(min(avail))))::int as n from b)
      update rate_buckets r set tokens = b.avail - g.n, rate = b.rate, burst = b.burst, updated_at = t.at
      from b, g, t where r.key = b.key
      returning g.n as granted, b.avail::float8 as avail, b.rate::float8 as rate`.execute(tx);
    const granted = Number(rows.rows[0]?.granted ?? 0);
    let waitMs = 0;
    if (granted < want)
      for (const r of rows.rows) {
        const short = want - Number(r.avail);
        if (short > 0 && Number(r.rate) > 0) waitMs = Math.max(waitMs, Math.ceil((short / Number(r.rate)) * 1000));
      }
    return { granted, waitMs };
  });
}

/** Tokens taken and not used (a 429, fewer rows than granted) go back, up to each bucket's burst. */
export async function giveBackTokens(db: Kysely<DB>, keys: string[], n: number): Promise<void> {
  if (keys.length === 0 || n <= 0) return;
  const sorted = [...new Set(keys)].sort();
  await sql`update rate_buckets set tokens = least(burst, tokens + ${n}::float8)
    where key in (select key from rate_buckets where key = any(${sorted}::text[]) order by key for update)`.execute(db);
}

/**
 * Takes `want` tokens, waiting for the refill in between (a single SMS waits its turn);
 * false when `deadline` (epoch ms) would pass first: the caller then queues the work instead.
 */
export async function waitForTokens(
  db: Kysely<DB>,
  buckets: Bucket[],
  want: number,
  deadline: number,
): Promise<boolean> {
  let need = want;
  for (;;) {
    const { granted, waitMs } = await takeTokens(db, buckets, need);
    need -= granted;
    if (need <= 0) return true;
    if (Date.now() + waitMs > deadline) {
      await giveBackTokens(
        db,
        buckets.map((b) => b.key),
        want - need,
      );
      return false;
    }
    await new Promise((r) => setTimeout(r, Math.max(5, waitMs)));
  }
}

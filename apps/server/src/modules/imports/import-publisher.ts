import type { SliceSizer } from '../../db/slice-sizer.ts';
import type { createImportStaging, PublishArgs } from './import-staging.repository.ts';

/** A run of staged rows ready to publish: row numbers up to `hi`, `rows` of them. */
export interface StagedRange {
  hi: number;
  rows: number;
}

export interface PublisherOptions {
  staging: ReturnType<typeof createImportStaging>;
  /** Everything of a chunk but its bounds. */
  args: Omit<PublishArgs, 'lo' | 'hi'>;
  /** The high-water mark this run starts from. */
  from: number;
  /** Rows per chunk, told each chunk's hold. */
  chunks: SliceSizer;
  concurrency: number;
  signal: AbortSignal;
  /** After each chunk commits, in order, with the rows this run has published so far. */
  onChunk: (publishedRows: number) => Promise<void>;
}

/**
 * Publishes staged rows in chunks while they are still being staged (decision 009, "Publishing
 * while parsing"): the parse adds each committed batch, a chunk goes out once the sizer's rows
 * wait, and up to `concurrency` chunks run at once, committing in file order (staging.publish).
 * The parse does not wait for it (on the embedded database both share its one connection); `close` sends the rest and resolves when all is published, and
 * rejects with the first chunk that failed (the chunks after it fail with it).
 */
export function startPublisher(o: PublisherOptions) {
  const queue: StagedRange[] = [];
  /** Rows through `queuedHi` are in a chunk already; `unqueued` staged rows follow, through `readyHi`. */
  let queuedHi = o.from;
  let readyHi = o.from;
  let unqueued = 0;
  let staged = 0;
  let analyzedAt = 0;
  let closed = false;
  let stopped = false;
  let failure: unknown;
  let wake: (() => void) | undefined;
  // Set by every poke, so one that comes while the loop is busy is not lost before it sleeps.
  let poked = false;
  const poke = () => {
    poked = true;
    wake?.();
    wake = undefined;
  };

  /**
   * Cuts the next chunk, of exactly the sizer's rows (the last one smaller once closed). One at a
   * time, so each chunk is sized from the holds of all the chunks before it.
   */
  async function refill() {
    const size = o.chunks.size();
    if (unqueued === 0 || (!closed && unqueued < size)) return;
    const range = await o.staging.nextChunk(o.args.table, queuedHi, size, readyHi);
    if (range && (closed || range.rows >= size)) {
      queue.push(range);
      queuedHi = range.hi;
      unqueued -= range.rows;
    }
    // Rows counted but not in the table would otherwise be waited for forever once closed.
    if (closed && !range) unqueued = 0;
  }

  async function drive() {
    let lo = o.from;
    let published = 0;
    let turn: Promise<unknown> = Promise.resolve();
    let reported: Promise<unknown> = Promise.resolve();
    // A committed chunk has checked (or refreshed) the planner's view of the team's phones.
    let plannerKnowsPhones = false;
    const inflight: Array<Promise<unknown>> = [];
    try {
      while (!stopped) {
        // A free slot first, so the next chunk is sized from the holds of every chunk before it.
        while (inflight.length >= o.concurrency) await inflight.shift();
        if (queue.length === 0) await refill();
        const next = queue.shift();
        if (!next) {
          if (closed && unqueued === 0) break;
          if (!poked) await new Promise<void>((resolve) => (wake = resolve));
          poked = false;
          continue;
        }
        if (o.signal.aborted) throw new Error('The import was stopped.');
        if (failure !== undefined) throw failure;
        // The staging table grows under the publish: fresh statistics whenever it has doubled, so
        // the chunk's joins plan for its real size (a guess from an empty table plans nested loops).
        if (staged >= 2 * analyzedAt) {
          analyzedAt = staged;
          await o.staging.analyze(o.args.table);
        }
        // Stopped or failed while waiting for a slot: no chunk more.
        if (stopped) break;
        if (failure !== undefined) throw failure;
        const chunk = o.staging.publish({ ...o.args, lo, hi: next.hi, plannerKnowsPhones }, turn);
        turn = chunk;
        reported = Promise.all([chunk, reported]).then(async ([{ heldMs }]) => {
          plannerKnowsPhones = true;
          o.chunks.held(next.rows, heldMs);
          published += next.rows;
          await o.onChunk(published);
        });
        // Awaited in order below; one that fails while an earlier one is awaited (a cancel or a
        // takeover supersedes every chunk in flight) must not count as an unhandled rejection.
        // The parse hears of a failure at once, to stop reading a file that will not be published.
        reported.catch((error: unknown) => {
          failure ??= error;
        });
        inflight.push(reported);
        lo = next.hi;
      }
      await reported;
    } catch (error) {
      failure ??= error;
      throw error;
    } finally {
      // A failed chunk fails the ones after it (they wait for its turn): settle them all first.
      await Promise.allSettled(inflight);
    }
  }

  const done = drive();
  done.catch(() => {});

  return {
    /** The high-water mark this publisher started from. */
    from: o.from,
    /** Rows staged through row number `lastRowNo`, `rows` of them (a committed batch, or what a resumed run finds). */
    add(lastRowNo: number, rows: number) {
      if (rows === 0) return;
      staged += rows;
      unqueued += rows;
      readyHi = lastRowNo;
      if (unqueued >= o.chunks.size()) poke();
    },
    /** The failure that stopped publishing, if one did: the parse stops on it. */
    failure: () => failure,
    /** Everything is staged: publishes the rest and waits for all of it. */
    close() {
      closed = true;
      poke();
      return done;
    },
    /** Stops after the chunks already running (which cannot be taken back mid-transaction). */
    async stop() {
      stopped = true;
      closed = true;
      poke();
      await done.catch(() => {});
    },
  };
}

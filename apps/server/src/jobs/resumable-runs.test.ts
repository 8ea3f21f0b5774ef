import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineJob } from '@herald/shared/jobs/job-definition';
import { createResumableRuns, type RunRow, startHeartbeat } from './resumable-runs.ts';

const TEST_RUN = defineJob('test.run', z.object({ runId: z.number() }));

const row = (id: number): RunRow => ({ id, team_id: 7, user_id: 3, process_id: 100 + id });

/** A store and queue that record what the sweep asked and sent. */
function harness(embedded: boolean, pending: number[] = []) {
  const asked: Array<number | null> = [];
  const aliveAsked: number[][] = [];
  const sent: Array<{ name: string; row: RunRow; data: unknown }> = [];
  const runs = createResumableRuns({
    jobs: {
      resend: async (job, r, data) => {
        sent.push({ name: job.name, row: r as RunRow, data });
      },
      hasPending: async (_name, data) => pending.includes(data.runId as number),
    },
    job: TEST_RUN,
    store: {
      requeueOrphans: async (stale, alive) => {
        asked.push(stale);
        aliveAsked.push([...alive]);
        return [row(1)];
      },
      waitingSince: async () => [row(2), row(3)],
    },
    data: (r) => ({ runId: r.id }),
    embedded,
    staleAfterSeconds: 20,
  });
  return { runs, asked, aliveAsked, sent };
}

describe('the sweep of resumable runs', () => {
  it('on the embedded database takes every started run it is not running for an orphan, however recent its beat', async () => {
    const { runs, asked } = harness(true);
    await runs.sweep();
    await runs.sweep();
    expect(asked).toEqual([null, null]);
  });

  it('on PostgreSQL takes only stale runs, even at start: another node may be running them', async () => {
    const { runs, asked } = harness(false);
    await runs.sweep();
    expect(asked).toEqual([20]);
  });

  it('never requeues a run alive in this process, and forgets it once it has ended', async () => {
    const { runs, aliveAsked } = harness(true);
    let finish = () => {};
    const first = runs.track(5, () => new Promise<void>((r) => (finish = r)));
    // A superseded run of the same row may still be ending beside its successor.
    const second = runs.track(5, async () => 'done');
    await runs.sweep();
    await expect(second).resolves.toBe('done');
    await runs.sweep();
    finish();
    await first;
    await runs.sweep();
    expect(aliveAsked).toEqual([[5], [5], []]);
  });

  it('starts a run only after a requeue under way, whose list of live runs was taken without it', async () => {
    let release = () => {};
    const order: string[] = [];
    const runs = createResumableRuns({
      jobs: { resend: async () => {}, hasPending: async () => false },
      job: TEST_RUN,
      store: {
        requeueOrphans: async (_stale, alive) => {
          order.push(`requeue without ${alive.join(',') || 'none'}`);
          await new Promise<void>((r) => (release = r));
          order.push('requeued');
          return [] as RunRow[];
        },
        waitingSince: async () => [],
      },
      data: (r) => ({ runId: r.id }),
      embedded: true,
      staleAfterSeconds: 20,
    });
    const sweeping = runs.sweep();
    const running = runs.track(9, async () => {
      order.push('claim 9');
    });
    await new Promise((r) => setTimeout(r, 10));
    release();
    await Promise.all([sweeping, running]);
    expect(order).toEqual(['requeue without none', 'requeued', 'claim 9']);
  });

  it('sends orphans again under their process, and waiting runs only when no job is pending', async () => {
    const { runs, sent } = harness(false, [2]);
    await runs.sweep();
    expect(sent.map((s) => [s.name, s.row.process_id, s.data])).toEqual([
      ['test.run', 101, { runId: 1 }],
      ['test.run', 103, { runId: 3 }],
    ]);
  });
});

describe('a heartbeat', () => {
  it('beats until stopped', async () => {
    let beats = 0;
    const heartbeat = startHeartbeat(async () => {
      beats++;
    }, 5);
    await new Promise((r) => setTimeout(r, 60));
    await heartbeat.stop();
    const stoppedAt = beats;
    expect(stoppedAt).toBeGreaterThan(0);
    await new Promise((r) => setTimeout(r, 30));
    expect(beats).toBe(stoppedAt);
  });

  it('lets a beat that waits be, instead of piling more behind it; stop waits for it', async () => {
    let beats = 0;
    let release = () => {};
    const heartbeat = startHeartbeat(async () => {
      beats++;
      await new Promise<void>((r) => {
        release = r;
      });
    }, 5);
    await new Promise((r) => setTimeout(r, 60));
    expect(beats).toBe(1);
    let stopped = false;
    const stopping = heartbeat.stop().then(() => {
      stopped = true;
    });
    await new Promise((r) => setTimeout(r, 10));
    expect(stopped).toBe(false);
    release();
    await stopping;
    expect(beats).toBe(1);
  });
});

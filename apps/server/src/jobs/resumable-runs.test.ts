import { describe, expect, it } from 'vitest';
import { createResumableRuns, type RunRow, startHeartbeat } from './resumable-runs.ts';

const row = (id: number): RunRow => ({ id, team_id: 7, user_id: 3, process_id: 100 + id });

/** A store and queue that record what the sweep asked and sent. */
function harness(embedded: boolean, pending: number[] = []) {
  const asked: Array<number | null> = [];
  const sent: Array<{ name: string; row: RunRow; data: unknown }> = [];
  const runs = createResumableRuns({
    jobs: {
      resend: async (name, r, data) => {
        sent.push({ name, row: r as RunRow, data });
      },
      hasPending: async (_name, data) => pending.includes(data.runId as number),
    },
    job: 'test.run',
    store: {
      requeueOrphans: async (stale) => {
        asked.push(stale);
        return [row(1)];
      },
      waitingSince: async () => [row(2), row(3)],
    },
    data: (r) => ({ runId: r.id }),
    embedded,
    staleAfterSeconds: 20,
  });
  return { runs, asked, sent };
}

describe('the sweep of resumable runs', () => {
  it('takes every started run for an orphan at the embedded database’s start, then only stale ones', async () => {
    const { runs, asked } = harness(true);
    await runs.sweep(true);
    await runs.sweep(false);
    expect(asked).toEqual([null, 20]);
  });

  it('on PostgreSQL takes only stale runs, even at start: another node may be running them', async () => {
    const { runs, asked } = harness(false);
    await runs.sweep(true);
    expect(asked).toEqual([20]);
  });

  it('sends orphans again under their process, and waiting runs only when no job is pending', async () => {
    const { runs, sent } = harness(false, [2]);
    await runs.sweep(false);
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

import type { CampaignLive } from './campaign-live.ts';

export interface EngineReportDeps {
  /** Status changes and progress told to the team and the launcher's popover (decision 034). */
  live?: Pick<CampaignLive, 'changed' | 'progress' | 'sweep'>;
  /** Where a campaign that cannot move is reported (the engine keeps going and tries it again). */
  log?: { error(obj: object, msg: string): void };
  /** After the balance paused a campaign (committed): its launcher is told. */
  onBalancePaused?(campaignId: number): Promise<void>;
}

/** The same failure of one campaign is logged once a minute, not every tick. */
const REPEAT_LOG_MS = 60_000;

/**
 * What the engine tells, and when (decision 034): the campaigns it moved, once their transaction
 * committed (`moved`, then `announce`), the balance pauses' mails, and its failures — logged with
 * the campaign's id, never swallowed, while the engine keeps going.
 */
export function createEngineReport(deps: EngineReportDeps) {
  const moved = new Set<number>();
  const balancePaused = new Set<number>();
  const lastFailure = new Map<number, { text: string; at: number }>();

  function failed(campaignId: number | null, err: unknown) {
    const text = err instanceof Error ? err.message : String(err);
    const key = campaignId ?? 0;
    const last = lastFailure.get(key);
    if (last && last.text === text && Date.now() - last.at < REPEAT_LOG_MS) return;
    lastFailure.set(key, { text, at: Date.now() });
    deps.log?.error({ err, campaignId }, 'campaign engine: the campaign could not move; it is tried again next tick');
  }

  return {
    moved,
    balancePaused,
    failed,
    /** After a commit: the team's lists and the launcher's popover hear what moved; a balance pause is mailed. */
    async announce() {
      const ids = [...moved];
      const paused = [...balancePaused];
      moved.clear();
      balancePaused.clear();
      if (ids.length > 0) await deps.live?.changed(ids).catch((err) => failed(null, err));
      for (const id of paused) await deps.onBalancePaused?.(id).catch((err) => failed(id, err));
    },
    /** Each tick: the running campaigns' bars, and processes whose campaign was deleted. */
    async progress(activeIds: number[]) {
      await deps.live?.progress(activeIds).catch((err) => failed(null, err));
      await deps.live?.sweep().catch((err) => failed(null, err));
    },
  };
}

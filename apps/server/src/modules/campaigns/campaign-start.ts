import { type Kysely, sql } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { capDue } from './campaign-cap.ts';
import { renderQueued } from './campaign-engine-render.ts';
import { type CampaignRow, queueFirstStep, type StepRow } from './campaign-engine-rows.ts';
import { type AudienceSql, fixRecipientsChunk } from './campaign-recipients.repository.ts';
import type { ShortLinksMaker } from './campaigns.deps.ts';

type Db = Kysely<DB>;

export interface CampaignStartDeps {
  db: Db;
  audienceOf(teamId: number, campaignId: number): Promise<AudienceSql>;
  shortLinks: ShortLinksMaker;
  /** Leads fixed per transaction: the first chunk's messages go out while the rest are fixed. */
  chunk: number;
}

/**
 * A campaign's start a chunk of lead ids at a time (decision 036). One statement over 1,000,000
 * leads, then a million queued messages, in one transaction, kept the first message minutes away;
 * here the start fixes and queues the first chunk and the campaign turns active, and each tick
 * after fixes and queues the next, until every lead up to the team's last lead id at the start
 * (`campaigns.recipients_through`) has its bucket. Each lead still gets exactly the bucket the
 * whole statement gives it (`fixRecipientsChunk`), so the preview's figures hold.
 */
export function createCampaignStart(deps: CampaignStartDeps) {
  const { db } = deps;

  /** Fixes and queues the chunk after the last lead fixed; false when no lead was left. */
  async function nextChunk(tx: Db, c: CampaignRow, audience: AudienceSql, through: number, first?: StepRow) {
    const done = await sql<{ last: string | null }>`select max(lead_id) as last from campaign_recipients
      where campaign_id = ${c.id}`.execute(tx);
    const after = Number(done.rows[0]?.last ?? 0);
    const { last } = await fixRecipientsChunk(tx, c.id, audience, { after, through, limit: deps.chunk });
    if (last === null) {
      await sql`update campaigns set recipients_through = null where id = ${c.id}`.execute(tx);
      return { queued: 0, more: false };
    }
    let queued = 0;
    if (first) {
      queued = await queueFirstStep(tx, c, first, { after, upto: last });
      await renderQueued(tx, c.team_id, first, deps.shortLinks);
      // Before the commit: no dispatch claims a row the cap skips.
      await capDue(tx, c.id, c.team_id);
    }
    return { queued, more: true };
  }

  return {
    audienceOf: deps.audienceOf,

    /**
     * In the start's transaction: marks the range of leads the campaign reaches and fixes and
     * queues its first chunk. Answers the messages queued for step 1.
     */
    async begin(tx: Db, c: CampaignRow, audience: AudienceSql, first?: StepRow): Promise<number> {
      const marked = await sql<{ through: string | null }>`update campaigns
        set recipients_through = coalesce(recipients_through, (select max(id) from leads where team_id = ${c.team_id}), 0)
        where id = ${c.id} returning recipients_through as through`.execute(tx);
      const through = Number(marked.rows[0]?.through ?? 0);
      return (await nextChunk(tx, c, audience, through, first)).queued;
    },

    /**
     * One more chunk of a started campaign still fixing its recipients, in the caller's transaction
     * (the campaign's row locked). Answers the messages queued, and whether its fixing is done.
     */
    async proceed(
      tx: Db,
      c: CampaignRow,
      audience: AudienceSql,
      first?: StepRow,
    ): Promise<{ queued: number; fixing: boolean }> {
      const row = await sql<{ through: string | null }>`select recipients_through as through from campaigns
        where id = ${c.id}`.execute(tx);
      const through = row.rows[0]?.through;
      if (through === null || through === undefined) return { queued: 0, fixing: false };
      const { queued, more } = await nextChunk(tx, c, audience, Number(through), first);
      if (queued > 0 && first)
        await sql`update campaign_steps set recipients_count = recipients_count + ${queued}::int, updated_at = now()
          where id = ${first.id}`.execute(tx);
      return { queued, fixing: more };
    },

    /** Campaigns of these ids whose start is still fixing recipients (read before their transactions). */
    async fixing(ids: number[]): Promise<Set<number>> {
      if (ids.length === 0) return new Set();
      const r = await sql<{ id: string }>`select id from campaigns
        where id = any(${ids}::bigint[]) and recipients_through is not null`.execute(db);
      return new Set(r.rows.map((x) => Number(x.id)));
    },
  };
}

export type CampaignStart = ReturnType<typeof createCampaignStart>;

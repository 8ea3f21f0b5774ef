import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { runAsBulk } from '../../db/connection-priority.ts';
import { withLeadWrite } from '../../db/lead-store/lead-write.ts';
import type { ShortLinkRow, ShortLinksRepository } from './short-links.repository.ts';

/** How long hits wait to be written together. */
const FLUSH_MS = 100;

type Link = Pick<ShortLinkRow, 'id' | 'team_id' | 'lead_id' | 'message_id' | 'phone' | 'host' | 'redirect_to'> & {
  code: string;
};

/**
 * What a click and an unsubscribe do to the lead: the first human click marks its phone `clicked`
 * and writes the Timeline once; an unsubscribe blacklists the phone for the whole team.
 */
export function createShortLinkClicks(db: Kysely<DB>, repo: ShortLinksRepository) {
  /**
   * Hits wait here a moment and are written together, one statement for all of them: the redirect
   * then costs no write of its own, and a burst of clicks costs one update. A process that dies
   * loses at most the last `FLUSH_MS` of counts (never an unsubscribe, which is written at once).
   */
  const waiting = new Map<number, { link: Link; human: number; other: number; at: Date }>();
  let timer: NodeJS.Timeout | undefined;
  let flushing: Promise<void> = Promise.resolve();

  async function flush(): Promise<void> {
    timer = undefined;
    const batch = [...waiting.values()];
    waiting.clear();
    const counted = await repo.countHits(
      batch.map((b) => ({ id: Number(b.link.id), human: b.human, other: b.other, at: b.at })),
    );
    const firsts = new Set(counted.filter((c) => c.first).map((c) => c.id));
    // Every request of a campaign's clicks is a first click: one lead write per team for the
    // moment's first clicks, not one per click, or the writes fall behind the clicks.
    const byTeam = new Map<number, Link[]>();
    for (const b of batch) {
      if (!firsts.has(Number(b.link.id)) || b.link.lead_id === null) continue;
      const team = Number(b.link.team_id);
      byTeam.set(team, [...(byTeam.get(team) ?? []), b.link]);
    }
    for (const [teamId, links] of byTeam) await markClicked(teamId, links);
  }

  /** First human clicks of one team's links: phones marked and Timeline entries appended, in one lead write. */
  async function markClicked(teamId: number, links: Link[]): Promise<void> {
    await withLeadWrite(db, teamId, { phones: false }, async (w) => {
      const marked = await w.markClicked(
        links.map((link) => {
          const target = `${link.host}/${link.code}`;
          return {
            leadId: Number(link.lead_id),
            phone: link.phone,
            entry: {
              lead_id: Number(link.lead_id),
              type: 'sms',
              action: 'link_clicked',
              diff_log: [
                {
                  action: 'added',
                  lead_attribute_name: 'link',
                  lead_attribute_value: target,
                  value_from: null,
                  value_to: target,
                },
              ],
            },
          };
        }),
      );
      if (marked === 0) w.unchanged();
    });
  }

  return {
    /** Counts a hit, a person's click or not; written with the others of the moment (see `flush`). */
    hit(link: Link, human: boolean, onError: (error: unknown) => void): void {
      const entry = waiting.get(Number(link.id)) ?? { link, human: 0, other: 0, at: new Date() };
      if (human) entry.human += 1;
      else entry.other += 1;
      waiting.set(Number(link.id), entry);
      // Written as bulk work: on the embedded database's one connection the redirects' lookups go
      // first (decision 013), so a burst of first clicks never queues the next click's lookup.
      timer ??= setTimeout(() => {
        flushing = runAsBulk(() => flushing.then(flush).catch(onError));
      }, FLUSH_MS);
    },

    /** Writes what waits (the app is closing). */
    async drain(): Promise<void> {
      if (timer) clearTimeout(timer);
      flushing = flushing.then(flush);
      await flushing;
    },

    /**
     * The recipient confirmed the unsubscribe page: the phone is opted out for the team through the
     * lead store, as by an inbound STOP (decision 025): the message's phone, or every phone of the
     * link's lead when the link named none. Confirming twice changes nothing.
     */
    async unsubscribe(link: Link): Promise<void> {
      const teamId = Number(link.team_id);
      await withLeadWrite(db, teamId, { phones: false }, async (w) => {
        if (!(await repo.markUnsubscribed(w.tx, Number(link.id)))) return w.unchanged();
        const leads = await w.banPhones({
          phones: link.phone ? [link.phone] : [],
          ofLead: link.lead_id === null ? null : Number(link.lead_id),
          reason: 'unsubscribe_link',
          messageId: link.message_id === null ? null : Number(link.message_id),
          entry: ({ leadId, phone }) => ({
            lead_id: leadId,
            type: 'sms',
            action: 'unsubscribed',
            diff_log: [
              {
                action: 'added',
                lead_attribute_name: 'phone',
                lead_attribute_value: phone,
                value_from: null,
                value_to: phone,
              },
            ],
          }),
        });
        if (leads.length === 0) w.unchanged();
      });
    },
  };
}

export type ShortLinkClicks = ReturnType<typeof createShortLinkClicks>;

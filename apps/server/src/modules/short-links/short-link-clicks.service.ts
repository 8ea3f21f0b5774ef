import { type Kysely, sql } from 'kysely';
import type { DB } from '../../db/schema.ts';
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
  /** The phone values a link speaks of: the message's phone, or every phone of its lead. */
  function phoneValues(tx: Kysely<DB>, link: Link) {
    let q = tx
      .selectFrom('lead_values')
      .select(['id', 'lead_id', 'value'])
      .where('team_id', '=', link.team_id)
      .where('type', '=', 'phone');
    if (link.phone) q = q.where('value', '=', link.phone);
    else if (link.lead_id !== null) q = q.where('lead_id', '=', link.lead_id);
    else return Promise.resolve([]);
    return q.execute();
  }

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
    for (const b of batch) {
      if (firsts.has(Number(b.link.id))) await markClicked(b.link);
    }
  }

  /** The first human click of a link: marks the lead's phone and appends its Timeline, in one lead write. */
  async function markClicked(link: Link): Promise<void> {
    if (link.lead_id === null) return;
    const leadId = Number(link.lead_id);
    await withLeadWrite(db, Number(link.team_id), { phones: false }, async (w) => {
      if ((await w.touchLeads([leadId])) === 0) return w.unchanged();
      const values = (await phoneValues(w.tx, link)).filter((v) => Number(v.lead_id) === leadId);
      if (values.length > 0) {
        await w.tx
          .updateTable('lead_values')
          .set({ clicked: true, updated_at: sql`now()` })
          .where('team_id', '=', Number(link.team_id))
          .where(
            'id',
            'in',
            values.map((v) => v.id),
          )
          .execute();
      }
      await w.appendTimeline(null, [
        {
          lead_id: leadId,
          type: 'sms',
          action: 'link_clicked',
          diff_log: [
            {
              action: 'added',
              lead_attribute_name: 'link',
              lead_attribute_value: `${link.host}/${link.code}`,
              value_from: null,
              value_to: `${link.host}/${link.code}`,
            },
          ],
        },
      ]);
    });
  }

  return {
    /** Counts a hit, a person's click or not; written with the others of the moment (see `flush`). */
    hit(link: Link, human: boolean, onError: (error: unknown) => void): void {
      const entry = waiting.get(Number(link.id)) ?? { link, human: 0, other: 0, at: new Date() };
      if (human) entry.human += 1;
      else entry.other += 1;
      waiting.set(Number(link.id), entry);
      timer ??= setTimeout(() => {
        flushing = flushing.then(flush).catch(onError);
      }, FLUSH_MS);
    },

    /** Writes what waits (the app is closing). */
    async drain(): Promise<void> {
      if (timer) clearTimeout(timer);
      flushing = flushing.then(flush);
      await flushing;
    },

    /**
     * The recipient confirmed the unsubscribe page: the phone is opted out for the team as by an
     * inbound STOP (so every later send skips it, whether or not a lead holds it), its values get
     * `ban`, every lead of the team holding it becomes blacklisted, each with a Timeline entry; all
     * in one transaction. Confirming twice changes nothing.
     */
    async unsubscribe(link: Link): Promise<void> {
      const teamId = Number(link.team_id);
      await withLeadWrite(db, teamId, { phones: false }, async (w) => {
        if (!(await repo.markUnsubscribed(w.tx, Number(link.id)))) return w.unchanged();
        let values = await phoneValues(w.tx, link);
        // The message's phone, else (a link made without one) every phone of its lead.
        const phones = link.phone ? [link.phone] : [...new Set(values.map((v) => v.value))];
        await repo.addOptOuts(w.tx, teamId, phones, link.message_id === null ? null : Number(link.message_id));
        // Leads and their Timeline only change where a lead holds the phone.
        if (values.length === 0) return w.unchanged();
        // Every lead of the team holding those phones, not only the message's lead.
        values = await w.tx
          .selectFrom('lead_values')
          .select(['id', 'lead_id', 'value'])
          .where('team_id', '=', teamId)
          .where('type', '=', 'phone')
          .where('value', 'in', phones)
          .execute();
        const leadIds = [...new Set(values.map((v) => Number(v.lead_id)))].sort((a, b) => a - b);
        await w.touchLeads(leadIds);
        await w.tx
          .updateTable('lead_values')
          .set({ ban: true, updated_at: sql`now()` })
          .where('team_id', '=', teamId)
          .where(
            'id',
            'in',
            values.map((v) => v.id),
          )
          .execute();
        await w.appendTimeline(
          null,
          values.map((v) => ({
            lead_id: Number(v.lead_id),
            type: 'sms',
            action: 'unsubscribed',
            diff_log: [
              {
                action: 'added',
                lead_attribute_name: 'phone',
                lead_attribute_value: v.value,
                value_from: null,
                value_to: v.value,
              },
            ],
          })),
        );
        await w.setStatus(leadIds, 'blacklisted', null);
      });
    },
  };
}

export type ShortLinkClicks = ReturnType<typeof createShortLinkClicks>;

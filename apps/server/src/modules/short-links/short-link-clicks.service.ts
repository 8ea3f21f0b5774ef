import { type Kysely, sql } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { withLeadWrite } from '../../db/lead-store/lead-write.ts';
import type { HitReason } from './bot-filter.ts';
import type { ShortLinkRow, ShortLinksRepository } from './short-links.repository.ts';

type Link = Pick<ShortLinkRow, 'id' | 'team_id' | 'lead_id' | 'phone' | 'host' | 'redirect_to'> & { code: string };

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

  return {
    /**
     * Counts one hit (one statement for anything but a person's first click). The first human
     * click of a link then marks the lead's phone and appends its Timeline, in one lead write.
     */
    async record(link: Link, reason: HitReason): Promise<void> {
      const { first } = await repo.countHit(Number(link.id), reason === 'human');
      if (!first || link.lead_id === null) return;
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
    },

    /**
     * The recipient confirmed the unsubscribe page: the phone gets `ban`, every lead of the team
     * holding it becomes blacklisted, each with a Timeline entry. Confirming twice changes nothing.
     */
    async unsubscribe(link: Link): Promise<void> {
      const teamId = Number(link.team_id);
      await withLeadWrite(db, teamId, { phones: false }, async (w) => {
        if (!(await repo.markUnsubscribed(w.tx, Number(link.id)))) return w.unchanged();
        let values = await phoneValues(w.tx, link);
        // Every lead of the team holding those phones, not only the message's lead.
        const phones = [...new Set(values.map((v) => v.value))];
        if (phones.length === 0) return;
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

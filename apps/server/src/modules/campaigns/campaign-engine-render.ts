import { type Kysely, sql } from 'kysely';
import { countSms } from '@herald/shared/sms/sms-parts';
import { LINK_TAGS, placeholdersOf, renderMessage } from '@herald/shared/templates/render';
import type { DB } from '../../db/schema.ts';

const CHUNK = 2_000;

/** Whether a step's text differs per recipient (an attribute placeholder). */
export function isPersonal(message: string): boolean {
  return placeholdersOf(message).some((tag) => !LINK_TAGS.includes(tag));
}

/**
 * Renders a step's just-queued rows for their own leads, in the transaction that queued them (so no
 * dispatch ever claims a row still holding the template), a chunk at a time: each row's text, parts
 * and encoding from its lead's values, fallbacks as the preview counts them. New rows are the ones
 * still holding the template text (rows of earlier ticks were rendered when they were queued).
 */
export async function renderQueued(tx: Kysely<DB>, teamId: number, stepId: number, message: string): Promise<number> {
  if (!isPersonal(message)) return 0;
  let done = 0;
  let after = 0;
  for (;;) {
    const rows = await sql<{ id: string; lead_id: string | null }>`select id, lead_id from messages
      where campaign_step_id = ${stepId} and state = 'pending' and text = ${message} and id > ${after}
        order by id limit ${CHUNK}::int`.execute(tx);
    if (rows.rows.length === 0) return done;
    const leadIds = [...new Set(rows.rows.map((r) => r.lead_id).filter((id) => id !== null))].map(Number);
    const values = await sql<{ lead_id: string; slug: string; value: string }>`
      select v.lead_id, a.slug, v.value from lead_values v join lead_attributes a on a.id = v.attribute_id
      where v.team_id = ${teamId} and v.lead_id = any(${leadIds}::bigint[]) order by v.id`.execute(tx);
    const byLead = new Map<number, Record<string, string[]>>();
    for (const v of values.rows) {
      const attributes = byLead.get(Number(v.lead_id)) ?? {};
      attributes[v.slug] = [...(attributes[v.slug] ?? []), v.value];
      byLead.set(Number(v.lead_id), attributes);
    }
    const rendered = rows.rows.map((r) => {
      const text = renderMessage(message, { attributes: byLead.get(Number(r.lead_id)) ?? {} });
      return { id: Number(r.id), text, count: countSms(text) };
    });
    await sql`update messages m set text = v.text, parts = v.parts, encoding = v.encoding
      from unnest(${rendered.map((r) => r.id)}::bigint[], ${rendered.map((r) => r.text)}::text[],
        ${rendered.map((r) => r.count.parts)}::int[], ${rendered.map((r) => r.count.encoding)}::text[])
        as v(id, text, parts, encoding)
      where m.id = v.id`.execute(tx);
    done += rendered.length;
    after = Number(rows.rows.at(-1)?.id);
  }
}

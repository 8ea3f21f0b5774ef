import { type Kysely, sql } from 'kysely';
import { countSms } from '@herald/shared/sms/sms-parts';
import { LINK_TAG, placeholdersOf, renderMessage, UNSUBSCRIBE_TAG } from '@herald/shared/templates/render';
import type { DB } from '../../db/schema.ts';
import type { ShortLinksMaker } from './campaigns.deps.ts';

const CHUNK = 2_000;

/** What of a step its rows are rendered from. */
export interface RenderedStep {
  id: number;
  message: string;
  redirect_to: string | null;
  short_url_domain_id: number | null;
}

/** Whether a step's text differs per recipient (an attribute placeholder, or a link of its own). */
export function isPersonal(message: string): boolean {
  return placeholdersOf(message).length > 0;
}

/**
 * Renders a step's just-queued rows for their own leads, in the transaction that queued them (so no
 * dispatch ever claims a row still holding the template), a chunk at a time: each row's text, parts
 * and encoding from its lead's values, fallbacks as the preview counts them, and each recipient's
 * own `{{link}}` and `{{unsubscribe}}` short links, made here once: a row re-claimed after a crash
 * keeps its text and so its links. New rows are the ones still holding the template text (rows of
 * earlier ticks were rendered when they were queued).
 */
export async function renderQueued(
  tx: Kysely<DB>,
  teamId: number,
  step: RenderedStep,
  shortLinks: ShortLinksMaker,
): Promise<number> {
  const { message } = step;
  if (!isPersonal(message)) return 0;
  const tags = placeholdersOf(message);
  const kinds = ([LINK_TAG, UNSUBSCRIBE_TAG] as const).filter((kind) => tags.includes(kind));
  let done = 0;
  let after = 0;
  for (;;) {
    const rows = await sql<{ id: string; lead_id: string | null; phone: string }>`select id, lead_id, phone
      from messages
      where campaign_step_id = ${step.id} and state = 'pending' and text = ${message} and id > ${after}
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
    const links = new Map<string, Array<{ text: string }>>();
    for (const kind of kinds) {
      const made = await shortLinks.makeMany(
        tx,
        teamId,
        rows.rows.map((r) => ({
          leadId: r.lead_id === null ? null : Number(r.lead_id),
          messageId: Number(r.id),
          redirectTo: kind === LINK_TAG ? step.redirect_to : null,
          kind,
          phone: r.phone,
        })),
        step.short_url_domain_id ?? undefined,
      );
      links.set(kind, made);
    }
    const rendered = rows.rows.map((r, i) => {
      const text = renderMessage(message, {
        attributes: byLead.get(Number(r.lead_id)) ?? {},
        link: links.get(LINK_TAG)?.[i]?.text,
        unsubscribe: links.get(UNSUBSCRIBE_TAG)?.[i]?.text,
      });
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

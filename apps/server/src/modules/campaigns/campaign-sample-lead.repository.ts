import { type Kysely, type SqlBool, sql } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { AudienceSql } from './campaign-recipients.repository.ts';

/**
 * The lead a test send is rendered for: a recipient the campaign fixed, once it started; before,
 * the oldest lead of its audience that is not blacklisted and has a phone (the kind the engine sends
 * to), else the oldest lead of the audience. Answers its values by attribute slug, or null when the
 * audience has no lead.
 */
export async function sampleLeadValues(
  db: Kysely<DB>,
  campaignId: number,
  a: AudienceSql,
): Promise<{ leadId: number; attributes: Record<string, string[]> } | null> {
  const t = a.teamId;
  const fixed = await sql<{ lead_id: string }>`select lead_id from campaign_recipients
    where campaign_id = ${campaignId} and team_id = ${t} and skip_reason is null order by lead_id limit 1`.execute(db);
  let leadId = fixed.rows[0] ? Number(fixed.rows[0].lead_id) : null;
  if (leadId === null) {
    const members = [...a.segments];
    if (a.sources.length > 0) members.push(sql<SqlBool>`leads.source_id = any(${a.sources}::bigint[])`);
    if (a.lists.length > 0) members.push(sql<SqlBool>`leads.list_id = any(${a.lists}::bigint[])`);
    if (members.length === 0) return null;
    const first = await sql<{ id: string }>`select leads.id from leads
      where leads.team_id = ${t} and (${sql.join(members, sql` or `)})
      order by (leads.status <> 'blacklisted' and exists (select 1 from lead_values v
        where v.lead_id = leads.id and v.team_id = ${t} and v.type = 'phone')) desc, leads.id
      limit 1`.execute(db);
    if (!first.rows[0]) return null;
    leadId = Number(first.rows[0].id);
  }
  const values = await sql<{ slug: string; value: string }>`
    select a.slug, v.value from lead_values v join lead_attributes a on a.id = v.attribute_id
    where v.team_id = ${t} and v.lead_id = ${leadId} order by v.id`.execute(db);
  const attributes: Record<string, string[]> = {};
  for (const v of values.rows) attributes[v.slug] = [...(attributes[v.slug] ?? []), v.value];
  return { leadId, attributes };
}

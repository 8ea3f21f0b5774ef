import { attributeSlug } from '@herald/shared/attributes/attribute-slug';
import { type Kysely, sql } from 'kysely';

// Attribute slugs that read like words (decision 030): `Ім'я` was `im_ia` (the apostrophe broke the
// word) and is now `imia`, by the Ukrainian national rule. A custom attribute whose slug differs from
// what its name gives now is renamed, and the team's saved templates are rewritten to the new slug
// (fallbacks kept), so nothing saved keeps a tag that matches nothing. Names with no letter only
// Russian has are read as Ukrainian here: the namer's language is not stored.
// Alpha names learn the language they were asked for in, for the mail that tells the review's decision.
export async function up(db: Kysely<unknown>): Promise<void> {
  // The language a team asked for an alpha name in: the mail with the review's decision is in it.
  await sql`alter table alpha_names add column if not exists language text not null default 'uk'
    check (language in ('uk', 'en', 'ru'))`.execute(db);

  const { rows } = await sql<{ id: string; team_id: string; name: string; slug: string }>`
    select id, team_id, name, slug from lead_attributes where not is_system order by team_id, id`.execute(db);
  const byTeam = new Map<string, typeof rows>();
  for (const row of rows) byTeam.set(row.team_id, [...(byTeam.get(row.team_id) ?? []), row]);

  for (const [teamId, attributes] of byTeam) {
    const { rows: system } = await sql<{ slug: string }>`
      select slug from lead_attributes where team_id = ${teamId} and is_system`.execute(db);
    const taken = new Set(system.map((r) => r.slug));
    const renames: Array<{ id: string; from: string; to: string }> = [];
    // Unchanged slugs keep their place first, so a rename never takes one.
    for (const a of attributes) if (attributeSlug(a.name) === a.slug) taken.add(a.slug);
    for (const a of attributes) {
      const base = attributeSlug(a.name);
      if (base === a.slug) continue;
      let slug = base;
      for (let i = 2; taken.has(slug); i++) slug = `${base}_${i}`;
      taken.add(slug);
      if (slug !== a.slug) renames.push({ id: a.id, from: a.slug, to: slug });
    }
    if (renames.length === 0) continue;
    // Through a temporary slug, so two attributes trading slugs never meet the unique key.
    for (const r of renames) await sql`update lead_attributes set slug = ${`~${r.id}`} where id = ${r.id}`.execute(db);
    for (const r of renames) await sql`update lead_attributes set slug = ${r.to} where id = ${r.id}`.execute(db);

    const { rows: templates } = await sql<{ id: string; message: string }>`
      select id, message from sms_templates where team_id = ${teamId}`.execute(db);
    for (const t of templates) {
      let message = t.message;
      for (const r of renames) {
        const tag = new RegExp(`\\{\\{\\s*${r.from}\\s*(\\|[^{}\\r\\n]*)?\\}\\}`, 'gi');
        message = message.replace(tag, (_, fallback: string | undefined) => `{{${r.to}${fallback ?? ''}}}`);
      }
      if (message !== t.message)
        await sql`update sms_templates set message = ${message} where id = ${t.id}`.execute(db);
    }
  }
}

// The old slugs are not restored: the templates now name the new ones.
export async function down(): Promise<void> {}

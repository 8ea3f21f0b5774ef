import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';

/**
 * Per-team settings: validation templates (`phone` holds the ignored phone formats), the team's
 * default phone country and its frequency cap across campaigns.
 */
export function createValidationTemplateRepository(db: Kysely<DB>) {
  return {
    async find(teamId: number, kind: string): Promise<string> {
      const row = await db
        .selectFrom('validation_templates')
        .select('values')
        .where('team_id', '=', teamId)
        .where('kind', '=', kind)
        .executeTakeFirst();
      return row?.values ?? '';
    },
    async save(teamId: number, kind: string, values: string) {
      await db
        .insertInto('validation_templates')
        .values({ team_id: teamId, kind, values })
        .onConflict((oc) => oc.columns(['team_id', 'kind']).doUpdateSet({ values, updated_at: new Date() }))
        .execute();
    },
    async findDefaultCountry(teamId: number): Promise<string | undefined> {
      const row = await db.selectFrom('teams').select('default_country').where('id', '=', teamId).executeTakeFirst();
      return row?.default_country;
    },
    async saveDefaultCountry(teamId: number, country: string) {
      await db.updateTable('teams').set({ default_country: country }).where('id', '=', teamId).execute();
    },
    /** The frequency cap across campaigns (decision 034). */
    async findCampaignCap(teamId: number): Promise<{ messages: number | null; hours: number } | undefined> {
      const row = await db
        .selectFrom('teams')
        .select(['campaign_cap_messages', 'campaign_cap_hours'])
        .where('id', '=', teamId)
        .executeTakeFirst();
      return row && { messages: row.campaign_cap_messages, hours: row.campaign_cap_hours };
    },
    async saveCampaignCap(teamId: number, cap: { messages: number | null; hours: number }) {
      await db
        .updateTable('teams')
        .set({ campaign_cap_messages: cap.messages, campaign_cap_hours: cap.hours })
        .where('id', '=', teamId)
        .execute();
    },
  };
}
export type ValidationTemplateRepository = ReturnType<typeof createValidationTemplateRepository>;

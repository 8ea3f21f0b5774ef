import type { Kysely } from 'kysely';
import { ZTimezone } from '@herald/shared/campaigns/campaigns.schemas';
import { zonedToInstant } from '@herald/shared/campaigns/zoned-time';
import { message } from '@herald/shared/common/messages';
import { normalizePhone } from '@herald/shared/leads/phone';
import { LINK_TAG, placeholdersOf, unknownPlaceholders, writtenPlaceholders } from '@herald/shared/templates/render';
import type { DB } from '../../db/schema.ts';
import { AppError } from '../../http/app-error.ts';
import type { CampaignsDeps } from './campaigns.deps.ts';

/** The checks of what a campaign or a step may hold, each refusing with the field and its message. */
export function createCampaignChecks(deps: CampaignsDeps) {
  const { db } = deps;

  /** The gateway's own sender, as its settings hold it (a number in E.164); null when it has none. */
  async function gatewaySender(teamId: number, gatewayId: number): Promise<string | null> {
    const from = (await deps.gateways.sendingList(teamId)).find((g) => g.id === gatewayId)?.from?.trim();
    if (!from) return null;
    return asPhone(from) ?? from;
  }

  return {
    /** A gateway of the team that sends; another team's is not found. */
    async gateway(teamId: number, id: number): Promise<void> {
      const sending = await deps.gateways.sendingList(teamId);
      if (sending.some((g) => g.id === id)) return;
      await deps.gateways.adapter(teamId, id); // 404 for another team's
      throw AppError.field('gateway_id', 'campaign_gateway_unusable');
    },

    /** The gateway chosen without asking: the default, or the only one. */
    async autoGateway(teamId: number): Promise<number | null> {
      const sending = await deps.gateways.sendingList(teamId);
      return (sending.find((g) => g.default) ?? (sending.length === 1 ? sending[0] : undefined))?.id ?? null;
    },

    /**
     * A sender the team may use through this gateway: one of its active alpha names, or the
     * gateway's own sender (its number or name as the gateway is set up). Anything else would go
     * out under a name no carrier approved for the team.
     */
    async sender(teamId: number, value: string, gatewayId: number | null): Promise<string> {
      const alpha = await db
        .selectFrom('alpha_names')
        .select('name')
        .where('team_id', '=', teamId)
        .where((eb) => eb(eb.fn('lower', ['name']), '=', value.toLowerCase()))
        .where('status', '=', 1)
        .executeTakeFirst();
      if (alpha) return alpha.name;
      const own = gatewayId === null ? null : await gatewaySender(teamId, gatewayId);
      if (own !== null && sameSender(own, value)) return own;
      throw AppError.field('sender', 'campaign_sender_unusable');
    },

    /** The sender chosen without asking: the default alpha name, or the only sender there is. */
    async autoSender(teamId: number, gatewayId: number | null): Promise<string | null> {
      const names = await db
        .selectFrom('alpha_names')
        .select(['name', 'is_default'])
        .where('team_id', '=', teamId)
        .where('status', '=', 1)
        .execute();
      const fallback = names.find((n) => n.is_default)?.name;
      if (fallback) return fallback;
      const own = gatewayId === null ? null : await gatewaySender(teamId, gatewayId);
      const all = [...names.map((n) => n.name), ...(own === null ? [] : [own])];
      return all.length === 1 ? all[0] : null;
    },

    timezone(value: string): string {
      if (!ZTimezone.safeParse(value).success) throw AppError.field('timezone', 'timezone_invalid');
      return value;
    },

    start(value: string, timezone: string): Date {
      const at = zonedToInstant(value, timezone);
      if (!at) throw AppError.field('start_at', 'campaign_start_invalid');
      return at;
    },

    /**
     * A step's message: not blank, every tag an attribute of the team or a link, `{{link}}` with
     * the address it leads to, an address only with `{{link}}`, a domain of the team that is proven.
     */
    async step(
      teamId: number,
      s: { message: string; redirect_to: string | null; short_url_domain_id: number | null },
      q: Kysely<DB> = db,
    ): Promise<void> {
      if (s.message.trim() === '') throw AppError.field('message', 'campaign_message_required');
      const slugs = await q.selectFrom('lead_attributes').select('slug').where('team_id', '=', teamId).execute();
      const unknown = unknownPlaceholders(
        s.message,
        slugs.map((r) => r.slug),
      );
      if (unknown.length > 0)
        throw AppError.field('message', 'placeholder_unknown', { placeholders: writtenPlaceholders(unknown) });
      const hasLink = placeholdersOf(s.message).includes(LINK_TAG);
      if (hasLink && !s.redirect_to) throw AppError.field('redirect_to', 'sms_redirect_required');
      if (!hasLink && s.redirect_to) throw AppError.field('redirect_to', 'campaign_redirect_unused');
      if (s.short_url_domain_id !== null) {
        const domain = await q
          .selectFrom('short_url_domains')
          .select(['enabled', 'verified_at'])
          .where('team_id', '=', teamId)
          .where('id', '=', s.short_url_domain_id)
          .executeTakeFirst();
        if (!domain) throw new AppError('not_found', message('short_url_domain_not_found'));
        // Links are made only on a proven, switched-on domain (decision 028): another would fall back unseen.
        if (!domain.enabled || domain.verified_at === null)
          throw AppError.field('short_url_domain_id', 'campaign_domain_unusable');
      }
    },
  };
}

/** A phone number in E.164, or null for text that is no number (an alpha name). */
function asPhone(value: string): string | null {
  return /^[+\d][\d\s()-]*$/.test(value) ? normalizePhone(value) : null;
}

/** Whether two senders are one: the same number however written, or the same name. */
function sameSender(a: string, b: string): boolean {
  const phone = asPhone(b);
  return phone !== null ? asPhone(a) === phone : a.toLowerCase() === b.trim().toLowerCase();
}

export type CampaignChecks = ReturnType<typeof createCampaignChecks>;

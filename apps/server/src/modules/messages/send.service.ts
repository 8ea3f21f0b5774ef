import { randomUUID } from 'node:crypto';
import { englishOf, message, type TMessageCode } from '@herald/shared/common/messages';
import { normalizeLeadValue } from '@herald/shared/leads/lead-values';
import { isIgnoredPhone } from '@herald/shared/leads/phone';
import { isAlphaName } from '@herald/shared/alpha-names/alpha-names.schemas';
import type { TSingleSmsRequest, TSingleSmsResponse } from '@herald/shared/messages/messages.schemas';
import { countSms } from '@herald/shared/sms/sms-parts';
import {
  LINK_TAG,
  placeholdersOf,
  renderMessage,
  UNSUBSCRIBE_TAG,
  unknownPlaceholders,
  writtenPlaceholders,
} from '@herald/shared/templates/render';
import { AppError } from '../../http/app-error.ts';
import { appendTimeline } from '../../db/lead-store/lead-timeline.ts';
import { type MessageRow, type MessagesRepository, toSentMessage } from './messages.repository.ts';
import type { Dispatcher, EngineSettings } from './dispatch.ts';
import type { MessagesDeps } from './messages.deps.ts';
import type { StatusService } from './status.service.ts';

/**
 * The single SMS (spec section 7): recipient, gateway, sender and text checked; the row written
 * and charged in one transaction; then, after the commit, the gateway called once (decision 020).
 */
export function createSendService(
  deps: MessagesDeps & {
    repo: MessagesRepository;
    status: StatusService;
    dispatcher: Dispatcher;
    settings: EngineSettings;
  },
) {
  const { db, repo } = deps;

  async function chooseGateway(teamId: number, id: number | null | undefined) {
    if (id) {
      const chosen = await deps.gateways.adapter(teamId, id);
      if (!chosen.gateway.active || chosen.gateway.allow_lookup)
        throw AppError.field('gateway_id', 'sms_gateway_not_sending');
      return chosen;
    }
    const sending = await deps.gateways.sendingList(teamId);
    const pick = sending.find((g) => g.default) ?? (sending.length === 1 ? sending[0] : undefined);
    if (!pick) throw AppError.field('gateway_id', 'sms_gateway_required');
    return deps.gateways.adapter(teamId, pick.id);
  }

  async function recipient(teamId: number, input: TSingleSmsRequest) {
    const rule = await deps.phoneRule(teamId);
    let leadId: number | null = input.lead_id ?? null;
    let phone: string | null = null;
    if (input.phone) {
      const checked = normalizeLeadValue('phone', input.phone, rule);
      if (!checked.ok)
        throw checked.reason === 'ignored'
          ? AppError.field('phone', 'sms_phone_ignored')
          : AppError.field('phone', checked.message.code as TMessageCode, checked.message.params);
      phone = checked.value;
    }
    if (leadId !== null) {
      const lead = await db
        .selectFrom('leads')
        .select('id')
        .where('team_id', '=', teamId)
        .where('id', '=', leadId)
        .executeTakeFirst();
      if (!lead) throw new AppError('not_found', message('lead_not_found'));
    }
    const values = leadId !== null ? await deps.valuesOf(teamId, [leadId]) : [];
    if (phone === null) {
      const phones = values.filter((v) => v.attribute.type === 'phone' && !v.ban).map((v) => v.value);
      phone = phones[0] ?? null;
      if (!phone) throw AppError.field('lead_id', 'sms_lead_without_phone');
    } else if (leadId === null) {
      // A typed phone a lead of the team holds: the message joins that lead's Timeline.
      leadId = (await repo.leadsWithPhone(teamId, phone))[0] ?? null;
    }
    const attributes: Record<string, string[]> = {};
    const own = leadId !== null && values.length === 0 ? await deps.valuesOf(teamId, [leadId]) : values;
    for (const v of own) {
      const slug = v.attribute.slug;
      attributes[slug] = [...(attributes[slug] ?? []), v.value];
    }
    if (isIgnoredPhone(phone, rule.ignored)) throw AppError.field('phone', 'sms_phone_ignored');
    if (await repo.isBlocked(teamId, phone)) throw AppError.field('phone', 'sms_phone_blacklisted');
    return { phone, leadId, attributes };
  }

  async function sender(teamId: number, from: string | null | undefined): Promise<string | null> {
    // None chosen: the team's default alpha name (always active), else the gateway's own sender.
    if (!from) {
      const fallback = await db
        .selectFrom('alpha_names')
        .select('name')
        .where('team_id', '=', teamId)
        .where('is_default', '=', true)
        .where('status', '=', 1)
        .executeTakeFirst();
      return fallback?.name ?? null;
    }
    if (/^\+?\d[\d\s()-]{3,}$/.test(from)) {
      const number = normalizeLeadValue('phone', from, await deps.phoneRule(teamId));
      if (number.ok) return number.value;
      throw AppError.field('from', 'sms_sender_invalid');
    }
    if (!isAlphaName(from)) throw AppError.field('from', 'sms_sender_invalid');
    const name = await db
      .selectFrom('alpha_names')
      .select('name')
      .where('team_id', '=', teamId)
      .where('status', '=', 1)
      .where((eb) => eb(eb.fn('lower', ['name']), '=', from.toLowerCase()))
      .executeTakeFirst();
    if (!name) throw AppError.field('from', 'sms_sender_invalid');
    return name.name;
  }

  function answer(row: MessageRow): TSingleSmsResponse {
    if (row.state === 'failed') {
      throw new AppError('validation_failed', message('sms_send_failed'), {
        message: [message('sms_send_failed')],
      });
    }
    // Only a row the provider took is "sent": one still claimed (a retry while the first request is
    // on its way, or after it died), queued again or unknown has an outcome still to come.
    const code: TMessageCode = row.state === 'submitted' ? 'sms_sent' : 'sms_send_unknown';
    return { message: englishOf({ code }), code, data: toSentMessage(row) };
  }

  return {
    async sendSingle(
      user: { id: number; teamId: number },
      input: TSingleSmsRequest,
      clientKey: string | null,
    ): Promise<TSingleSmsResponse> {
      const { teamId } = user;
      // A retried request answers what the first one did, and sends nothing.
      if (clientKey) {
        const earlier = await repo.findByClientKey(teamId, user.id, clientKey);
        if (earlier) return answer(earlier);
      }
      const tags = placeholdersOf(input.message);
      if ((tags.includes(LINK_TAG) || tags.includes(UNSUBSCRIBE_TAG)) && !deps.shortLinks)
        throw AppError.field('message', 'link_unavailable');
      if (tags.includes(LINK_TAG) && !input.redirect_to) throw AppError.field('redirect_to', 'sms_redirect_required');
      // A tag naming no attribute of the team would go out as a blank (decision 030).
      const slugs = await db.selectFrom('lead_attributes').select('slug').where('team_id', '=', teamId).execute();
      const unknown = unknownPlaceholders(
        input.message,
        slugs.map((r) => r.slug),
      );
      if (unknown.length > 0)
        throw AppError.field('message', 'placeholder_unknown', { placeholders: writtenPlaceholders(unknown) });
      const { gateway, adapter } = await chooseGateway(teamId, input.gateway_id);
      const to = await recipient(teamId, input);
      const from = await sender(teamId, input.from);
      const pricePerPart = await deps.pricePerPart(teamId, user.id, to.phone);
      const chargeKey = `single-sms:${user.id}:${clientKey ?? randomUUID()}`;

      const row = await db.transaction().execute(async (tx) => {
        const inserted = await repo.insert(tx, {
          team_id: teamId,
          user_id: user.id,
          lead_id: to.leadId,
          kind: 'single',
          phone: to.phone,
          gateway_id: gateway.id,
          sender: from,
          // Rendered once the row has its id, which the links carry.
          text: '',
          parts: 0,
          encoding: 'GSM-7',
          charge_key: chargeKey,
          client_key: clientKey,
          state: 'claimed',
          lease_until: new Date(Date.now() + deps.settings.leaseMs),
          attempt: 1,
        });
        if (!inserted) return null;
        const links: { link?: string; unsubscribe?: string } = {};
        for (const kind of [LINK_TAG, UNSUBSCRIBE_TAG] as const) {
          if (!tags.includes(kind) || !deps.shortLinks) continue;
          const made = await deps.shortLinks.make(tx, {
            teamId,
            leadId: to.leadId,
            messageId: inserted.id,
            redirectTo: kind === LINK_TAG ? (input.redirect_to ?? null) : null,
            kind,
            phone: to.phone,
          });
          links[kind] = made.text;
        }
        const text = renderMessage(input.message, { attributes: to.attributes, ...links });
        const count = countSms(text);
        const charge = await deps.charge(tx, teamId, {
          userId: user.id,
          code: 'sent_single_message',
          parts: count.parts,
          pricePerPart,
          count: 1,
          key: chargeKey,
          name: to.phone,
          meta: { message_id: inserted.id },
        });
        if (charge.status === 'debt') throw new AppError('balance_insufficient', message('balance_debt'));
        if (charge.status !== 'charged')
          throw new AppError('balance_insufficient', message('balance_not_enough_messages'));
        const written = await tx
          .updateTable('messages')
          .set({ text, parts: count.parts, encoding: count.encoding, price: charge.amount })
          .where('id', '=', inserted.id)
          .returningAll()
          .executeTakeFirstOrThrow();
        if (to.leadId !== null) {
          const lead = await tx
            .selectFrom('leads')
            .select('id')
            .where('team_id', '=', teamId)
            .where('id', '=', to.leadId)
            .forShare()
            .executeTakeFirst();
          if (lead)
            await appendTimeline(tx, teamId, user.id, [
              {
                lead_id: to.leadId,
                type: 'message',
                action: 'sms_sent',
                diff_log: [
                  {
                    action: 'sms_sent',
                    lead_attribute_name: 'sms',
                    lead_attribute_value: text,
                    value_from: to.phone,
                    value_to: null,
                    message_id: Number(inserted.id),
                  },
                ],
              },
            ]);
        }
        return written;
      });
      if (!row) {
        // Another request with this key got there first.
        const earlier = clientKey ? await repo.findByClientKey(teamId, user.id, clientKey) : undefined;
        if (!earlier) throw new AppError('conflict');
        return answer(earlier);
      }
      await deps.announce(teamId, [user.id]);
      return answer(await deps.dispatcher.sendOne(row, gateway, adapter));
    },
  };
}

export type SendService = ReturnType<typeof createSendService>;

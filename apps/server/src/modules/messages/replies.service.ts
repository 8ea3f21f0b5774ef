import { normalizePhone } from '@herald/shared/leads/phone';
import { isOptOutReply } from '@herald/shared/messages/opt-out-words';
import { appendTimelineBulk, type TimelineEntry, withLeadWrite } from '../../db/lead-store/lead-write.ts';
import type { MessageReportsRepository } from './message-reports.repository.ts';
import type { MessagesDeps } from './messages.deps.ts';

export interface InboundEvent {
  teamId: number;
  gatewayId: number;
  message: { from: string; text: string; providerMessageId?: string | null };
}

/** What a reply writes on each lead holding the phone: its text, from the phone. */
const replyEntry =
  (action: 'sms_received' | 'sms_opt_out', phone: string, text: string) =>
  (leadId: number): TimelineEntry => ({
    lead_id: leadId,
    type: 'message',
    action,
    diff_log: [
      {
        action: 'sms_received',
        lead_attribute_name: 'sms',
        lead_attribute_value: text,
        value_from: phone,
        value_to: null,
      },
    ],
  });

/**
 * Replies (decision 025): each is recorded once by the provider's message id (a replayed event adds
 * nothing); an opt-out word opts the phone out for the team through the lead store's one writer
 * (as the unsubscribe link does), any other reply lands on the Timeline of the leads holding it.
 */
export function createRepliesService(deps: MessagesDeps & { reportsRepo: MessageReportsRepository }) {
  const { db, reportsRepo } = deps;

  async function optOut(event: InboundEvent, phone: string, text: string): Promise<number[]> {
    const { teamId, gatewayId } = event;
    return withLeadWrite(db, teamId, { phones: false }, async (w) => {
      const fresh = await reportsRepo.recordInbound(w.tx, {
        teamId,
        gatewayId,
        providerMessageId: event.message.providerMessageId ?? null,
        phone,
        text,
        optOut: true,
      });
      const entry = replyEntry('sms_opt_out', phone, text);
      const leads = fresh
        ? await w.banPhones({
            phones: [phone],
            reason: 'inbound_stop',
            gatewayId,
            entry: ({ leadId }) => entry(leadId),
          })
        : [];
      if (leads.length === 0) w.unchanged();
      return leads;
    });
  }

  async function reply(event: InboundEvent, phone: string, text: string): Promise<number[]> {
    const { teamId, gatewayId } = event;
    return db.transaction().execute(async (tx) => {
      const fresh = await reportsRepo.recordInbound(tx, {
        teamId,
        gatewayId,
        providerMessageId: event.message.providerMessageId ?? null,
        phone,
        text,
        optOut: false,
      });
      if (!fresh) return [];
      const ids = await reportsRepo.leadsWithPhone(tx, teamId, phone);
      await appendTimelineBulk(tx, teamId, null, ids.map(replyEntry('sms_received', phone, text)));
      return ids;
    });
  }

  return {
    async inbound(event: InboundEvent): Promise<void> {
      const raw = event.message.from.trim();
      const phone = normalizePhone(raw.startsWith('+') ? raw : `+${raw}`);
      if (!phone) return;
      const text = event.message.text;
      const leadIds = isOptOutReply(text) ? await optOut(event, phone, text) : await reply(event, phone, text);
      for (const leadId of leadIds)
        await deps.bus.publish(
          { teamId: event.teamId },
          { type: 'MessageStatus', payload: { message_id: null, lead_id: leadId, state: null, status: null } },
        );
    },
  };
}

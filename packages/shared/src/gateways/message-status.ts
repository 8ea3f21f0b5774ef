import { z } from 'zod';

/**
 * The life of one sent message, as every gateway's reports are mapped onto it. The spec's SMS
 * statuses (sent, sending, delivered, queued, blocked_by_carrier, failed, inactive_device) plus
 * `undelivered`, the carriers' "not delivered, reason unknown".
 */
export const MESSAGE_STATUSES = [
  'queued',
  'sending',
  'sent',
  'delivered',
  'undelivered',
  'failed',
  'blocked_by_carrier',
  'inactive_device',
] as const;
export const ZMessageStatus = z.enum(MESSAGE_STATUSES);
export type TMessageStatus = z.infer<typeof ZMessageStatus>;

/**
 * queued → sending → sent → one final status. Every final status shares the top rank: reports
 * arrive out of order and twice, so a status only ever moves to a higher rank, and a final one
 * never changes again (a late "sent" after "delivered", or a repeated "delivered", changes nothing).
 */
export const MESSAGE_STATUS_RANK: Record<TMessageStatus, number> = {
  queued: 0,
  sending: 1,
  sent: 2,
  delivered: 3,
  undelivered: 3,
  failed: 3,
  blocked_by_carrier: 3,
  inactive_device: 3,
};

export const FINAL_MESSAGE_STATUSES = MESSAGE_STATUSES.filter((s) => MESSAGE_STATUS_RANK[s] === 3);

export function isFinalStatus(status: TMessageStatus): boolean {
  return MESSAGE_STATUS_RANK[status] === 3;
}

/** Whether a message at `from` may take the reported status `to`: only forwards, never twice. */
export function canMoveStatus(from: TMessageStatus | null, to: TMessageStatus): boolean {
  if (from === null) return true;
  return MESSAGE_STATUS_RANK[to] > MESSAGE_STATUS_RANK[from];
}

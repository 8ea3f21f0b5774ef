import { z } from 'zod';
import type { TMessageStatus } from '../gateways/message-status.ts';
import type { TMessageState } from '../messages/messages.schemas.ts';

/**
 * What a campaign's messages did (issue 35), defined once for the statistics, the campaign audience
 * and the results filters. The server's SQL says the same in `campaign-results.sql.ts`; the API
 * tests recount every figure from the rows with these functions.
 */

/**
 * Where one recipient stands on one step. Every `messages` row of kind `campaign_step` is in exactly
 * one bucket; a recipient with no row for the step is `skipped` (its recipient skip reason) or
 * `queued` (the step has not reached it yet), so the buckets add up to the recipients.
 * - delivered: the carrier confirmed it;
 * - sent: handed to the gateway, no final report yet;
 * - unconfirmed: sent, and still no final report `UNCONFIRMED_AFTER_HOURS` after the hand-over
 *   (not a failure: the carrier simply never said);
 * - failed: refused by the gateway or a final report other than delivered (reason: the status or
 *   the error code);
 * - skipped: never sent and never charged (reason below);
 * - unknown: the gateway call began and its outcome was lost (decision 024), never sent again;
 * - queued: waiting to be sent.
 */
export const RECIPIENT_BUCKETS = [
  'delivered',
  'sent',
  'unconfirmed',
  'failed',
  'skipped',
  'unknown',
  'queued',
] as const;
export const ZRecipientBucket = z.enum(RECIPIENT_BUCKETS);
export type TRecipientBucket = z.infer<typeof ZRecipientBucket>;

/** A message sent with no final report after this long is shown as unconfirmed, not as failed. */
export const UNCONFIRMED_AFTER_HOURS = 72;
export const UNCONFIRMED_AFTER_MS = UNCONFIRMED_AFTER_HOURS * 3_600_000;

/**
 * Why a recipient got no message on a step. The first four are the message rows the engine skips
 * when due (error code `skipped_<reason>`); the others are the recipient's own skip reason, fixed at
 * the start (`campaign_recipients.skip_reason`), the step's limit cap, or `not_reached`: the
 * campaign ended before the step reached the recipient (its earlier step was lost or failed).
 */
export const RESULT_SKIP_REASONS = [
  'blacklisted',
  'opted_out',
  'capped',
  'deleted',
  'no_valid_phone',
  'banned',
  'ignored_format',
  'duplicate_phone',
  'limit_cap',
  'not_reached',
  'not_valid_mobile',
] as const;
export type TResultSkipReason = (typeof RESULT_SKIP_REASONS)[number];

/** The error code a skipped message row carries: `skipped_` and its reason. */
export const SKIPPED_CODE_PREFIX = 'skipped_';

/** The spec's SMS statuses (filters `sms_status`, `statistic-leads?filter_type=`). */
export const SMS_STATUSES = [
  'sent',
  'sending',
  'delivered',
  'queued',
  'blocked_by_carrier',
  'failed',
  'inactive_device',
] as const;
export const ZSmsStatus = z.enum(SMS_STATUSES);
export type TSmsStatus = z.infer<typeof ZSmsStatus>;

/** The spec's engagement values: engaged (a human clicked a link) and unsubscribe (the unsubscribe link). */
export const ENGAGEMENT_VALUES = ['engaged', 'unsubscribe'] as const;
export const ZEngagement = z.enum(ENGAGEMENT_VALUES);
export type TEngagement = z.infer<typeof ZEngagement>;

/** `amount_status_*` of a campaign (spec) and the SMS status each one counts. */
export const AMOUNT_STATUS_KEYS = {
  delivered: 'delivered',
  blocked: 'blocked_by_carrier',
  inactive: 'inactive_device',
  error: 'failed',
  sent: 'sent',
  sending: 'sending',
  queued: 'queued',
} as const satisfies Record<string, TSmsStatus>;
export type TAmountStatusKey = keyof typeof AMOUNT_STATUS_KEYS;

/** The columns of a message row the results read. */
export interface ResultRow {
  state: TMessageState;
  status: TMessageStatus | null;
  error_code: string | null;
  /** When the gateway took it (null until submitted). */
  submitted_at: Date | string | null;
}

function skipReasonOf(row: ResultRow): string | null {
  if (row.state !== 'failed' || row.error_code === null) return null;
  return row.error_code.startsWith(SKIPPED_CODE_PREFIX) ? row.error_code.slice(SKIPPED_CODE_PREFIX.length) : null;
}

/** The bucket of a message row at `now`, and its reason for failed and skipped. */
export function bucketOf(row: ResultRow, now: Date): { bucket: TRecipientBucket; reason: string | null } {
  switch (row.state) {
    case 'pending':
    case 'claimed':
      return { bucket: 'queued', reason: null };
    case 'unknown':
      return { bucket: 'unknown', reason: null };
    case 'failed': {
      const skipped = skipReasonOf(row);
      if (skipped !== null) return { bucket: 'skipped', reason: skipped };
      return { bucket: 'failed', reason: row.error_code ?? 'failed' };
    }
    case 'submitted': {
      if (row.status === 'delivered') return { bucket: 'delivered', reason: null };
      if (row.status !== null && row.status !== 'queued' && row.status !== 'sending' && row.status !== 'sent') {
        return { bucket: 'failed', reason: row.status };
      }
      const at = row.submitted_at === null ? null : new Date(row.submitted_at).getTime();
      if (at !== null && now.getTime() - at >= UNCONFIRMED_AFTER_MS) return { bucket: 'unconfirmed', reason: null };
      return { bucket: 'sent', reason: null };
    }
  }
}

/**
 * The spec's SMS status of a message row; null for a row that never reached the gateway and never
 * will (skipped) or whose call was lost (unknown: neither sent nor failed, shown as outcome unknown).
 * A gateway refusal and a carrier's `undelivered` are `failed`; a submitted row with no report is `sent`.
 */
export function smsStatusOf(row: ResultRow): TSmsStatus | null {
  switch (row.state) {
    case 'pending':
      return 'queued';
    case 'claimed':
      return 'sending';
    case 'unknown':
      return null;
    case 'failed':
      return skipReasonOf(row) === null ? 'failed' : null;
    case 'submitted':
      if (row.status === null) return 'sent';
      return row.status === 'undelivered' ? 'failed' : row.status;
  }
}

/** Whether a message counts as sent (handed to the gateway): the spec's amount_sent. */
export function isSent(row: ResultRow): boolean {
  return row.state === 'submitted';
}

/** A percentage as the spec shows it: floored, 0 when there is nothing to divide by. */
export function percentOf(part: number, whole: number): number {
  if (whole <= 0) return 0;
  return Math.floor((100 * part) / whole);
}

/**
 * Clicks are people: a recipient clicked when a human (never a bot or a link preview) opened one of
 * the message's links; the click rate is unique human clickers ÷ delivered. Engaged = clicked or
 * unsubscribed through the message's unsubscribe link.
 */
export interface EngagementOf {
  clicked: boolean;
  unsubscribed: boolean;
}
export function isEngaged(e: EngagementOf): boolean {
  return e.clicked || e.unsubscribed;
}

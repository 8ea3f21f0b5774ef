import type { TMessageCode } from '../common/messages.ts';

/**
 * A campaign's statuses and what each one allows: the moves between them and every editing rule,
 * in one table the server enforces and the screens read (decision 031).
 *
 * draft → scheduled → processing (its recipients being fixed) → active (sending, or waiting between
 * steps) → completed; paused and failed from processing or active; rejected (moderation) → draft.
 */
export const CAMPAIGN_STATUSES = [
  'draft',
  'scheduled',
  'processing',
  'active',
  'paused',
  'completed',
  'failed',
  'rejected',
] as const;
export type TCampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

export const CAMPAIGN_STEP_STATUSES = ['not_sent', 'preparing', 'sending', 'sent'] as const;
export type TCampaignStepStatus = (typeof CAMPAIGN_STEP_STATUSES)[number];

/** What the bulk and single status change offer when configuration says nothing else (spec). */
export const DEFAULT_MANUAL_STATUSES: readonly TCampaignStatus[] = ['draft', 'scheduled', 'paused'];

/**
 * Who makes a move: `user` through the status change, `engine` on its own, `moderation` by the
 * platform's review. `unstarted`: only while no recipient has been fixed (`started_at` is null);
 * a campaign that has begun sending never goes back to draft, where its audience could change.
 */
export type TCampaignMove = { to: TCampaignStatus; by: 'user' | 'engine' | 'moderation'; unstarted?: true };

export const CAMPAIGN_MOVES: Readonly<Record<TCampaignStatus, readonly TCampaignMove[]>> = {
  draft: [{ to: 'scheduled', by: 'user' }],
  scheduled: [
    { to: 'draft', by: 'user', unstarted: true },
    { to: 'paused', by: 'user' },
    { to: 'processing', by: 'engine' },
    // A paused campaign resumed through scheduled continues sending where it stopped.
    { to: 'active', by: 'engine' },
    { to: 'rejected', by: 'moderation' },
  ],
  processing: [
    { to: 'active', by: 'engine' },
    { to: 'paused', by: 'user' },
    { to: 'paused', by: 'engine' },
    { to: 'failed', by: 'engine' },
  ],
  active: [
    { to: 'paused', by: 'user' },
    { to: 'paused', by: 'engine' },
    { to: 'completed', by: 'engine' },
    { to: 'failed', by: 'engine' },
  ],
  // Resume is paused → scheduled: the engine picks it up at once (its start time has passed).
  paused: [
    { to: 'scheduled', by: 'user' },
    { to: 'draft', by: 'user', unstarted: true },
    { to: 'active', by: 'engine' },
    { to: 'failed', by: 'engine' },
  ],
  completed: [],
  failed: [],
  rejected: [{ to: 'draft', by: 'user' }],
};

export type TCampaignFacts = { status: TCampaignStatus; started: boolean };

/** Whether `by` may move a campaign in this state to `to`. */
export function canMoveCampaign(c: TCampaignFacts, to: TCampaignStatus, by: TCampaignMove['by']): boolean {
  return CAMPAIGN_MOVES[c.status].some((m) => m.to === to && m.by === by && (!m.unstarted || !c.started));
}

/**
 * The statuses a user is offered for one campaign: the configured manual list, without the current
 * status, where the table allows the move. From rejected that leaves only draft.
 */
export function manualMovesOf(c: TCampaignFacts, manual: readonly TCampaignStatus[] = DEFAULT_MANUAL_STATUSES) {
  return manual.filter((to) => to !== c.status && canMoveCampaign(c, to, 'user'));
}

/** The settings of a campaign, as the editing rules name them. */
export const CAMPAIGN_FIELDS = [
  'name',
  'gateway_id',
  'sender',
  'timezone',
  'start_at',
  'frequency_per_minute',
  'quiet_hours',
  'quiet_from',
  'quiet_to',
  'skip_invalid_phones',
] as const;
export type TCampaignField = (typeof CAMPAIGN_FIELDS)[number];

/** The fields of a step, as the editing rules name them. */
export const CAMPAIGN_STEP_FIELDS = [
  'message',
  'redirect_to',
  'short_url_domain_id',
  'delay_minutes',
  'limit_cap',
  'send_by_minutes',
  'gateway_id',
] as const;
export type TCampaignStepField = (typeof CAMPAIGN_STEP_FIELDS)[number];

/**
 * A step of a paused campaign that is being sent may still change what its unsent messages say
 * and when they give up (the spec's flag exception for paused): not its place, delay or cap, which
 * the recipients already sent to were counted under.
 */
export const PAUSED_SENDING_STEP_FIELDS: readonly TCampaignStepField[] = [
  'message',
  'redirect_to',
  'short_url_domain_id',
  'send_by_minutes',
];

/** Settings the engine has acted on once the campaign started: where and from whom, and when. */
const FIXED_ONCE_STARTED: readonly TCampaignField[] = [
  'gateway_id',
  'sender',
  'timezone',
  'start_at',
  'skip_invalid_phones',
];

/** Where the answer is "no", the message code the server refuses with and the web shows. */
export type TRuleAnswer = { ok: true } | { ok: false; code: TMessageCode };

const OK: TRuleAnswer = { ok: true };
const no = (code: TMessageCode): TRuleAnswer => ({ ok: false, code });

/** Active, completed and failed cannot be edited; processing is being fixed; rejected goes to draft first. */
const EDITABLE: ReadonlySet<TCampaignStatus> = new Set(['draft', 'scheduled', 'paused']);

/** The campaign's own settings. */
export function canEditCampaign(c: TCampaignFacts, field?: TCampaignField): TRuleAnswer {
  if (!EDITABLE.has(c.status)) return no('campaign_not_editable');
  if (field && c.started && FIXED_ONCE_STARTED.includes(field)) return no('campaign_field_fixed');
  return OK;
}

/** Audiences, sources and lists: only in draft. */
export function canEditAudience(c: TCampaignFacts): TRuleAnswer {
  return c.status === 'draft' ? OK : no('campaign_audience_draft_only');
}

/** Adding (and deleting) steps: only in draft. */
export function canAddStep(c: TCampaignFacts): TRuleAnswer {
  return c.status === 'draft' ? OK : no('campaign_steps_draft_only');
}

export function canDeleteStep(c: TCampaignFacts): TRuleAnswer {
  return c.status === 'draft' ? OK : no('campaign_steps_draft_only');
}

/**
 * A step's fields: everything in draft; in scheduled and paused only a step not sent yet, and in
 * paused also the step being sent, for the fields of `PAUSED_SENDING_STEP_FIELDS`.
 */
export function canEditStep(
  c: TCampaignFacts,
  step: { status: TCampaignStepStatus },
  fields: readonly TCampaignStepField[],
): TRuleAnswer {
  if (!EDITABLE.has(c.status)) return no('campaign_not_editable');
  if (c.status === 'draft' || step.status === 'not_sent') return OK;
  if (
    c.status === 'paused' &&
    step.status === 'sending' &&
    fields.every((f) => PAUSED_SENDING_STEP_FIELDS.includes(f))
  ) {
    return OK;
  }
  return no('campaign_step_not_editable');
}

/** Test sends: not for active, completed, failed (spec), nor processing or rejected. */
export function canTestCampaign(c: TCampaignFacts): TRuleAnswer {
  return EDITABLE.has(c.status) ? OK : no('campaign_not_testable');
}

/** Delete: never while its recipients are being fixed or its messages sent. */
export function canDeleteCampaign(c: TCampaignFacts): TRuleAnswer {
  return c.status === 'processing' || c.status === 'active' ? no('campaign_not_deletable') : OK;
}

/** Statistics exist once a campaign has left draft and scheduled (spec: 'Statistic is unavailable'). */
export function hasStatistics(c: TCampaignFacts): boolean {
  return c.status !== 'draft' && c.status !== 'scheduled';
}

/** Campaigns whose audience can become a segment (spec, results half). */
export function canCreateSegmentFrom(c: TCampaignFacts): boolean {
  return c.status === 'completed' || c.status === 'failed' || c.status === 'paused';
}

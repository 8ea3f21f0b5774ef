import { describe, expect, it } from 'vitest';
import {
  CAMPAIGN_MOVES,
  CAMPAIGN_STATUSES,
  canAddStep,
  canDeleteCampaign,
  canEditAudience,
  canEditCampaign,
  canEditStep,
  canMoveCampaign,
  canTestCampaign,
  manualMovesOf,
  type TCampaignStatus,
} from './campaign-moves.ts';
import { delayParts } from './campaigns.schemas.ts';

const at = (status: TCampaignStatus, started = false) => ({ status, started });

describe('campaign moves', () => {
  it('names only known statuses and never moves a status to itself', () => {
    for (const from of CAMPAIGN_STATUSES) {
      for (const m of CAMPAIGN_MOVES[from]) {
        expect(CAMPAIGN_STATUSES).toContain(m.to);
        expect(m.to).not.toBe(from);
      }
    }
  });

  it('ends at completed and failed', () => {
    expect(CAMPAIGN_MOVES.completed).toEqual([]);
    expect(CAMPAIGN_MOVES.failed).toEqual([]);
  });

  it('offers the manual list without the current status, only where the table allows it', () => {
    expect(manualMovesOf(at('draft'))).toEqual(['scheduled']);
    expect(manualMovesOf(at('scheduled'))).toEqual(['draft', 'paused']);
    expect(manualMovesOf(at('scheduled', true))).toEqual(['paused']);
    expect(manualMovesOf(at('active', true))).toEqual(['paused']);
    expect(manualMovesOf(at('processing', true))).toEqual(['paused']);
    expect(manualMovesOf(at('paused', true))).toEqual(['scheduled']);
    expect(manualMovesOf(at('paused'))).toEqual(['draft', 'scheduled']);
    expect(manualMovesOf(at('completed', true))).toEqual([]);
    expect(manualMovesOf(at('failed', true))).toEqual([]);
  });

  it('from rejected offers only draft, whatever the configured list holds', () => {
    expect(manualMovesOf(at('rejected'), ['draft', 'scheduled', 'paused', 'active', 'completed'])).toEqual(['draft']);
  });

  it('keeps the engine moves away from users', () => {
    expect(canMoveCampaign(at('scheduled'), 'processing', 'user')).toBe(false);
    expect(canMoveCampaign(at('scheduled'), 'processing', 'engine')).toBe(true);
    expect(canMoveCampaign(at('active', true), 'completed', 'user')).toBe(false);
    expect(canMoveCampaign(at('active', true), 'failed', 'engine')).toBe(true);
    expect(canMoveCampaign(at('draft'), 'active', 'engine')).toBe(false);
    expect(canMoveCampaign(at('scheduled'), 'rejected', 'moderation')).toBe(true);
    expect(canMoveCampaign(at('scheduled'), 'rejected', 'user')).toBe(false);
  });
});

describe('editing rules', () => {
  it('lets draft, scheduled and paused be edited, nothing else', () => {
    const editable = CAMPAIGN_STATUSES.filter((s) => canEditCampaign(at(s)).ok);
    expect(editable).toEqual(['draft', 'scheduled', 'paused']);
    expect(canEditCampaign(at('active', true))).toEqual({ ok: false, code: 'campaign_not_editable' });
  });

  it('fixes gateway, sender, zone and start once started, but not name or frequency', () => {
    expect(canEditCampaign(at('paused', true), 'gateway_id')).toEqual({ ok: false, code: 'campaign_field_fixed' });
    expect(canEditCampaign(at('paused', true), 'start_at').ok).toBe(false);
    expect(canEditCampaign(at('paused', true), 'name').ok).toBe(true);
    expect(canEditCampaign(at('paused', true), 'frequency_per_minute').ok).toBe(true);
    expect(canEditCampaign(at('scheduled'), 'start_at').ok).toBe(true);
  });

  it('changes audiences and adds steps only in draft', () => {
    expect(CAMPAIGN_STATUSES.filter((s) => canEditAudience(at(s)).ok)).toEqual(['draft']);
    expect(CAMPAIGN_STATUSES.filter((s) => canAddStep(at(s)).ok)).toEqual(['draft']);
    expect(canAddStep(at('scheduled'))).toEqual({ ok: false, code: 'campaign_steps_draft_only' });
  });

  it('edits a step of a scheduled or paused campaign only while it is not sent', () => {
    expect(canEditStep(at('scheduled'), { status: 'not_sent' }, ['message']).ok).toBe(true);
    expect(canEditStep(at('paused', true), { status: 'not_sent' }, ['delay_minutes']).ok).toBe(true);
    expect(canEditStep(at('paused', true), { status: 'sent' }, ['message'])).toEqual({
      ok: false,
      code: 'campaign_step_not_editable',
    });
    expect(canEditStep(at('scheduled', true), { status: 'sending' }, ['message']).ok).toBe(false);
    expect(canEditStep(at('active', true), { status: 'not_sent' }, ['message'])).toEqual({
      ok: false,
      code: 'campaign_not_editable',
    });
  });

  it("lets a paused campaign's sending step change its text and deadline, not its delay or cap", () => {
    expect(canEditStep(at('paused', true), { status: 'sending' }, ['message', 'send_by_minutes']).ok).toBe(true);
    expect(canEditStep(at('paused', true), { status: 'sending' }, ['message', 'limit_cap']).ok).toBe(false);
    expect(canEditStep(at('paused', true), { status: 'sending' }, ['delay_minutes']).ok).toBe(false);
  });

  it('tests and deletes by status', () => {
    expect(CAMPAIGN_STATUSES.filter((s) => canTestCampaign(at(s)).ok)).toEqual(['draft', 'scheduled', 'paused']);
    expect(CAMPAIGN_STATUSES.filter((s) => !canDeleteCampaign(at(s)).ok)).toEqual(['processing', 'active']);
  });
});

describe('delayParts', () => {
  it('writes a delay in the largest whole unit', () => {
    expect(delayParts(0)).toEqual({ value: 0, unit: 'minutes' });
    expect(delayParts(90)).toEqual({ value: 90, unit: 'minutes' });
    expect(delayParts(120)).toEqual({ value: 2, unit: 'hours' });
    expect(delayParts(2880)).toEqual({ value: 2, unit: 'days' });
  });
});

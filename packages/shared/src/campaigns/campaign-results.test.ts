import { describe, expect, it } from 'vitest';
import {
  bucketOf,
  isEngaged,
  percentOf,
  type ResultRow,
  smsStatusOf,
  UNCONFIRMED_AFTER_MS,
} from './campaign-results.ts';

const now = new Date('2026-12-01T12:00:00Z');
const row = (r: Partial<ResultRow>): ResultRow => ({
  state: 'submitted',
  status: null,
  error_code: null,
  submitted_at: now,
  ...r,
});

describe('campaign results', () => {
  it('puts every row in one bucket, with its reason', () => {
    expect(bucketOf(row({ state: 'pending', submitted_at: null }), now)).toEqual({ bucket: 'queued', reason: null });
    expect(bucketOf(row({ state: 'claimed', submitted_at: null }), now).bucket).toBe('queued');
    expect(bucketOf(row({ state: 'unknown', submitted_at: null }), now).bucket).toBe('unknown');
    expect(bucketOf(row({ status: 'delivered' }), now).bucket).toBe('delivered');
    expect(bucketOf(row({ status: 'blocked_by_carrier' }), now)).toEqual({
      bucket: 'failed',
      reason: 'blocked_by_carrier',
    });
    expect(bucketOf(row({ state: 'failed', error_code: 'gateway_rejected' }), now)).toEqual({
      bucket: 'failed',
      reason: 'gateway_rejected',
    });
    expect(bucketOf(row({ state: 'failed', error_code: 'skipped_opted_out' }), now)).toEqual({
      bucket: 'skipped',
      reason: 'opted_out',
    });
  });

  it('calls a sent message unconfirmed only after 72 hours without a final report', () => {
    const just = new Date(now.getTime() - UNCONFIRMED_AFTER_MS + 1000);
    const old = new Date(now.getTime() - UNCONFIRMED_AFTER_MS);
    expect(bucketOf(row({ status: 'sent', submitted_at: just }), now).bucket).toBe('sent');
    expect(bucketOf(row({ status: 'sent', submitted_at: old }), now).bucket).toBe('unconfirmed');
    expect(bucketOf(row({ status: null, submitted_at: old }), now).bucket).toBe('unconfirmed');
    // A final report is final whenever it came.
    expect(bucketOf(row({ status: 'delivered', submitted_at: old }), now).bucket).toBe('delivered');
  });

  it('maps rows onto the spec SMS statuses', () => {
    expect(smsStatusOf(row({ state: 'pending' }))).toBe('queued');
    expect(smsStatusOf(row({ state: 'claimed' }))).toBe('sending');
    expect(smsStatusOf(row({ status: null }))).toBe('sent');
    expect(smsStatusOf(row({ status: 'undelivered' }))).toBe('failed');
    expect(smsStatusOf(row({ status: 'inactive_device' }))).toBe('inactive_device');
    expect(smsStatusOf(row({ state: 'failed', error_code: 'gateway_rejected' }))).toBe('failed');
    expect(smsStatusOf(row({ state: 'failed', error_code: 'skipped_capped' }))).toBeNull();
    expect(smsStatusOf(row({ state: 'unknown' }))).toBeNull();
  });

  it('floors percentages and counts engagement', () => {
    expect(percentOf(2, 3)).toBe(66);
    expect(percentOf(1, 0)).toBe(0);
    expect(isEngaged({ clicked: false, unsubscribed: true })).toBe(true);
    expect(isEngaged({ clicked: false, unsubscribed: false })).toBe(false);
  });
});

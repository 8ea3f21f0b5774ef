import { describe, expect, it } from 'vitest';
import { canMoveStatus, FINAL_MESSAGE_STATUSES, MESSAGE_STATUSES } from './message-status.ts';

describe('message status rank rule', () => {
  it('moves forwards along queued → sending → sent → final', () => {
    expect(canMoveStatus(null, 'queued')).toBe(true);
    expect(canMoveStatus('queued', 'sending')).toBe(true);
    expect(canMoveStatus('queued', 'sent')).toBe(true);
    expect(canMoveStatus('sending', 'sent')).toBe(true);
    for (const final of FINAL_MESSAGE_STATUSES) {
      expect(canMoveStatus('sent', final)).toBe(true);
      expect(canMoveStatus('queued', final)).toBe(true);
    }
  });

  it('never moves backwards, and a repeated report changes nothing', () => {
    expect(canMoveStatus('sent', 'sending')).toBe(false);
    expect(canMoveStatus('delivered', 'sent')).toBe(false);
    expect(canMoveStatus('failed', 'queued')).toBe(false);
    for (const s of MESSAGE_STATUSES) expect(canMoveStatus(s, s)).toBe(false);
  });

  it('never changes one final status into another', () => {
    for (const a of FINAL_MESSAGE_STATUSES) {
      for (const b of FINAL_MESSAGE_STATUSES) expect(canMoveStatus(a, b)).toBe(false);
    }
    expect(FINAL_MESSAGE_STATUSES).toEqual([
      'delivered',
      'undelivered',
      'failed',
      'blocked_by_carrier',
      'inactive_device',
    ]);
  });
});

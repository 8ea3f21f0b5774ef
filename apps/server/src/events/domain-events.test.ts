import { describe, expect, it } from 'vitest';
import { createDomainEvents } from './domain-events.ts';

describe('domain events', () => {
  it('runs every handler of the event with its payload, and a failing one stops no other', async () => {
    const errors: string[] = [];
    const hub = createDomainEvents((_error, name) => errors.push(name));
    const heard: number[] = [];
    hub.on('billing.balance_raised', () => {
      throw new Error('boom');
    });
    hub.on('billing.balance_raised', (p) => {
      heard.push(p.userId);
    });
    hub.on('messages.moved', () => {
      heard.push(-1);
    });
    await hub.emit('billing.balance_raised', { teamId: 1, userId: 7 });
    expect(heard).toEqual([7]);
    expect(errors).toEqual(['billing.balance_raised']);
  });
});

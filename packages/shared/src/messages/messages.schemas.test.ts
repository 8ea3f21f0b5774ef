import { describe, expect, it } from 'vitest';
import { ZSingleSmsRequest } from './messages.schemas.ts';

describe('ZSingleSmsRequest', () => {
  it('needs a phone or a lead', () => {
    expect(ZSingleSmsRequest.safeParse({ message: 'Hi' }).success).toBe(false);
    expect(ZSingleSmsRequest.safeParse({ message: 'Hi', phone: '0501234567' }).success).toBe(true);
    expect(ZSingleSmsRequest.safeParse({ message: 'Hi', lead_id: 3 }).success).toBe(true);
  });
});

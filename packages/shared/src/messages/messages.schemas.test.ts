import { describe, expect, it } from 'vitest';
import { isStopMessage, ZSingleSmsRequest } from './messages.schemas.ts';

describe('isStopMessage', () => {
  it('takes every opt-out word in any case, trimmed', () => {
    for (const word of [
      'STOP',
      ' stop ',
      'StopAll',
      'unsubscribe',
      'Cancel',
      'end',
      'QUIT',
      'стоп',
      'Відписатися',
      'ОТПИСАТЬСЯ\n',
    ])
      expect(isStopMessage(word)).toBe(true);
  });
  it('is the whole message, not a word inside it', () => {
    for (const text of ["don't stop", 'stop it', 'STOP!', 'unsubscribe me', '', 'stopp'])
      expect(isStopMessage(text)).toBe(false);
  });
});

describe('ZSingleSmsRequest', () => {
  it('needs a phone or a lead', () => {
    expect(ZSingleSmsRequest.safeParse({ message: 'Hi' }).success).toBe(false);
    expect(ZSingleSmsRequest.safeParse({ message: 'Hi', phone: '0501234567' }).success).toBe(true);
    expect(ZSingleSmsRequest.safeParse({ message: 'Hi', lead_id: 3 }).success).toBe(true);
  });
});

import { describe, expect, it } from 'vitest';
import { decodeMessage, encodeMessage, englishOf, MESSAGES, message } from './messages.ts';

describe('messages', () => {
  it('travel as one string where only a string fits, params and all', () => {
    const m = message('invalid_phone', { value: 'a&b=c?"d" 1' });
    expect(decodeMessage(encodeMessage(m))).toEqual(m);
    expect(encodeMessage(message('name_required'))).toBe('name_required');
    expect(decodeMessage('name_required')).toEqual({ code: 'name_required' });
  });

  it('leave a text that is no code as it is', () => {
    expect(decodeMessage('"777" is not a valid phone number')).toEqual({ code: '"777" is not a valid phone number' });
  });

  it('say themselves in English for API clients', () => {
    expect(englishOf(message('leads_status_set', { count: 2, status: 'blacklisted' }))).toBe(
      '2 lead(s) set to blacklisted',
    );
    expect(englishOf({ code: 'unknown' })).toBe('unknown');
  });

  it('are codes of lower-case words, so an encoded one never reads as a sentence', () => {
    expect(Object.keys(MESSAGES).filter((code) => !/^[a-z][a-z0-9_]*$/.test(code))).toEqual([]);
  });
});

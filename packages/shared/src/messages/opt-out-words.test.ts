import { describe, expect, it } from 'vitest';
import { isOptOutReply, normalizeReply } from './opt-out-words.ts';

describe('isOptOutReply', () => {
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
      expect(isOptOutReply(word), word).toBe(true);
  });

  it("takes Twilio's REVOKE and OPTOUT, and their Ukrainian and Russian forms", () => {
    for (const word of [
      'REVOKE',
      'revoke',
      'OptOut',
      'відмова',
      'Відкликати',
      'відписка',
      'отказ',
      'Отозвать',
      'отписка',
    ])
      expect(isOptOutReply(word), word).toBe(true);
  });

  it('folds fullwidth letters and drops zero-width characters before matching', () => {
    for (const word of [
      'ＳＴＯＰ',
      'ｓｔｏｐ',
      'S\u200BTOP',
      '\uFEFFSTOP',
      'ST\u200DOP\u2060',
      'RE\u00ADVOKE',
      'СТ\u200BОП',
    ])
      expect(isOptOutReply(word), JSON.stringify(word)).toBe(true);
  });

  it('is the whole message, not a word inside it', () => {
    for (const text of ["don't stop", 'stop it', 'STOP!', 'unsubscribe me', '', '\u200B', 'stopp', 'opt out please'])
      expect(isOptOutReply(text), text).toBe(false);
  });

  it('keeps Ukrainian letters when upper-casing', () => {
    expect(normalizeReply('їжак')).toBe('ЇЖАК');
  });
});

import { describe, expect, it } from 'vitest';
import { countSms, estimateSms } from './sms-parts.ts';

const a = (n: number) => 'a'.repeat(n);
const zh = (n: number) => 'ж'.repeat(n);

describe('countSms: the boundary table', () => {
  it.each([
    ['160 GSM characters', a(160), 'GSM-7', 160, 1],
    ['161 GSM characters', a(161), 'GSM-7', 161, 2],
    ['153 × 2 GSM characters', a(306), 'GSM-7', 306, 2],
    ['153 × 2 + 1 GSM characters', a(307), 'GSM-7', 307, 3],
    ['80 euro signs (extension, 2 each)', '€'.repeat(80), 'GSM-7', 160, 1],
    ['81 euro signs', '€'.repeat(81), 'GSM-7', 162, 2],
    ['80 form feeds (extension)', '\f'.repeat(80), 'GSM-7', 160, 1],
    ['every extension character', '|^€{}[~]\\', 'GSM-7', 18, 1],
    ['an escape pair that fits the end of part 1', `${a(151)}€${a(152)}`, 'GSM-7', 305, 2],
    ['an escape pair that would straddle parts 1 and 2', `${a(152)}€${a(152)}`, 'GSM-7', 306, 3],
    ['70 Cyrillic letters', 'ї'.repeat(70), 'UCS-2', 70, 1],
    ['71 Cyrillic letters', 'ї'.repeat(71), 'UCS-2', 71, 2],
    ['67 × 2 Cyrillic letters', zh(134), 'UCS-2', 134, 2],
    ['67 × 2 + 1 Cyrillic letters', zh(135), 'UCS-2', 135, 3],
    ['35 emoji (2 code units each)', '😀'.repeat(35), 'UCS-2', 70, 1],
    ['36 emoji', '😀'.repeat(36), 'UCS-2', 72, 2],
    ['a surrogate pair that fits the end of part 1', `${zh(65)}😀${zh(66)}`, 'UCS-2', 133, 2],
    ['a surrogate pair that would straddle parts 1 and 2', `${zh(66)}😀${zh(66)}`, 'UCS-2', 134, 3],
    ['one Latin text turned Unicode by a curly apostrophe', `Don’t miss ${a(60)}`, 'UCS-2', 71, 2],
    ['CR and LF (1 each)', 'a\r\nb', 'GSM-7', 4, 1],
  ] as const)('%s', (_, text, encoding, characters, parts) => {
    expect(countSms(text)).toMatchObject({ encoding, characters, parts });
  });

  it('names the characters that forced Unicode, once each', () => {
    expect(countSms('Hello ґаз ґ 😀').unicodeCharacters).toEqual(['ґ', 'а', 'з', '😀']);
    expect(countSms('Hello € [x]').unicodeCharacters).toEqual([]);
  });

  it('an empty message is no part at all', () => {
    expect(countSms('')).toMatchObject({ characters: 0, parts: 0 });
  });

  it('tells what a part holds: 160/70 alone, 153/67 once split', () => {
    expect(countSms(a(160)).perPart).toBe(160);
    expect(countSms(a(161)).perPart).toBe(153);
    expect(countSms(zh(70)).perPart).toBe(70);
    expect(countSms(zh(71)).perPart).toBe(67);
  });
});

describe('estimateSms: placeholders', () => {
  it('counts {{link}} and {{unsubscribe}} as 17 characters each', () => {
    expect(estimateSms('{{link}}').characters).toBe(17);
    expect(estimateSms(`${a(143)}{{link}}`)).toMatchObject({ characters: 160, parts: 1 });
    expect(estimateSms(`${a(144)}{{link}}`)).toMatchObject({ characters: 161, parts: 2 });
    expect(estimateSms('Stop: {{unsubscribe}}').characters).toBe(23);
  });

  it('counts a tag by the longest value it may become, or as written when none is known', () => {
    expect(estimateSms('Hi {{first_name}}!', { first_name: ['Ann', 'Bartholomew'] }).characters).toBe(15);
    expect(estimateSms('Hi {{first_name}}!', { first_name: 'Bo' }).characters).toBe(6);
    expect(estimateSms('Hi {{first_name}}!').characters).toBe(18);
  });

  it('a value in Cyrillic makes the whole message Unicode', () => {
    expect(estimateSms('Hi {{first_name}}', { first_name: 'Олена' })).toMatchObject({
      encoding: 'UCS-2',
      characters: 8,
    });
  });
});

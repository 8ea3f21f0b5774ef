import { describe, expect, it } from 'vitest';
import { isAlphaName } from './alpha-names.schemas.ts';

describe('alpha names follow the GSM sender rules', () => {
  it.each(['Shop', 'Shop.UA', 'A&B Co', 'my-shop_1', 'ElevenChars', 'X', '7eleven'])('takes %s', (name) => {
    expect(isAlphaName(name)).toBe(true);
  });

  it.each([
    ['twelve characters', 'TwelveLetter'],
    ['Cyrillic', 'Магазин'],
    ['digits only (reads as a number)', '12345'],
    ['marks outside . - _ &', 'Shop!'],
    ['a space at an end', 'Shop '],
    ['empty', ''],
  ])('refuses %s', (_, name) => {
    expect(isAlphaName(name)).toBe(false);
  });
});

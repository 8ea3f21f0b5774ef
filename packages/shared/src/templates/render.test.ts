import { describe, expect, it } from 'vitest';
import { placeholdersOf, renderMessage, stretchForCounting } from './render.ts';

describe('renderMessage', () => {
  it('puts each lead value, link and unsubscribe link in place', () => {
    expect(
      renderMessage('{{first_name}}, -20% today: {{link}} Stop: {{unsubscribe}}', {
        attributes: { first_name: 'Olena' },
        link: 'hrld.ua/Ab3dE9x',
        unsubscribe: 'hrld.ua/Zz1Yy2w',
      }),
    ).toBe('Olena, -20% today: hrld.ua/Ab3dE9x Stop: hrld.ua/Zz1Yy2w');
  });

  it('joins several values of one attribute and reads tags case-insensitively with inner spaces', () => {
    expect(renderMessage('{{ City }} / {{CITY}}', { attributes: { city: ['Kyiv', 'Lviv'] } })).toBe(
      'Kyiv; Lviv / Kyiv; Lviv',
    );
  });

  it('a tag without a value becomes nothing, never the raw tag', () => {
    expect(renderMessage('Hi {{first_name}}, see {{link}}')).toBe('Hi , see ');
  });

  it('leaves single braces and unknown shapes alone', () => {
    expect(renderMessage('{x} {{ }} {{a-b}}', {})).toBe('{x} {{ }} {{a-b}}');
  });
});

describe('placeholdersOf and stretchForCounting', () => {
  it('lists distinct tags in order', () => {
    expect(placeholdersOf('{{link}} {{first_name}} {{LINK}} {{city}}')).toEqual(['link', 'first_name', 'city']);
  });

  it('stretches links to 17 characters and tags to their longest value', () => {
    expect(stretchForCounting('{{link}}|{{name}}|{{x}}', { name: ['a', 'abc'] })).toBe(`${'x'.repeat(17)}|abc|xxxxx`);
  });
});

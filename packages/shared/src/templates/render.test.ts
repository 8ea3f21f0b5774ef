import { describe, expect, it } from 'vitest';
import {
  fallbackOf,
  placeholderGaps,
  placeholdersOf,
  renderMessage,
  stretchForCounting,
  unknownPlaceholders,
} from './render.ts';

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

  it('a tag without a value becomes its fallback; a value wins over the fallback', () => {
    const text = 'Привіт, {{imia|друже}}! {{ misto | Київ }}';
    expect(renderMessage(text, { attributes: {} })).toBe('Привіт, друже! Київ');
    expect(renderMessage(text, { attributes: { imia: 'Олена', misto: ['', ''] } })).toBe('Привіт, Олена! Київ');
    expect(renderMessage(text, { attributes: { imia: '', misto: 'Львів' } })).toBe('Привіт, друже! Львів');
    // An empty fallback is no fallback; one written on any use of a tag serves all its uses.
    expect(renderMessage('Hi {{imia|}}!', {})).toBe('Hi !');
    expect(renderMessage('{{imia}}, {{imia|friend}}', {})).toBe('friend, friend');
  });

  it('leaves single braces and unknown shapes alone', () => {
    expect(renderMessage('{x} {{ }} {{a-b}} {{a|b{c}}', {})).toBe('{x} {{ }} {{a-b}} {{a|b{c}}');
  });
});

describe('placeholdersOf, fallbackOf and unknownPlaceholders', () => {
  it('lists distinct tags in order, fallbacks or not', () => {
    expect(placeholdersOf('{{link}} {{first_name|there}} {{LINK}} {{city}} {{first_name}}')).toEqual([
      'link',
      'first_name',
      'city',
    ]);
  });

  it('finds the fallback of any use of a tag', () => {
    expect(fallbackOf('{{imia}} {{IMIA | друже }}', 'imia')).toBe('друже');
    expect(fallbackOf('{{imia}}', 'imia')).toBeUndefined();
  });

  it('names the tags that match no attribute, links excepted', () => {
    expect(
      unknownPlaceholders('Hi {{name}}, {{imia|x}} {{link}} {{unsubscribe}} {{Misto}}', ['imia', 'phone']),
    ).toEqual(['name', 'misto']);
    expect(unknownPlaceholders('{{IMIA}} {{link}}', ['imia'])).toEqual([]);
  });
});

describe('placeholderGaps', () => {
  it('counts recipients without a value: the fallback for tags that have one, empty for the others', () => {
    const recipients = [{ imia: 'Olena', misto: 'Kyiv' }, { imia: '' }, { misto: ['Lviv'] }, {}];
    expect(placeholderGaps('{{imia|друже}} {{misto}} {{link}}', recipients)).toEqual([
      { tag: 'imia', fallback: 'друже', fallbackCount: 3, emptyCount: 0 },
      { tag: 'misto', fallback: undefined, fallbackCount: 0, emptyCount: 2 },
    ]);
  });
});

describe('stretchForCounting', () => {
  it('stretches links to 17 characters and tags to their longest value', () => {
    expect(stretchForCounting('{{link}}|{{name}}|{{x}}', { name: ['a', 'abc'] })).toBe(`${'x'.repeat(17)}|abc|xxxxx`);
  });

  it('counts the fallback for a recipient without a value, and keeps a fallback with an unknown value', () => {
    expect(stretchForCounting('{{imia|friend}}', { imia: '' })).toBe('friend');
    expect(stretchForCounting('{{imia|friend}}', { imia: ['Al', ''] })).toBe('friend');
    expect(stretchForCounting('{{imia|друже}}')).toBe('друже'.padEnd(14, 'x'));
  });
});

import { describe, expect, it } from 'vitest';
import { collapseSpaces, plainTypography, suggestImprovements } from './message-improver.ts';

describe('plainTypography and collapseSpaces', () => {
  it('turns typographic marks into their GSM equivalents', () => {
    expect(plainTypography('“Sale” – don’t miss it… «now»\u00A0— ok')).toBe('"Sale" - don\'t miss it... "now" - ok');
  });

  it('removes doubled spaces and spaces at line ends, keeping line breaks', () => {
    expect(collapseSpaces('Hi  there   friend  \nnext  line ')).toBe('Hi there friend\nnext line');
  });
});

describe('suggestImprovements', () => {
  it('offers plain typography with the parts it saves', () => {
    const text = `Don’t miss our sale ${'a'.repeat(60)}`;
    expect(suggestImprovements(text)).toEqual([
      { kind: 'typography', text: `Don't miss our sale ${'a'.repeat(60)}`, partsBefore: 2, partsAfter: 1 },
    ]);
  });

  it('offers removing doubled spaces', () => {
    const [s] = suggestImprovements(`Hello  world${' '.repeat(3)}again`);
    expect(s).toMatchObject({ kind: 'spaces', text: 'Hello world again' });
  });

  it('offers nothing for a message that is already plain', () => {
    expect(suggestImprovements('Sale today: {{link}}', { transliterate: 'uk' })).toEqual([]);
  });

  it('transliterates on request, Ukrainian by the national rules, fully plain', () => {
    const text = 'Юрій, знижка 20% на «Ялинку» до неділі — {{link}}';
    const [latin] = suggestImprovements(text, { transliterate: 'uk' }).filter((s) => s.kind === 'transliterate_uk');
    expect(latin).toEqual({
      kind: 'transliterate_uk',
      text: 'Yurii, znyzhka 20% na "Yalynku" do nedili - {{link}}',
      partsBefore: 1,
      partsAfter: 1,
    });
  });

  it('a long Cyrillic message in Latin takes fewer parts', () => {
    const text =
      'Уважаемый клиент, ваш заказ готов к выдаче в отделении. Спасибо, что выбрали нас! Подробности: {{link}}';
    const [latin] = suggestImprovements(text, { transliterate: 'ru' });
    expect(latin?.kind).toBe('transliterate_ru');
    expect(latin?.partsBefore).toBe(2);
    expect(latin?.partsAfter).toBe(1);
  });
});

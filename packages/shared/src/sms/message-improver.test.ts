import { describe, expect, it } from 'vitest';
import { collapseSpaces, plainTypography, suggestImprovements, transliterationFor } from './message-improver.ts';

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

  it('offers removing doubled spaces when that saves a part', () => {
    const [s] = suggestImprovements(`Hello  world${' '.repeat(3)}again ${'a'.repeat(142)}`);
    expect(s).toMatchObject({
      kind: 'spaces',
      text: `Hello world again ${'a'.repeat(142)}`,
      partsBefore: 2,
      partsAfter: 1,
    });
  });

  it('offers no change that saves no part', () => {
    expect(suggestImprovements('Hello  world, don’t miss it')).toEqual([]);
    expect(suggestImprovements('Юрій, знижка 20% на «Ялинку» до неділі — {{link}}', { transliterate: 'uk' })).toEqual(
      [],
    );
  });

  it('offers nothing for a message that is already plain', () => {
    expect(suggestImprovements('Sale today: {{link}}', { transliterate: 'uk' })).toEqual([]);
  });

  it('transliterates on request, Ukrainian by the national rules, fully plain', () => {
    const text = 'Юрій, знижка 20% на «Ялинку» до неділі — {{link}}. Чекаємо на вас щодня з 9 до 21 години!';
    const [latin] = suggestImprovements(text, { transliterate: 'uk' }).filter((s) => s.kind === 'transliterate_uk');
    expect(latin).toEqual({
      kind: 'transliterate_uk',
      text: 'Yurii, znyzhka 20% na "Yalynku" do nedili - {{link}}. Chekaiemo na vas shchodnia z 9 do 21 hodyny!',
      partsBefore: 2,
      partsAfter: 1,
    });
  });

  it('picks one rule for a text: its own letters, else the writer’s language', () => {
    expect(transliterationFor('Знижка на все', 'en')).toBe('uk');
    expect(transliterationFor('Скидка на всё', 'uk')).toBe('ru');
    expect(transliterationFor('Привет, Марина', 'ru')).toBe('ru');
    expect(transliterationFor('Привет, Марина', 'uk')).toBe('uk');
    expect(transliterationFor('Sale today', 'uk')).toBeUndefined();
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

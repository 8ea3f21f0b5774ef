import { describe, expect, it } from 'vitest';
import { transliterate } from './transliterate.ts';

describe('Ukrainian: the examples of Cabinet of Ministers resolution No. 55 (2010)', () => {
  it.each([
    ['Алушта', 'Alushta'],
    ['Андрій', 'Andrii'],
    ['Борщагівка', 'Borshchahivka'],
    ['Вінниця', 'Vinnytsia'],
    ['Гадяч', 'Hadiach'],
    ['Згорани', 'Zghorany'],
    ['Розгон', 'Rozghon'],
    ['Ґалаґан', 'Galagan'],
    ['Дон', 'Don'],
    ['Рівне', 'Rivne'],
    ['Єнакієве', 'Yenakiieve'],
    ['Наєнко', 'Naienko'],
    ['Житомир', 'Zhytomyr'],
    ['Закарпаття', 'Zakarpattia'],
    ['Медвин', 'Medvyn'],
    ['Іршава', 'Irshava'],
    ['Їжакевич', 'Yizhakevych'],
    ['Кадиївка', 'Kadyivka'],
    ['Йосипівка', 'Yosypivka'],
    ['Стрий', 'Stryi'],
    ['Олексій', 'Oleksii'],
    ['Хотин', 'Khotyn'],
    ['Шостка', 'Shostka'],
    ['Щербухи', 'Shcherbukhy'],
    ['Гоща', 'Hoshcha'],
    ['Юрій', 'Yurii'],
    ['Корюківка', 'Koriukivka'],
    ['Яготин', 'Yahotyn'],
    ['Костянтин', 'Kostiantyn'],
    ['Знам’янка', 'Znamianka'],
    ['Феодосія', 'Feodosiia'],
    ['Мар’їне', 'Marine'],
    ['Луцьк', 'Lutsk'],
  ])('%s → %s', (cyrillic, latin) => {
    expect(transliterate(cyrillic, 'uk')).toBe(latin);
  });

  it('applies the word-start forms inside a sentence and keeps punctuation, tags and quotes', () => {
    expect(transliterate('Юрій, є знижка на «Ялинку» — {{link}}', 'uk')).toBe(
      'Yurii, ye znyzhka na «Yalynku» — {{link}}',
    );
    expect(transliterate("Він сказав 'так'", 'uk')).toBe("Vin skazav 'tak'");
  });

  it('keeps an upper-case word upper case', () => {
    expect(transliterate('ЗГОРАНИ Щастя ЩАСТЯ', 'uk')).toBe('ZGHORANY Shchastia SHCHASTIA');
  });
});

describe('Russian: ICAO Doc 9303', () => {
  it.each([
    ['Привет', 'Privet'],
    ['Юрий', 'Iurii'],
    ['Щука', 'Shchuka'],
    ['Цой', 'Tsoi'],
    ['съезд', 'sieezd'],
    ['ёж', 'ezh'],
    ['Хабаровск', 'Khabarovsk'],
    ['Ярославль', 'Iaroslavl'],
  ])('%s → %s', (cyrillic, latin) => {
    expect(transliterate(cyrillic, 'ru')).toBe(latin);
  });
});

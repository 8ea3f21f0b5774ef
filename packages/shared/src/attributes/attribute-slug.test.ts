import { describe, expect, it } from 'vitest';
import { attributeSlug } from './attribute-slug.ts';

describe('attributeSlug', () => {
  it('reads Ukrainian names by the 2010 national rule', () => {
    expect(attributeSlug("Ім'я")).toBe('imia');
    expect(attributeSlug('Ім’я')).toBe('imia');
    expect(attributeSlug('Місто')).toBe('misto');
    expect(attributeSlug('Прізвище')).toBe('prizvyshche');
    expect(attributeSlug('Дата народження')).toBe('data_narodzhennia');
    expect(attributeSlug('Згода на розсилку')).toBe('zghoda_na_rozsylku');
    expect(attributeSlug('Юрій Їжак')).toBe('yurii_yizhak');
    expect(attributeSlug('Область')).toBe('oblast');
  });

  it('reads Russian names by ICAO Doc 9303, by their letters or by the namer’s language', () => {
    expect(attributeSlug('Отчество')).toBe('otchestvo');
    expect(attributeSlug('Объём')).toBe('obieem');
    expect(attributeSlug('Город', 'ru')).toBe('gorod');
    expect(attributeSlug('Город', 'uk')).toBe('horod');
    expect(attributeSlug('Имя', 'ru')).toBe('imia');
  });

  it('keeps Latin names, drops accents and punctuation, never gives an empty slug', () => {
    expect(attributeSlug('First name')).toBe('first_name');
    expect(attributeSlug('Café №2 — VIP!')).toBe('cafe_no2_vip');
    expect(attributeSlug('  ')).toBe('attribute');
    expect(attributeSlug('😀')).toBe('attribute');
    expect(attributeSlug(`${'a'.repeat(59)} b`)).toBe('a'.repeat(59));
  });
});

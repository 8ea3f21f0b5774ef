import { describe, expect, it } from 'vitest';
import { sampleImportFile } from './sample-import-file.ts';

describe('the sample import file', () => {
  it('is a CSV in the user’s language, with a header and the same rows in every language', () => {
    const uk = sampleImportFile('uk');
    const en = sampleImportFile('en');
    const ru = sampleImportFile('ru');
    expect(uk.text.split('\r\n')[0]).toBe("Телефон,Ел. пошта,Ім'я,Місто");
    expect(en.text.split('\r\n')[0]).toBe('Phone,Email,Name,City');
    expect(ru.text.split('\r\n')[0]).toBe('Телефон,Эл. почта,Имя,Город');
    for (const f of [uk, en, ru]) expect(f.text.trim().split('\r\n')).toHaveLength(7);
    // The phone column is the same in all three, so the outcome is the same whatever the language.
    const phones = (t: string) =>
      t
        .trim()
        .split('\r\n')
        .slice(1)
        .map((l) => l.split(',')[0]);
    expect(phones(uk.text)).toEqual(phones(en.text));
    expect(sampleImportFile('de').name).toBe(uk.name);
  });
});

import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { detectDelimiter } from '../file-sniff.ts';
import { csvRecords } from './row-readers.ts';

/** Cuts `text` at the given offsets (sorted, deduplicated). */
function piecesAt(text: string, cuts: number[]) {
  const at = [...new Set(cuts)].sort((a, b) => a - b);
  return [0, ...at].map((from, i) => text.slice(from, at[i] ?? text.length));
}

// Each piece parsed ends at a line break, after which papaparse reads an empty record; imports skip
// empty records (row numbers count the others), so the records compared are the non-empty ones.
const nonEmpty = (rows: string[][]) => rows.filter((r) => r.some((c) => c !== ''));

async function records(pieces: string[], delimiter: string) {
  const rows: string[][] = [];
  for await (const row of csvRecords(pieces, delimiter)) rows.push(row);
  return nonEmpty(rows);
}

const whole = (text: string, delimiter: string) =>
  nonEmpty(Papa.parse<string[]>(text, { delimiter, newline: undefined, skipEmptyLines: false }).data);

describe('CSV read in pieces', () => {
  const tricky = [
    'Phone;Note;City',
    '+380501111111;"a ""quoted"" word";Kyiv',
    '+380502222222;"two\nlines; and a delimiter";"Lviv"',
    '+380503333333;mid"field quote;Odesa',
    '+380504444444;"";""',
    '+380505555555;"ends with a quote """;Dnipro',
    '+380506666666;;',
    // A line break after an escaped quote, inside the same field: cutting at it splits the record.
    '+380507777777;"say ""hi""\nand go on";Lutsk',
  ];

  it('gives the records papaparse reads from the whole text, wherever the pieces are cut', async () => {
    for (const eol of ['\n', '\r\n']) {
      const text = tricky.join(eol) + eol;
      const expected = whole(text, ';');
      expect(expected).toHaveLength(tricky.length);
      // Every single cut, including between the two quotes of an escaped "" and before a line break.
      for (let at = 1; at < text.length; at++) {
        expect(await records(piecesAt(text, [at]), ';'), `cut at ${at} (${JSON.stringify(eol)})`).toEqual(expected);
      }
      // And many random cuts at once, down to one character a piece.
      let seed = 7;
      const random = () => {
        seed = (seed * 1103515245 + 12345) % 2 ** 31;
        return seed / 2 ** 31;
      };
      for (let round = 0; round < 200; round++) {
        const cuts = Array.from({ length: 1 + Math.floor(random() * 30) }, () => Math.floor(random() * text.length));
        expect(await records(piecesAt(text, cuts), ';')).toEqual(expected);
      }
      expect(await records([...text], ';')).toEqual(expected);
    }
  });

  it('keeps a file without a final line break, and empty pieces change nothing', async () => {
    const text = 'a,b\n"x\ny",z';
    expect(await records(['', 'a,b\n"x', '', '\ny",z', ''], ',')).toEqual(whole(text, ','));
  });
});

describe("Excel's sep= line", () => {
  it('names the delimiter, quoted or not, after a BOM, whatever the lines below would suggest', () => {
    expect(detectDelimiter('sep=;\r\na,b,c\n1,2,3\n')).toBe(';');
    expect(detectDelimiter('\uFEFF"sep=\t"\na;b\n')).toBe('\t');
    expect(detectDelimiter('SEP=,\na;b;c\n')).toBe(',');
    expect(detectDelimiter('sep=\t\r\na;b;c\n')).toBe('\t');
    // Not a hint: another delimiter than the three, or more on the line.
    expect(detectDelimiter('sep=|;\na;b\n1;2\n')).toBe(';');
    expect(detectDelimiter('sep=;x,\na,b\n1,2\n')).toBe(',');
  });

  it('is dropped from the records; a header or a later line that looks alike stays', async () => {
    expect(await records(['sep=;\r\nPhone;City\r\n+380501;Kyiv\r\n'], ';')).toEqual([
      ['Phone', 'City'],
      ['+380501', 'Kyiv'],
    ]);
    expect(await records(['"sep=,"\nPhone,City\n'], ',')).toEqual([['Phone', 'City']]);
    expect(await records(['sep=\t\nPhone\tCity\n'], '\t')).toEqual([['Phone', 'City']]);
    expect(await records(['"sep=\t"\nPhone\tCity\n'], '\t')).toEqual([['Phone', 'City']]);
    // Named for another delimiter than the file is read with: a record like any other.
    expect(await records(['sep=,\nPhone;City\n'], ';')).toEqual([['sep=,'], ['Phone', 'City']]);
    expect(await records(['Phone;City\nsep=;\n'], ';')).toEqual([
      ['Phone', 'City'],
      ['sep=', ''],
    ]);
  });
});

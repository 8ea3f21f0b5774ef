import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeXml, rowCells, xlsxSheetRows } from './xlsx-reader.ts';

describe('xlsx reader', () => {
  const dir = mkdtempSync(join(tmpdir(), 'xlsx-reader-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('decodes XML escapes', () => {
    expect(decodeXml('a &amp; b &lt;c&gt; &quot;&apos; &#1047;&#x4e2d; &bogus;')).toBe(`a & b <c> "' З中 &bogus;`);
  });

  it('reads each kind of cell by its column', () => {
    const shared = ['zero', 'one'];
    const xml =
      '<c r="A1" t="s"><v>1</v></c><c r="C1" t="inlineStr"><is><r><t>Ri</t></r><r><t xml:space="preserve">ch </t></r><rPh><t>x</t></rPh></is></c>' +
      '<c r="D1"><v>3.8050123456E+11</v></c><c r="E1"><f>1+1</f><v>0</v></c><c r="F1" t="b"><v>1</v></c>' +
      '<c r="G1" t="e"><v>#N/A</v></c><c r="H1" t="str"><f>A1</f><v>x &amp; y</v></c><c r="I1"/><c r="J1"><v>1.5</v></c>' +
      '<c r="K1" t="d"><v>2024-02-03T00:00:00Z</v></c><c r="AA1"><v>7</v></c>';
    const cells = rowCells(xml, shared);
    expect(cells.slice(0, 11)).toEqual([
      'one',
      '',
      'Rich ',
      '380501234560',
      '0',
      'TRUE',
      '',
      'x & y',
      '',
      '1.5',
      '2024-02-03',
    ]);
    expect(cells).toHaveLength(27);
    expect(cells[26]).toBe('7');
  });

  it('streams the first sheet of a workbook written with shared and inline strings', async () => {
    for (const useSharedStrings of [true, false]) {
      const path = join(dir, `book-${useSharedStrings}.xlsx`);
      const book = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: path, useSharedStrings });
      const sheet = book.addWorksheet('Leads');
      sheet.addRow(['phone', 'name']).commit();
      sheet.addRow([380501234567, 'Олена & <Co>']).commit();
      sheet.getRow(5).values = ['+380501234568', { formula: 'A2&"!"', result: 'saved' }];
      sheet.getRow(5).commit();
      sheet.commit();
      book.addWorksheet('Other').addRow(['not read']).commit();
      await book.commit();
      const progress = { bytesRead: 0 };
      const rows: string[][] = [];
      for await (const row of xlsxSheetRows(path, progress)) rows.push(row);
      expect(rows).toEqual([
        ['phone', 'name'],
        ['380501234567', 'Олена & <Co>'],
        ['+380501234568', 'saved'],
      ]);
      expect(progress.bytesRead).toBeGreaterThan(0);
    }
  });
});

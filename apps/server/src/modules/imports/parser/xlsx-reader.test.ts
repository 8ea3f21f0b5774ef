import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeXml, formatKind, rowCells, serialDate, styleKinds } from './xlsx-cells.ts';
import { xlsxSheetRows } from './xlsx-reader.ts';

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

  it('tells date, date-time and time formats from number formats', () => {
    expect(formatKind('dd.mm.yyyy')).toBe('date');
    expect(formatKind('[$-422]d mmmm yyyy "р."')).toBe('date');
    expect(formatKind('yyyy-mm-dd hh:mm')).toBe('datetime');
    expect(formatKind('h:mm AM/PM')).toBe('time');
    expect(formatKind('[h]:mm:ss')).toBe('time');
    expect(formatKind('#,##0.00 "грн";[Red]-#,##0.00 "грн"')).toBe('number');
    expect(formatKind('0.00E+00')).toBe('number');
    expect(formatKind('General')).toBe('number');
    expect(formatKind('"Day" 0')).toBe('number');
    const kinds = styleKinds(
      '<styleSheet><numFmts count="1"><numFmt numFmtId="164" formatCode="dd/mm/yyyy"/></numFmts>' +
        '<cellStyleXfs count="1"><xf numFmtId="14"/></cellStyleXfs>' +
        '<cellXfs count="4"><xf numFmtId="0"/><xf numFmtId="164" applyNumberFormat="1"/><xf numFmtId="22"/><xf numFmtId="20"></xf></cellXfs></styleSheet>',
    );
    expect(kinds).toEqual(['number', 'date', 'datetime', 'time']);
  });

  it('reads serial days in both date systems', () => {
    expect(serialDate(45325, 'date')).toBe('2024-02-03');
    expect(serialDate(45325.75, 'datetime')).toBe('2024-02-03 18:00');
    expect(serialDate(0.5000115740740741, 'time')).toBe('12:00:01');
    expect(serialDate(61, 'date')).toBe('1900-03-01');
    expect(serialDate(43863, 'date', true)).toBe('2024-02-03');
    // A date style on a number cell gives the date; the same number unstyled stays a number.
    const styles = { kinds: ['number' as const, 'date' as const], date1904: false };
    expect(rowCells('<c r="A1" s="1"><v>45325</v></c><c r="B1"><v>45325</v></c><c r="C1" s="1"/>', [], styles)).toEqual(
      ['2024-02-03', '45325', ''],
    );
  });

  it('reads dates typed in Excel as dates, by their cell style', async () => {
    const path = join(dir, 'dates.xlsx');
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('Leads');
    sheet.addRow(['phone', 'birthday', 'visit', 'amount']);
    sheet.addRow(['+380501234567', new Date(Date.UTC(1990, 4, 17)), new Date(Date.UTC(2026, 10, 2, 9, 30)), 1250.5]);
    sheet.getCell('B2').numFmt = 'dd.mm.yyyy';
    sheet.getCell('C2').numFmt = 'yyyy-mm-dd hh:mm';
    sheet.getCell('D2').numFmt = '#,##0.00 "грн"';
    await book.xlsx.writeFile(path);
    const rows: string[][] = [];
    for await (const row of xlsxSheetRows(path, { bytesRead: 0 })) rows.push(row);
    expect(rows[1]).toEqual(['+380501234567', '1990-05-17', '2026-11-02 09:30', '1250.5']);
  });
});

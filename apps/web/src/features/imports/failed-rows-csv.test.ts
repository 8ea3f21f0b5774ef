import { englishOf } from '@herald/shared/common/messages';
import { describe, expect, it } from 'vitest';
import { failedRowsCsv, failedRowsFileName } from './failed-rows-csv.ts';

const ndjson = [
  JSON.stringify({
    attributes: [
      { id: 1, name: 'Phone' },
      { id: 7, name: 'City' },
    ],
  }),
  JSON.stringify({
    row_number: 4,
    reason: '"777" is not a valid phone number',
    reason_message: { code: 'invalid_phone', params: { value: '777' } },
    values: ['777', 'Kyiv, centre'],
  }),
  JSON.stringify({
    row_number: 9,
    reason: 'No value in any mapped column',
    reason_message: { code: 'no_mapped_value' },
    values: ['', ''],
  }),
  JSON.stringify({ row_number: 12, reason: 'x', reason_message: { code: 'x' }, values: ['+38050', '=cmd()'] }),
  '',
].join('\n');

describe('failed rows as CSV', () => {
  it('lays out the attributes by their names, then the row and the translated reason, guarded', () => {
    const csv = failedRowsCsv(ndjson, { row: 'Рядок', reason: 'Причина', translate: (r) => `[${englishOf(r)}]` });
    expect(csv.startsWith('\uFEFF')).toBe(true);
    expect(csv.slice(1).split('\r\n')).toEqual([
      'Phone,City,Рядок,Причина',
      '777,"Kyiv, centre",4,"[""777"" is not a valid phone number]"',
      ',,9,[No value in any mapped column]',
      "'+38050,'=cmd(),12,[x]",
      '',
    ]);
  });

  it('has a header only when nothing failed', () => {
    const csv = failedRowsCsv(`${JSON.stringify({ attributes: [{ id: 1, name: 'Phone' }] })}\n`, {
      row: 'Row',
      reason: 'Reason',
      translate: (r) => r.code,
    });
    expect(csv).toBe('\uFEFFPhone,Row,Reason\r\n');
  });

  it('names the file after the import', () => {
    expect(failedRowsFileName('leads.xlsx')).toBe('leads-failed.csv');
    expect(failedRowsFileName('Контакти.2026.csv')).toBe('Контакти.2026-failed.csv');
    expect(failedRowsFileName('.csv')).toBe('import-failed.csv');
  });
});

import { describe, expect, it } from 'vitest';
import { csvCell, csvLine, joinValues, unguardCell } from './csv-cells.ts';

describe('CSV cells', () => {
  it.each([
    ['=1+2', "'=1+2"],
    ['+38050', "'+38050"],
    ['+1 (555) 010', "'+1 (555) 010"],
    ['-5', "'-5"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\tcmd', "'\tcmd"],
    ['\rcmd', '"\'\rcmd"'],
  ])('neutralises %j', (raw, expected) => {
    expect(csvCell(raw)).toBe(expected);
  });

  it('writes validated E.164 phones as they are: they cannot run, and re-import as is', () => {
    expect(csvCell('+380501234567')).toBe('+380501234567');
    expect(csvCell(joinValues(['+380501234567', '+380671234567']))).toBe('"+380501234567; +380671234567"');
    expect(csvCell('+380501234567+1')).toBe("'+380501234567+1");
  });

  it('leaves ordinary text and inner signs alone', () => {
    expect(csvCell('Київ')).toBe('Київ');
    expect(csvCell('a=b')).toBe('a=b');
    expect(csvCell('lead@example.com')).toBe('lead@example.com');
  });

  it('quotes separators, quotes and line breaks', () => {
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('a\nb')).toBe('"a\nb"');
    expect(csvCell(joinValues(['+380501', '+380502']))).toBe('"\'+380501; +380502"');
  });

  it('ends lines with CRLF', () => {
    expect(csvLine(['a', 'b'])).toBe('a,b\r\n');
  });

  it('reads a guarded cell back as it was, and leaves any other apostrophe', () => {
    for (const raw of ['=1+2', '+380501234567', '-5', '@SUM(A1)', '\tcmd']) {
      expect(unguardCell(csvCell(raw))).toBe(raw);
    }
    expect(unguardCell("'")).toBe("'");
    expect(unguardCell("'0501234567")).toBe("'0501234567");
    expect(unguardCell("O'Brien")).toBe("O'Brien");
    expect(unguardCell("''+1")).toBe("''+1");
  });
});

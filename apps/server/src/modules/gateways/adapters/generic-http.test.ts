import { describe, expect, it } from 'vitest';
import { parseValueMap, readLookupAnswer } from './generic-http.ts';

const params = {
  lookup_url: 'https://lookup.example/v1/{{phone}}',
  lookup_carrier_path: 'data.carrier.name',
  lookup_mcc_mnc_path: 'data.carrier.network',
  lookup_type_path: 'data.line',
  lookup_type_map: 'CELL=mobile\nFIX = landline\nINTERNET=voip',
  lookup_valid_path: 'data.status',
  lookup_valid_map: 'ACTIVE=valid\nGONE=invalid',
  lookup_ported_path: 'data.ported',
};
const answer = (data: Record<string, unknown>) => ({ data });
const fieldsOf = (data: Record<string, unknown>, p: Record<string, string> = params) =>
  (readLookupAnswer(p, answer(data), '+1').raw as { fields: Record<string, unknown> }).fields;

/** The adapter's half: what the declared paths hold (the lookup normalizer reads flags and words). */
describe('a generic HTTP gateway’s lookup answer', () => {
  it('reads each declared path and maps the line type through the gateway’s own map', () => {
    const json = answer({
      carrier: { name: 'Kyivstar', network: '255-03' },
      line: 'cell',
      status: 'ACTIVE',
      ported: 1,
    });
    const read = readLookupAnswer(params, json, '+380671234567');
    expect(read).toMatchObject({ phone: '+380671234567', carrierName: 'Kyivstar', carrierType: 'mobile' });
    expect(read.raw).toEqual({
      fields: { carrier_name: 'Kyivstar', mcc_mnc: '255-03', line_type: 'mobile', valid: 'valid', ported: '1' },
      answer: json,
    });
  });

  it('maps any case of their type; a type outside the map is passed on as they wrote it', () => {
    expect(fieldsOf({ line: 'FIX' }).line_type).toBe('landline');
    expect(fieldsOf({ line: 'Internet' }).line_type).toBe('voip');
    expect(fieldsOf({ line: 'toll-free' }).line_type).toBe('toll-free');
    expect(fieldsOf({ line: null }).line_type).toBeNull();
  });

  it('reads a missing path, an object or no declared path as null, never a guess', () => {
    expect(fieldsOf({})).toEqual({ carrier_name: null, mcc_mnc: null, line_type: null, valid: null, ported: null });
    expect(fieldsOf({ carrier: { name: { first: 'X' } }, status: false })).toMatchObject({
      carrier_name: null,
      valid: false,
    });
    expect(fieldsOf({ status: 'valid' }, { lookup_url: params.lookup_url })).toMatchObject({ valid: null });
  });

  it('maps their status through the gateway’s map; a status outside it is passed on as it is', () => {
    expect(fieldsOf({ status: 'gone' }).valid).toBe('invalid');
    expect(fieldsOf({ status: 'PENDING' }).valid).toBe('PENDING');
    expect(fieldsOf({ status: true }).valid).toBe(true);
  });

  it('keeps only well-formed lines of a map, case-insensitive on their side', () => {
    expect([...parseValueMap('A=mobile\n\nbad line\n=voip\nb = landline ').entries()]).toEqual([
      ['a', 'mobile'],
      ['b', 'landline'],
    ]);
  });
});

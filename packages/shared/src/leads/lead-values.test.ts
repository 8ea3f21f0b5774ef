import { describe, expect, it } from 'vitest';
import { cellValues, normalizeLeadValue } from './lead-values.ts';

describe('cellValues', () => {
  it.each([
    ['phone', '(098) 995-00-43 ::: +380502710079', ['(098) 995-00-43', '+380502710079']],
    ['phone', '+380 93 123 4567\n093 765 4321\r\n', ['+380 93 123 4567', '093 765 4321']],
    ['email', 'a@example.com ::: b@example.com', ['a@example.com', 'b@example.com']],
    ['string', 'two\nlines', ['two\nlines']],
    ['string', '* myContacts ::: Friends', ['* myContacts', 'Friends']],
    ['phone', ' ::: ', []],
  ] as const)('%s %j', (type, cell, expected) => {
    expect(cellValues(type, cell)).toEqual(expected);
  });
});

describe('normalizeLeadValue for phones', () => {
  it('reads in the rule country; refuses with the one message code the web translates', () => {
    expect(normalizeLeadValue('phone', '512345678', { country: 'PL', ignored: [] })).toEqual({
      ok: true,
      value: '+48512345678',
    });
    expect(normalizeLeadValue('phone', '12')).toMatchObject({
      ok: false,
      message: { code: 'invalid_phone', params: { value: '12' } },
    });
    expect(normalizeLeadValue('phone', 'abc')).toMatchObject({
      ok: false,
      message: { code: 'invalid_phone', params: { value: 'abc' } },
    });
    expect(normalizeLeadValue('phone', '0671234567', { country: 'UA', ignored: [/^38067\d*$/] })).toMatchObject({
      ok: false,
      reason: 'ignored',
    });
  });
});

import { describe, expect, it } from 'vitest';
import { carrierTypeOf, normalizeLookup } from './lookup-normalize.ts';

const answer = (raw: unknown) => ({ phone: '+380671234567', carrierName: null, carrierType: null, raw });

describe('a provider answer in one vocabulary', () => {
  it('reads Twilio Lookup v2 line type intelligence', () => {
    expect(
      normalizeLookup(
        'twilio',
        answer({
          valid: true,
          line_type_intelligence: {
            carrier_name: 'Kyivstar',
            type: 'nonFixedVoip',
            mobile_country_code: '255',
            mobile_network_code: '03',
          },
        }),
      ),
    ).toEqual({
      carrier_name: 'Kyivstar',
      mcc_mnc: '25503',
      carrier_type: 'voip',
      status_label: 'valid',
      reachability: null,
      ported: null,
    });
    expect(normalizeLookup('twilio', answer({ valid: false, line_type_intelligence: null }))).toMatchObject({
      status_label: 'invalid',
      carrier_type: 'other',
    });
  });

  it('reads Telnyx number lookup with its portability', () => {
    expect(
      normalizeLookup(
        'telnyx',
        answer({
          data: {
            valid_number: true,
            carrier: {
              name: 'Vodafone Ukraine',
              type: 'fixed line',
              mobile_country_code: '255',
              mobile_network_code: '01',
            },
            portability: { ported_status: 'Y' },
          },
        }),
      ),
    ).toEqual({
      carrier_name: 'Vodafone Ukraine',
      mcc_mnc: '25501',
      carrier_type: 'landline',
      status_label: 'valid',
      reachability: null,
      ported: true,
    });
  });

  it('maps every provider line type to ours, the rest to other', () => {
    expect(['mobile', 'landline', 'fixedVoip', 'tollFree', 'toll free', 'premium', null].map(carrierTypeOf)).toEqual([
      'mobile',
      'landline',
      'voip',
      'toll_free',
      'toll_free',
      'other',
      'other',
    ]);
  });

  it('reads what a generic HTTP gateway’s declared paths held, in the one vocabulary', () => {
    const generic = (fields: Record<string, unknown>) => normalizeLookup('generic_http', answer({ fields }));
    expect(
      generic({ carrier_name: 'lifecell', mcc_mnc: '255 06', line_type: 'mobile', valid: 'true', ported: false }),
    ).toEqual({
      carrier_name: 'lifecell',
      mcc_mnc: '25506',
      carrier_type: 'mobile',
      status_label: 'valid',
      reachability: null,
      ported: false,
    });
    expect(generic({ mcc_mnc: '12', line_type: 'fixedLine', valid: 'INACTIVE' })).toMatchObject({
      mcc_mnc: null,
      carrier_type: 'landline',
      status_label: 'invalid',
    });
    expect(generic({ valid: 'pending', line_type: 'satellite' })).toMatchObject({
      status_label: 'unknown',
      carrier_type: 'other',
    });
  });
});

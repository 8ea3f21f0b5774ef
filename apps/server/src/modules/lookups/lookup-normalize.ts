import type { TGatewayType } from '@herald/shared/gateways/gateway-types';
import type { TCarrierType, TReachability, TStatusLabel } from '@herald/shared/lookups/lookups.schemas';

/** What a gateway adapter's `lookup` answers (it is handed adapters, never imports them). */
export interface LookupResult {
  phone: string;
  carrierName: string | null;
  carrierType: string | null;
  raw: unknown;
}

/** A provider's answer in the product's one vocabulary (`phone_lookups`' columns). */
export interface NormalizedLookup {
  carrier_name: string | null;
  mcc_mnc: string | null;
  carrier_type: TCarrierType;
  status_label: TStatusLabel;
  reachability: TReachability | null;
  ported: boolean | null;
}

const rec = (v: unknown): Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);

/** Every provider's line types, lower-cased without separators, mapped to ours. */
const TYPES: Record<string, TCarrierType> = {
  mobile: 'mobile',
  wireless: 'mobile',
  cellular: 'mobile',
  landline: 'landline',
  fixedline: 'landline',
  fixed: 'landline',
  voip: 'voip',
  fixedvoip: 'voip',
  nonfixedvoip: 'voip',
  tollfree: 'toll_free',
  toll_free: 'toll_free',
};
export function carrierTypeOf(raw: string | null): TCarrierType {
  if (!raw) return 'other';
  return TYPES[raw.toLowerCase().replace(/[\s_-]/g, '')] ?? 'other';
}

function mccMnc(mcc: unknown, mnc: unknown): string | null {
  const a = str(mcc);
  const b = str(mnc);
  return a && b ? `${a}${b}` : null;
}

const YES_WORDS = ['true', 'yes', 'y', '1'];
const NO_WORDS = ['false', 'no', 'n', '0'];
const VALID_WORDS = [...YES_WORDS, 'valid', 'ok', 'active', 'success'];
const INVALID_WORDS = [...NO_WORDS, 'invalid', 'inactive', 'failed'];
/** A provider's flag or status word read as a yes (ours `a`) or a no (`b`); anything else: null. */
function flag<A, B>(v: unknown, yes: string[], no: string[], a: A, b: B): A | B | null;
function flag(v: unknown, yes: string[], no: string[]): boolean | null;
function flag(v: unknown, yes: string[], no: string[], a: unknown = true, b: unknown = false): unknown {
  const word = typeof v === 'boolean' ? String(v) : (str(v)?.toLowerCase() ?? '');
  return yes.includes(word) ? a : no.includes(word) ? b : null;
}

/**
 * Twilio Lookup v2 with `Fields=line_type_intelligence`: `valid`, and the line type's carrier,
 * type and network codes. Telnyx number lookup `type=carrier`: `data.valid_number`, `data.carrier`
 * and `data.portability.ported_status` (Y/N). The simulator answers in our vocabulary already. A
 * generic HTTP gateway's adapter hands over what its declared paths held (`raw.fields`), the line
 * type through the gateway's own map; flags and status words are read here.
 */
export function normalizeLookup(type: TGatewayType, answer: LookupResult): NormalizedLookup {
  const raw = rec(answer.raw);
  if (type === 'twilio') {
    const lti = rec(raw.line_type_intelligence);
    const valid = raw.valid;
    return {
      carrier_name: str(lti.carrier_name) ?? answer.carrierName,
      mcc_mnc: mccMnc(lti.mobile_country_code, lti.mobile_network_code),
      carrier_type: carrierTypeOf(str(lti.type) ?? answer.carrierType),
      status_label: valid === true ? 'valid' : valid === false ? 'invalid' : 'unknown',
      reachability: null,
      ported: null,
    };
  }
  if (type === 'telnyx') {
    const data = rec(raw.data);
    const carrier = rec(data.carrier);
    const valid = data.valid_number;
    const portedStatus = str(rec(data.portability).ported_status);
    return {
      carrier_name: str(carrier.name) ?? answer.carrierName,
      mcc_mnc: mccMnc(carrier.mobile_country_code, carrier.mobile_network_code),
      carrier_type: carrierTypeOf(str(carrier.type) ?? answer.carrierType),
      status_label: valid === true ? 'valid' : valid === false ? 'invalid' : 'unknown',
      reachability: null,
      ported: portedStatus === 'Y' ? true : portedStatus === 'N' ? false : null,
    };
  }
  if (type === 'simulator') {
    const reach = str(raw.reachability);
    return {
      carrier_name: str(raw.carrier_name),
      mcc_mnc: str(raw.mcc_mnc),
      carrier_type: carrierTypeOf(str(raw.carrier_type)),
      status_label: raw.valid === true ? 'valid' : raw.valid === false ? 'invalid' : 'unknown',
      reachability: reach === 'connected' || reach === 'absent' ? reach : null,
      ported: typeof raw.ported === 'boolean' ? raw.ported : null,
    };
  }
  if (type === 'generic_http') {
    const f = rec(raw.fields);
    const code = str(f.mcc_mnc)?.replace(/\D/g, '') ?? '';
    return {
      carrier_name: str(f.carrier_name),
      mcc_mnc: code.length === 5 || code.length === 6 ? code : null,
      carrier_type: carrierTypeOf(str(f.line_type)),
      status_label: flag(f.valid, VALID_WORDS, INVALID_WORDS, 'valid' as const, 'invalid' as const) ?? 'unknown',
      reachability: null,
      ported: flag(f.ported, YES_WORDS, NO_WORDS),
    };
  }
  return {
    carrier_name: answer.carrierName,
    mcc_mnc: null,
    carrier_type: carrierTypeOf(answer.carrierType),
    status_label: answer.carrierType ? 'valid' : 'unknown',
    reachability: null,
    ported: null,
  };
}

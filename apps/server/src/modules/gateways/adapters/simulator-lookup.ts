import { createHash } from 'node:crypto';

/**
 * What the simulator's carrier database answers for a phone (decision 040): Ukrainian numbering as
 * it is — Kyivstar, Vodafone Ukraine and lifecell mobiles with their MCC-MNC, landlines by area
 * code, toll-free 0800 — and, like a real database, a share of unassigned numbers, of phones
 * switched off and of numbers ported to another operator. Drawn from a hash of the phone, so the
 * same phone always gets the same answer (a repeated lookup agrees with the first).
 */
export interface SimulatedLookup {
  valid: boolean;
  carrier_name: string | null;
  carrier_type: 'mobile' | 'landline' | 'voip' | 'toll_free' | 'other';
  mcc_mnc: string | null;
  reachability: 'connected' | 'absent' | null;
  ported: boolean | null;
}

const MOBILE: Array<[RegExp, string, string]> = [
  [/^\+380(39|67|68|96|97|98)\d{7}$/, 'Kyivstar', '25503'],
  [/^\+380(50|66|95|99)\d{7}$/, 'Vodafone Ukraine', '25501'],
  [/^\+380(63|73|93)\d{7}$/, 'lifecell', '25506'],
];
/** Area codes of fixed lines (Kyiv 44, Lviv 32, Odesa 48, Dnipro 56, Kharkiv 57, …). */
const LANDLINE = /^\+380(3[1-8]|4[1-8]|5[1-7]|6[1-4])\d{7}$/;
const VOIP = /^\+380(89|91)\d{7}$/;
const TOLL_FREE = /^\+380800\d{6}$/;

/** 0–9999 from the phone: the same phone, the same draw. */
function roll(phone: string, salt: string): number {
  return createHash('sha1').update(`${salt}:${phone}`).digest().readUInt16BE(0) % 10_000;
}

export function simulateLookup(phone: string): SimulatedLookup {
  const none = { mcc_mnc: null, reachability: null, ported: null } as const;
  // A Ukrainian number of the wrong length is no number at all.
  if (phone.startsWith('+380') && !/^\+380\d{9}$/.test(phone))
    return { valid: false, carrier_name: null, carrier_type: 'other', ...none };
  if (!/^\+380\d{9}$/.test(phone)) {
    // Outside Ukraine the simulator knows only that the number is well formed.
    return /^\+[1-9]\d{7,14}$/.test(phone)
      ? { valid: true, carrier_name: null, carrier_type: 'other', ...none }
      : { valid: false, carrier_name: null, carrier_type: 'other', ...none };
  }
  const mobile = MOBILE.find(([pattern]) => pattern.test(phone));
  if (mobile) {
    // 3 % unassigned, 5 % switched off, 6 % ported to another operator.
    if (roll(phone, 'unassigned') < 300) return { valid: false, carrier_name: null, carrier_type: 'mobile', ...none };
    let [, name, mccMnc] = mobile;
    const ported = roll(phone, 'ported') < 600;
    if (ported) {
      const other = MOBILE.filter((m) => m[1] !== name);
      [, name, mccMnc] = other[roll(phone, 'to') % other.length];
    }
    const reachability = roll(phone, 'absent') < 500 ? 'absent' : 'connected';
    return { valid: true, carrier_name: name, carrier_type: 'mobile', mcc_mnc: mccMnc, reachability, ported };
  }
  if (TOLL_FREE.test(phone)) return { valid: true, carrier_name: 'Ukrtelecom', carrier_type: 'toll_free', ...none };
  if (LANDLINE.test(phone)) return { valid: true, carrier_name: 'Ukrtelecom', carrier_type: 'landline', ...none };
  if (VOIP.test(phone)) return { valid: true, carrier_name: null, carrier_type: 'voip', ...none };
  return { valid: false, carrier_name: null, carrier_type: 'other', ...none };
}

import { z } from 'zod';
import { CURRENCIES, type TCurrency } from './plans.schemas.ts';

/**
 * The price list: what one SMS part costs by destination country, and one lookup, in each
 * currency a balance may be kept in, in minor units (kopiyky, cents). The installation may replace
 * the shipped file (`HERALD_PRICES_FILE`); it is validated at start (decision 015).
 */
const ZMinor = z.number().int().min(0);

export const ZCurrencyPrices = z.strictObject({
  sms_part: z.strictObject({
    /** Any destination the countries below do not name. */
    default: ZMinor,
    countries: z.record(z.string().regex(/^[A-Z]{2}$/, 'use an ISO 3166-1 alpha-2 code such as UA'), ZMinor),
  }),
  lookup: ZMinor,
});
export type TCurrencyPrices = z.infer<typeof ZCurrencyPrices>;

/** Every currency must be priced: a balance in any of them can be charged. */
export const ZPriceList = z.strictObject(
  Object.fromEntries(CURRENCIES.map((c) => [c, ZCurrencyPrices])) as Record<TCurrency, typeof ZCurrencyPrices>,
);
export type TPriceList = z.infer<typeof ZPriceList>;

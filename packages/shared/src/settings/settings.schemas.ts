import { z } from 'zod';

/** The country a team reads phones written without `+` or `00` in (ISO 3166 alpha-2, decision 011). */
export const ZDefaultCountry = z.object({ country: z.string().regex(/^[A-Z]{2}$/) });
export type TDefaultCountry = z.infer<typeof ZDefaultCountry>;

import { z } from 'zod';
import { messageText } from '../common/messages.ts';

export const ATTRIBUTE_TYPES = ['phone', 'email', 'string', 'number', 'date', 'url'] as const;
export const ZAttributeType = z.enum(ATTRIBUTE_TYPES);
export type TAttributeType = z.infer<typeof ZAttributeType>;

export const ZLeadAttribute = z.object({
  id: z.number(),
  name: z.string(),
  slug: z.string(),
  type: ZAttributeType,
  sort_order: z.number(),
  is_system: z.boolean(),
});
export type TLeadAttribute = z.infer<typeof ZLeadAttribute>;
export const ZLeadAttributeList = z.object({ data: z.array(ZLeadAttribute) });

const ZAttributeName = z.string().trim().min(1, messageText('attribute_name_required')).max(80);

/** Custom attributes are created as a list (the spec's form adds several rows at once). */
export const ZCreateAttributesRequest = z
  .array(
    z.object({
      name: ZAttributeName,
      sort_order: z.coerce.number().int().min(0).max(100_000).default(0),
      type: z.enum(['string', 'number', 'date', 'url']).default('string'),
    }),
  )
  .min(1)
  .max(100);

export const ZUpdateAttributeRequest = z.object({
  name: ZAttributeName.optional(),
  sort_order: z.coerce.number().int().min(0).max(100_000).optional(),
});

/** The ignored phone formats: one pattern per line (see docs/decisions). */
export const ZPhoneTemplate = z.object({ values: z.string().max(20_000) });

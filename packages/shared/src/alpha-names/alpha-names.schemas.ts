import { z } from 'zod';
import { messageText } from '../common/messages.ts';

/** Spec: 0 inactive, 1 active, 2 on review. */
export const ALPHA_NAME_STATUS = { inactive: 0, active: 1, review: 2 } as const;
export const ZAlphaNameStatus = z.union([z.literal(0), z.literal(1), z.literal(2)]);
export type TAlphaNameStatus = z.infer<typeof ZAlphaNameStatus>;

/**
 * A sender name as carriers take it (GSM alphanumeric originator): at most 11 characters of Latin
 * letters, digits, space and `.-_&`, with at least one letter (all digits would read as a number)
 * and no space at either end.
 */
export const ALPHA_NAME_PATTERN = /^(?=.*[A-Za-z])[A-Za-z0-9._&-](?:[A-Za-z0-9 ._&-]{0,9}[A-Za-z0-9._&-])?$/;

export function isAlphaName(name: string): boolean {
  return ALPHA_NAME_PATTERN.test(name);
}

export const ZAlphaName = z.object({
  id: z.number(),
  name: z.string(),
  status: ZAlphaNameStatus,
  default: z.boolean(),
  active: z.boolean(),
  created_at: z.string(),
});
export type TAlphaName = z.infer<typeof ZAlphaName>;
/**
 * Who reviews a team's new name: the installation's admins, or nobody (approved by itself, where no
 * carrier reviews names); `seconds`: how long that usually takes.
 */
export const ZAlphaNameReview = z.object({ by: z.enum(['admins', 'automatic']), seconds: z.number() });
export type TAlphaNameReview = z.infer<typeof ZAlphaNameReview>;
export const ZAlphaNameList = z.object({ data: z.array(ZAlphaName), review: ZAlphaNameReview.optional() });

export const ZStoreAlphaNameRequest = z.object({
  name: z
    .string()
    .trim()
    .min(1, messageText('name_required'))
    .max(11, messageText('alpha_name_invalid'))
    .refine(isAlphaName, messageText('alpha_name_invalid')),
});

/** `POST alpha-names/store`: `ok` with the new name, or `limit` when the plan allows no more. */
export const ZStoreAlphaNameResponse = z.object({
  status: z.enum(['ok', 'limit']),
  message: z.string(),
  code: z.string(),
  data: ZAlphaName.optional(),
});

export const ZSetDefaultAlphaNameResponse = z.object({ message: z.string(), code: z.string(), data: ZAlphaName });

/** The installation admins' review queue: names of every team. */
export const ZReviewedAlphaName = ZAlphaName.extend({ team_id: z.number(), team_name: z.string() });
export const ZReviewedAlphaNameList = z.object({ data: z.array(ZReviewedAlphaName) });
export const ZReviewAlphaNameRequest = z.object({ decision: z.enum(['approve', 'reject']) });
export const ZAdminAccess = z.object({ admin: z.boolean() });

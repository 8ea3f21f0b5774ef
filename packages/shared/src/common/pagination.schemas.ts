import { z } from 'zod';
import { messageText } from './messages.ts';

export const PAGE_SIZES = [15, 50, 100] as const;

/** `order[0]=field,dir` as the spec sends it, parsed into a field and a direction. */
export const ZOrder = z
  .string()
  .max(100)
  .regex(/^[a-z_][a-z0-9_]*(,(asc|desc))?$/i, messageText('order_invalid'))
  .transform((v) => {
    const [field, dir] = v.split(',');
    return { field, dir: (dir?.toLowerCase() === 'asc' ? 'asc' : 'desc') as 'asc' | 'desc' };
  });

/** The list query every table sends: page, limit, search, order[0]. */
export const ZPageQuery = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(50),
  search: z.union([z.string().max(200), z.array(z.string().max(200)).transform((a) => a[0] ?? '')]).optional(),
  order: z.array(ZOrder).max(1).optional(),
});
export type TPageQuery = z.infer<typeof ZPageQuery>;

export const ZPageMeta = z.object({
  current_page: z.number(),
  per_page: z.number(),
  total: z.number(),
  last_page: z.number(),
});
export type TPageMeta = z.infer<typeof ZPageMeta>;

export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({ data: z.array(item), meta: ZPageMeta });
}

export function pageMeta(page: number, perPage: number, total: number): TPageMeta {
  return { current_page: page, per_page: perPage, total, last_page: Math.max(1, Math.ceil(total / perPage)) };
}

/** `ids[0]=1&ids[1]=2` or a JSON array of positive ids. */
export const ZIds = z.array(z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER)).min(1).max(10_000);

import { z } from 'zod';

/** A row id as a path or query segment sends it: text coerced to a positive safe integer. */
export const ZId = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);

/** The `:id` path parameter of every route that addresses one row. */
export const ZIdParams = z.object({ id: ZId });

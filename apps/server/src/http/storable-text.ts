import type { FastifyInstance } from 'fastify';
import { message, type TMessage } from '@herald/shared/common/messages';
import { unstorableTextPaths } from '@herald/shared/common/storable-text';
import { AppError } from './app-error.ts';

/**
 * Refuses, on every route, a body, query or path parameter holding a NUL character or a lone
 * surrogate, with a 422 naming the field, before any schema or service sees it: nothing is stored
 * and nothing reaches PostgreSQL to fail there.
 */
export function registerStorableTextGuard(app: FastifyInstance) {
  app.addHook('preValidation', async (request) => {
    const errors: Record<string, TMessage[]> = {};
    for (const part of [request.params, request.query, request.body]) {
      for (const field of unstorableTextPaths(part)) errors[field] = [message('text_unstorable')];
    }
    if (Object.keys(errors).length > 0) throw AppError.fields(errors);
  });
}

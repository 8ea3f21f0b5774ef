import type { FastifyInstance } from 'fastify';
import { UNSTORABLE_TEXT_MESSAGE, unstorableTextPaths } from '@herald/shared/common/storable-text';
import { AppError } from './app-error.ts';

/**
 * Refuses, on every route, a body, query or path parameter holding a NUL character or a lone
 * surrogate, with a 422 naming the field, before any schema or service sees it: nothing is stored
 * and nothing reaches PostgreSQL to fail there.
 */
export function registerStorableTextGuard(app: FastifyInstance) {
  app.addHook('preValidation', async (request) => {
    const errors: Record<string, string[]> = {};
    for (const part of [request.params, request.query, request.body]) {
      for (const field of unstorableTextPaths(part)) errors[field] = [UNSTORABLE_TEXT_MESSAGE];
    }
    if (Object.keys(errors).length > 0) throw new AppError('validation_failed', undefined, errors);
  });
}

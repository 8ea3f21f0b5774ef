import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { decodeMessage, type TMessage } from '@herald/shared/common/messages';
import { installZodMessages } from '@herald/shared/common/zod-messages';
import type { TErrorCode } from '@herald/shared/errors/error-codes';
import { AppError } from './app-error.ts';

/**
 * Maps every failure to `{ message, code, detail?, errors? }`; 5xx never show internals. `detail`
 * and each field's messages are `{ code, params }` the web translates; `message` is English.
 */
export function registerErrorHandler(app: FastifyInstance) {
  // zod's own checks then name codes too, in the 422s below.
  installZodMessages();
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const appError = toAppError(error);
    if (appError.status >= 500) request.log.error({ err: error }, 'request failed');
    else request.log.info({ code: appError.code }, appError.message);
    if (appError.code === 'too_many_requests' && error.statusCode === 429) {
      const retryAfter = reply.getHeader('retry-after');
      if (retryAfter) reply.header('retry-after', retryAfter);
    }
    return reply.status(appError.status).send({
      message: appError.message,
      code: appError.code,
      ...(appError.detail ? { detail: appError.detail } : {}),
      ...(appError.errors ? { errors: appError.errors } : {}),
    });
  });
}

function toAppError(error: FastifyError): AppError {
  if (error instanceof AppError) return error;
  if (hasZodFastifySchemaValidationErrors(error)) {
    const errors: Record<string, TMessage[]> = {};
    for (const issue of error.validation) {
      const field = issue.instancePath.replace(/^\//, '').replaceAll('/', '.') || '_';
      // The schemas' messages are codes (zod-messages.ts), so they decode to `{ code, params }`.
      const message = decodeMessage(issue.message ?? 'invalid_value') as TMessage;
      errors[field] = [...(errors[field] ?? []), message];
    }
    return new AppError('validation_failed', undefined, errors);
  }
  if (isResponseSerializationError(error)) return new AppError('internal_error');
  const byFastifyCode: Record<string, TErrorCode> = {
    FST_ERR_CTP_INVALID_JSON_BODY: 'bad_request',
    FST_ERR_CTP_EMPTY_JSON_BODY: 'bad_request',
    FST_ERR_CTP_BODY_TOO_LARGE: 'payload_too_large',
    FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported_media_type',
    FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'bad_request',
    FST_ERR_VALIDATION: 'validation_failed',
  };
  const mapped = error.code ? byFastifyCode[error.code] : undefined;
  if (mapped) return new AppError(mapped, mapped === 'bad_request' ? 'The request body is not valid JSON.' : undefined);
  if (error.statusCode === 429) return new AppError('too_many_requests');
  if (error.statusCode === 404) return new AppError('not_found');
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
    return new AppError('bad_request', error.message);
  }
  return new AppError('internal_error');
}

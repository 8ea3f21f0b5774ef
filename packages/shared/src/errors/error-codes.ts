import { z } from 'zod';
import { ZMessage } from '../common/messages.ts';

/**
 * Stable error codes. The server answers `{ message, code, detail?, errors? }`; the web translates
 * `detail` when there is one (`messages:<code>`), else `code` (`errors:<code>`), and falls back to
 * the English `message`.
 */
export const ERROR_CODES = {
  validation_failed: 422,
  bad_request: 400,
  unauthenticated: 401,
  token_expired: 401,
  account_blocked: 403,
  email_not_verified: 403,
  forbidden: 403,
  not_found: 404,
  route_not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  too_many_requests: 429,
  import_list_required: 422,
  import_file_type_unsupported: 422,
  import_file_type_mismatch: 422,
  import_file_unsafe: 422,
  import_file_empty: 422,
  import_file_too_many_columns: 422,
  import_mapping_stale: 409,
  import_file_unreadable: 422,
  import_mapping_required: 422,
  import_already_started: 409,
  import_not_cancellable: 409,
  import_limit_reached: 422,
  // Plans (decision 015): the plan does not allow it; `detail` names the feature.
  subscription_required: 422,
  plan_feature_missing: 422,
  plan_limit_reached: 422,
  plan_feature_unavailable: 422,
  internal_error: 500,
  service_unavailable: 503,
} as const;

export type TErrorCode = keyof typeof ERROR_CODES;

export const ZErrorResponse = z.object({
  message: z.string(),
  code: z.string(),
  /** Why, more precisely than the code: a message code and its params (`common/messages.ts`). */
  detail: ZMessage.optional(),
  /** 422: each refused field's messages, as codes and params. */
  errors: z.record(z.string(), z.array(ZMessage)).optional(),
});
export type TErrorResponse = z.infer<typeof ZErrorResponse>;

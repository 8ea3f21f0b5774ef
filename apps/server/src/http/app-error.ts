import { ERROR_CODES, type TErrorCode } from '@herald/shared/errors/error-codes';
import { englishOf, message, type TMessage, type TMessageCode } from '@herald/shared/common/messages';

/**
 * The one error type services throw; the error handler turns its code into the status. `detail`
 * is either a message the web translates in place of the code's own text, or an English note for
 * API clients only (the web shows the code's text).
 */
export class AppError extends Error {
  readonly code: TErrorCode;
  readonly status: number;
  readonly detail?: TMessage;
  readonly errors?: Record<string, TMessage[]>;

  constructor(code: TErrorCode, detail?: TMessage | string, errors?: Record<string, TMessage[]>) {
    super(typeof detail === 'string' ? detail : detail ? englishOf(detail) : defaultMessages[code]);
    this.name = 'AppError';
    this.code = code;
    this.status = ERROR_CODES[code];
    if (typeof detail === 'object') this.detail = detail;
    this.errors = errors;
  }

  /** A 422 with one message on one field, the shape forms show under the input. */
  static field(field: string, code: TMessageCode, params?: TMessage['params']): AppError {
    const detail = message(code, params);
    return new AppError('validation_failed', detail, { [field]: [detail] });
  }

  /** A 422 with messages per field; the first is the answer's own. */
  static fields(errors: Record<string, TMessage[]>): AppError {
    return new AppError('validation_failed', Object.values(errors)[0]?.[0], errors);
  }
}
const defaultMessages: Record<TErrorCode, string> = {
  validation_failed: 'The given data was invalid.',
  bad_request: 'The request could not be read.',
  unauthenticated: 'Unauthenticated.',
  token_expired: 'Your session has expired.',
  account_blocked: 'account_blocked',
  email_not_verified: "You're not activated yet.",
  forbidden: 'This action is unauthorized.',
  not_found: 'Not found.',
  route_not_found: 'Route not found.',
  conflict: 'The resource was changed by someone else.',
  payload_too_large: 'The request body is too large.',
  unsupported_media_type: 'Unsupported content type.',
  too_many_requests: 'Too many attempts. Please try again later.',
  import_list_required: 'Please, select a Source first',
  import_file_type_unsupported: 'Only CSV, TSV, XLS and XLSX files can be imported.',
  import_file_type_mismatch: 'The file content does not match its extension.',
  import_file_unsafe: 'The file is too large when unpacked and was refused.',
  import_file_empty: 'The file has no rows to import.',
  import_file_too_many_columns: 'The file has more columns than can be mapped.',
  import_mapping_stale: 'An attribute this file was mapped to has been deleted. Match the format again.',
  import_file_unreadable: 'The file could not be read.',
  import_mapping_required: 'Map at least one column to an attribute.',
  import_already_started: 'This import has already been started.',
  import_not_cancellable: 'This import has ended and can no longer be cancelled.',
  import_limit_reached: 'import_limit_reached',
  subscription_required: 'A subscription is required. Choose a plan.',
  plan_feature_missing: 'Your plan does not include this feature.',
  plan_limit_reached: 'You have reached the limit of your plan.',
  plan_feature_unavailable: 'This feature is not available yet.',
  internal_error: 'Something went wrong on our side.',
  service_unavailable: 'The service is temporarily unavailable.',
};

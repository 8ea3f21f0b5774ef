import type { TMessage } from '@herald/shared/common/messages';

/** What the server says about a failure or a field: a message code and its params. */
export type ServerMessage = { code: string; params?: TMessage['params'] };

/** A failed API call: the server's `{ message, code, detail?, errors? }` plus the HTTP status. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  /** A message the web translates in place of the code's own text. */
  readonly detail?: ServerMessage;
  readonly errors: Record<string, ServerMessage[]>;
  /** True once the global handler has reacted (logged out, toasted), so callers need not repeat it. */
  handled = false;

  constructor(
    status: number,
    code: string,
    message: string,
    errors: Record<string, ServerMessage[]> = {},
    detail?: ServerMessage,
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.errors = errors;
    this.detail = detail;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

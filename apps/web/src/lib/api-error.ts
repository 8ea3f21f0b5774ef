/** A failed API call: the server's `{ message, code, errors? }` plus the HTTP status. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly errors: Record<string, string[]>;
  /** True once the global handler has reacted (logged out, toasted), so callers need not repeat it. */
  handled = false;

  constructor(status: number, code: string, message: string, errors: Record<string, string[]> = {}) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.errors = errors;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

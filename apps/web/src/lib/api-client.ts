import { ApiError, type ServerMessage } from './api-error.ts';
import { describeApiError, firstFieldMessages } from './describe-api-error.ts';
import { i18n } from './i18n.ts';
import { notifyError } from './notify.ts';
import { endSession, getToken, setAccessDenied } from './session.ts';

const BASE = '/api';

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined>;
  signal?: AbortSignal;
  /** False when the caller shows the failure itself (e.g. the sign-in form's alert). */
  toast?: boolean;
  /** Extra request headers (an idempotency key). */
  headers?: Record<string, string>;
}

/** Typed fetch for the Herald API: bearer token, JSON both ways, failures as `ApiError`. */
export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const response = await send(path + queryString(options.query), options, 'application/json');
  return (await readJson(response)) as T;
}

/**
 * A response read as text (NDJSON, CSV), with the same bearer token and failure handling as
 * `apiRequest`: for bodies that are not one JSON document.
 */
export async function apiText(path: string, signal?: AbortSignal): Promise<string> {
  return (await send(path, { signal })).text();
}

/** The request with the session's token and language; a failure (network or HTTP) as `ApiError`. */
async function send(path: string, options: RequestOptions, accept?: string): Promise<Response> {
  const token = getToken();
  const headers: Record<string, string> = { 'Accept-Language': i18n.language, ...options.headers };
  if (accept) headers.Accept = accept;
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = `Bearer ${token}`;

  let response: Response;
  try {
    response = await fetch(BASE + path, {
      method: options.method ?? 'GET',
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: options.signal,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, 'network_error', i18n.t('errors:network_error'));
  }
  if (response.ok) return response;

  const error = errorOf(response.status, await readJson(response), response.statusText);
  handleGlobally(error, Boolean(token), options.toast ?? true);
  throw error;
}

export interface UploadOptions {
  signal?: AbortSignal;
  /** Share of the request body sent so far, 0 to 1. */
  onProgress?: (share: number) => void;
  toast?: boolean;
}

/**
 * A multipart POST with upload progress (fetch cannot report it, so XMLHttpRequest), with the
 * same bearer token and failure handling as `apiRequest`.
 */
export function apiUpload<T>(path: string, form: FormData, options: UploadOptions = {}): Promise<T> {
  const token = getToken();
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', BASE + path);
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.setRequestHeader('Accept-Language', i18n.language);
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) options.onProgress?.(event.loaded / event.total);
    };
    xhr.onload = () => {
      let data: unknown;
      try {
        data = xhr.responseText ? JSON.parse(xhr.responseText) : undefined;
      } catch {
        data = undefined;
      }
      if (xhr.status >= 200 && xhr.status < 300) {
        resolve(data as T);
        return;
      }
      const error = errorOf(xhr.status, data, xhr.statusText);
      handleGlobally(error, Boolean(token), options.toast ?? true);
      reject(error);
    };
    xhr.onerror = () => reject(new ApiError(0, 'network_error', i18n.t('errors:network_error')));
    xhr.onabort = () => reject(new DOMException('The upload was cancelled.', 'AbortError'));
    if (options.signal) {
      if (options.signal.aborted) {
        reject(new DOMException('The upload was cancelled.', 'AbortError'));
        return;
      }
      options.signal.addEventListener('abort', () => xhr.abort(), { once: true });
    }
    xhr.send(form);
  });
}

function errorOf(status: number, data: unknown, statusText: string): ApiError {
  const body = (data ?? {}) as { message?: unknown; code?: unknown; detail?: unknown; errors?: unknown };
  return new ApiError(
    status,
    typeof body.code === 'string' ? body.code : `http_${status}`,
    typeof body.message === 'string' ? body.message : statusText,
    isErrorMap(body.errors) ? body.errors : {},
    isServerMessage(body.detail) ? body.detail : undefined,
  );
}

export const api = {
  get: <T>(path: string, query?: RequestOptions['query'], signal?: AbortSignal) =>
    apiRequest<T>(path, { query, signal }),
  post: <T>(path: string, body?: unknown, options?: Pick<RequestOptions, 'toast'>) =>
    apiRequest<T>(path, { method: 'POST', body: body ?? {}, ...options }),
  put: <T>(path: string, body?: unknown) => apiRequest<T>(path, { method: 'PUT', body: body ?? {} }),
  delete: <T>(path: string) => apiRequest<T>(path, { method: 'DELETE' }),
};

/**
 * Spec section 8. Session effects only apply to calls made with a token: a failed sign-in is the
 * form's business, not a log out.
 */
function handleGlobally(error: ApiError, hadToken: boolean, toast: boolean) {
  switch (error.status) {
    case 401:
      if (hadToken) {
        error.handled = true;
        endSession('expired');
      }
      return;
    case 403:
      if (!hadToken) return;
      // A permission refusal (the role may not do this) is the caller's to show; it never ends
      // the session, even though its English text is the spec's 'This action is unauthorized.'.
      if (error.code === 'forbidden') return;
      error.handled = true;
      if (error.code === 'account_blocked' || error.message === 'This action is unauthorized.') {
        if (error.code === 'account_blocked') notifyError(describeApiError(error));
        endSession('expired');
      } else {
        setAccessDenied(true);
      }
      return;
    case 404:
      return;
    case 422: {
      if (!toast) return;
      error.handled = true;
      const title = describeApiError(error);
      const fields = firstFieldMessages(error.errors).filter((m) => m !== title);
      notifyError(title, fields.length ? fields.join('\n') : undefined);
      return;
    }
    case 429:
      if (!toast) return;
      error.handled = true;
      notifyError(describeApiError(error));
      return;
  }
}

function queryString(query: RequestOptions['query']): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== '') params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

async function readJson(response: Response): Promise<unknown> {
  if (response.status === 204) return undefined;
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isServerMessage(value: unknown): value is ServerMessage {
  return typeof value === 'object' && value !== null && typeof (value as { code?: unknown }).code === 'string';
}

function isErrorMap(value: unknown): value is Record<string, ServerMessage[]> {
  return (
    typeof value === 'object' &&
    value !== null &&
    Object.values(value).every((list) => Array.isArray(list) && list.every(isServerMessage))
  );
}

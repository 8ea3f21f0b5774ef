import type { TGateway } from '@herald/shared/gateways/gateways.schemas';
import type { Bucket } from '../../jobs/rate-buckets.ts';
import { isSendFailure, type SendingAdapter } from './messages.deps.ts';
import type { MessageRow } from './messages.repository.ts';
import type { Outcome } from './send-rows.repository.ts';

/** Where a test stops a send as a crash would: inside the claim, after it, after `called_at`, after the answer. */
export type CrashMoment = 'claim' | 'claimed' | 'called' | 'answered';

/** The engine's tuning (decision 024). */
export interface EngineSettings {
  leaseMs: number;
  /** An unknown row still unproven this long after its call is re-sent (dedupe by key) or refunded. */
  unknownDeadlineMs: number;
  /** Rows a dispatch claims at once, per gateway. */
  batch: number;
  /** Calls in flight at once per dispatch (one `called_at` stamp each window). */
  concurrency: number;
  /** Dispatch loops on each worker process, each with its own batch at a time. */
  lanes: number;
  /** Rate buckets on: off only for a measurement of the engine itself. */
  rates: boolean;
  /** A loop with nothing due looks again after this long. */
  idleMs: number;
}

/** Claims before a row that is never taken (refused connections, 5xx of a deduping provider) fails. */
const MAX_ATTEMPTS = 8;
/** A 429 is not the message's fault: it may wait its turn far longer. */
const MAX_RATE_LIMITED_ATTEMPTS = 50;
const backoffMs = (attempt: number) => Math.min(60_000, 1_000 * 2 ** Math.max(0, attempt - 1));

/** The bucket a gateway's sends draw on: its own setting, else what the provider declares. */
export function gatewayBuckets(gateway: TGateway, adapter: SendingAdapter, rates: boolean): Bucket[] {
  if (!rates) return [];
  const own = Number(gateway.params.parts_per_second);
  const rate = Number.isFinite(own) && own > 0 ? own : adapter.capabilities.requestsPerSecond;
  if (!(rate > 0)) return [];
  return [{ key: `gateway:${gateway.id}`, rate, burst: Math.max(1, rate) }];
}

/** The status URL one row's call carries: the gateway's, naming the row (`?m=`), so its reports find it. */
export function rowStatusUrl(base: string, messageId: number): string {
  const url = new URL(base);
  url.searchParams.set('m', String(messageId));
  return url.toString();
}

/**
 * How a call that threw leaves its row. Never taken (429, a refused connection): due again later,
 * with no sleep here. A 5xx: due again only where the provider dedupes by our key, else unknown
 * (it may have taken it). Refused for good: failed, and refunded.
 */
export function outcomeOf(row: MessageRow, error: unknown, adapter: SendingAdapter): Outcome {
  const id = Number(row.id);
  const errorMessage = error instanceof Error ? error.message : String(error);
  if (!isSendFailure(error)) return { id, state: 'unknown', errorCode: 'error', errorMessage };
  const errorCode = error.providerCode ?? error.reason;
  if (error.kind === 'permanent') return { id, state: 'failed', errorCode, errorMessage };
  if (error.kind === 'retryable') {
    if (error.reason === 'rate_limited') {
      if (row.attempt >= MAX_RATE_LIMITED_ATTEMPTS) return { id, state: 'failed', errorCode, errorMessage };
      return { id, state: 'pending', delayMs: error.retryAfterMs ?? 1_000, errorCode, errorMessage, rateLimited: true };
    }
    const taken = error.reason === 'provider_error' && !adapter.capabilities.dedupesByKey;
    if (taken) return { id, state: 'unknown', errorCode, errorMessage };
    if (row.attempt >= MAX_ATTEMPTS) return { id, state: 'failed', errorCode, errorMessage };
    return { id, state: 'pending', delayMs: backoffMs(row.attempt), errorCode, errorMessage };
  }
  return { id, state: 'unknown', errorCode, errorMessage };
}

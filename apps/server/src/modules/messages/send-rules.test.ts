import { describe, expect, it } from 'vitest';
import type { MessageRow } from './messages.repository.ts';
import { gatewayBuckets, outcomeOf, rowStatusUrl } from './send-rules.ts';

/** An adapter's `GatewaySendError` as this module sees it (it is handed adapters, never imports them). */
class GatewaySendError extends Error {
  readonly kind: 'retryable' | 'permanent' | 'unknown_outcome';
  readonly reason: string;
  constructor(
    kind: GatewaySendError['kind'],
    reason: string,
    message: string,
    extra: { providerCode?: string; retryAfterMs?: number } = {},
  ) {
    super(message);
    this.name = 'GatewaySendError';
    this.kind = kind;
    this.reason = reason;
    Object.assign(this, extra);
  }
}

const row = (attempt = 1) => ({ id: 7, attempt, parts: 1 }) as unknown as MessageRow;
const adapter = (dedupesByKey: boolean) => ({
  capabilities: { statusDelivery: 'webhook' as const, requestsPerSecond: 100, dedupesByKey },
  send: async () => ({ providerMessageId: 'x', status: 'queued' as const }),
});

describe('what a failed call leaves its row as (decision 024)', () => {
  it('a 429 is due again after its Retry-After, no sleep, and marked to give its tokens back', () => {
    const error = new GatewaySendError('retryable', 'rate_limited', 'HTTP 429', { retryAfterMs: 4_000 });
    expect(outcomeOf(row(), error, adapter(false))).toMatchObject({
      state: 'pending',
      delayMs: 4_000,
      rateLimited: true,
    });
    expect(
      outcomeOf(row(), new GatewaySendError('retryable', 'rate_limited', 'HTTP 429'), adapter(false)),
    ).toMatchObject({
      delayMs: 1_000,
    });
  });

  it('a 5xx is sent again only where the provider dedupes by our key; elsewhere it may have gone: unknown', () => {
    const error = new GatewaySendError('retryable', 'provider_error', 'HTTP 500', { providerCode: '20500' });
    expect(outcomeOf(row(), error, adapter(false))).toMatchObject({ state: 'unknown', errorCode: '20500' });
    expect(outcomeOf(row(3), error, adapter(true))).toMatchObject({ state: 'pending', delayMs: 4_000 });
  });

  it('a refused connection is due again with a doubling delay, then fails; a refusal fails; a timeout is unknown', () => {
    const refused = new GatewaySendError('retryable', 'network', 'ECONNREFUSED');
    expect(outcomeOf(row(1), refused, adapter(false))).toMatchObject({ state: 'pending', delayMs: 1_000 });
    expect(outcomeOf(row(8), refused, adapter(false))).toMatchObject({ state: 'failed' });
    expect(outcomeOf(row(), new GatewaySendError('permanent', 'rejected', 'no'), adapter(false))).toMatchObject({
      state: 'failed',
    });
    expect(outcomeOf(row(), new GatewaySendError('unknown_outcome', 'timeout', 'late'), adapter(true))).toMatchObject({
      state: 'unknown',
    });
    expect(outcomeOf(row(), new Error('bug'), adapter(true))).toMatchObject({ state: 'unknown', errorCode: 'error' });
  });

  it("names the row in the status URL; rates from the gateway's own setting, else the provider's", () => {
    expect(rowStatusUrl('https://app.test/hooks/gateways/3/status?token=a', 42)).toBe(
      'https://app.test/hooks/gateways/3/status?token=a&m=42',
    );
    const gateway = (params: Record<string, string>) =>
      ({ id: 3, params }) as unknown as Parameters<typeof gatewayBuckets>[0];
    expect(gatewayBuckets(gateway({ parts_per_second: '20' }), adapter(false), true)).toEqual([
      { key: 'gateway:3', rate: 20, burst: 20 },
    ]);
    expect(gatewayBuckets(gateway({}), adapter(false), true)).toEqual([{ key: 'gateway:3', rate: 100, burst: 100 }]);
    expect(gatewayBuckets(gateway({}), adapter(false), false)).toEqual([]);
  });
});

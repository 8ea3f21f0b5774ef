import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * How a fake provider answers the next calls: as it should, or with each kind of failure a real
 * one shows (bad credentials, a refused request, its own error, no answer at all).
 */
export type FakeMode = 'ok' | 'reject' | 'server_error' | 'timeout';

export interface RecordedCall {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface FakeReply {
  status: number;
  body: unknown;
  contentType?: string;
  headers?: Record<string, string>;
}

export interface FakeServer {
  url: string;
  calls: RecordedCall[];
  mode: FakeMode;
  /** Runs on each call before it is answered: a test looks at the app's state as the provider is reached. */
  onCall?: (call: RecordedCall) => void | Promise<void>;
  close(): Promise<void>;
}

/** A local HTTP server; `handle` speaks the provider's protocol for one call. */
export async function startFakeServer(
  handle: (call: RecordedCall, fake: FakeServer) => FakeReply | Promise<FakeReply>,
): Promise<FakeServer> {
  const held: ServerResponse[] = [];
  const fake: FakeServer = { url: '', calls: [], mode: 'ok', close: async () => {} };
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const call = {
      method: req.method ?? 'GET',
      path: req.url ?? '/',
      headers: req.headers,
      body: Buffer.concat(chunks).toString('utf8'),
    };
    fake.calls.push(call);
    await fake.onCall?.(call);
    // A provider that takes the call and never answers: the caller's timeout decides.
    if (fake.mode === 'timeout') {
      held.push(res);
      return;
    }
    const reply = await handle(call, fake);
    const text = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body);
    res.writeHead(reply.status, { ...reply.headers, 'content-type': reply.contentType ?? 'application/json' });
    res.end(text);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.close = () =>
    new Promise<void>((resolve) => {
      for (const res of held) res.destroy();
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return fake;
}

export function bearerOf(call: RecordedCall): string | undefined {
  const header = call.headers.authorization;
  return header?.startsWith('Bearer ') ? header.slice(7) : undefined;
}

export function json(call: RecordedCall): Record<string, unknown> {
  try {
    return JSON.parse(call.body) as Record<string, unknown>;
  } catch {
    return {};
  }
}

/** A signed callback as a provider sends it; tests deliver it over HTTP or through `app.inject`. */
export interface SignedCallback {
  url: string;
  headers: Record<string, string>;
  body: string;
}

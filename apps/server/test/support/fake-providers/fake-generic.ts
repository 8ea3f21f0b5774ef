import { randomBytes } from 'node:crypto';
import { bearerOf, type FakeServer, json, type SignedCallback, startFakeServer } from './fake-server.ts';

/** An arbitrary JSON SMS API, as the generic HTTP gateway meets them: Bearer, `/send`, id nested in the answer. */
export async function startFakeGeneric(token = randomBytes(16).toString('hex')) {
  const callbacks = new Map<string, string>();
  let next = 1;
  const fake = await startFakeServer((call, self) => {
    if (bearerOf(call) !== token) return { status: 401, body: { error: 'unauthorized' } };
    if (call.method === 'GET' && call.path === '/send') return { status: 405, body: { error: 'use POST' } };
    if (call.method === 'POST' && call.path === '/send') {
      if (self.mode === 'server_error') return { status: 500, body: { error: 'boom' } };
      const body = json(call);
      if (self.mode === 'reject' || !body.to) return { status: 422, body: { error: 'bad number' } };
      const id = `G-${next++}`;
      callbacks.set(id, String(body.callback ?? ''));
      return { status: 200, body: { result: { message: { id } } } };
    }
    return { status: 404, body: { error: 'not found' } };
  });

  function report(id: string, state: string): SignedCallback {
    return {
      url: callbacks.get(id) ?? '',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ msg: { ref: id, state } }),
    };
  }

  return Object.assign(fake as FakeServer, { token, callbacks, report });
}

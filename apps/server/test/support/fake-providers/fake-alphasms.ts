import { randomBytes } from 'node:crypto';
import { type FakeServer, json, type SignedCallback, startFakeServer } from './fake-server.ts';

/**
 * AlphaSMS's JSON API as a local server: the key in the body, per-item results, and the
 * per-message `hook` called back with the delivery status.
 */
export async function startFakeAlphaSms(apiKey = randomBytes(16).toString('hex')) {
  const messages = new Map<string, { id: string; hook: string }>();
  let next = 5_000_001;
  const fake = await startFakeServer((call, self) => {
    const body = json(call);
    if (call.path !== '/api/json.php') return { status: 404, body: { success: false, error: 'Not found' } };
    if (body.auth !== apiKey) return { status: 200, body: { success: false, error: 'Invalid API key' } };
    if (self.mode === 'server_error') return { status: 503, body: 'Service Unavailable', contentType: 'text/plain' };
    const results = ((body.data as Array<Record<string, unknown>> | undefined) ?? []).map((item) => {
      if (item.type === 'balance') return { success: true, data: { amount: 42.5, currency: 'UAH' } };
      if (self.mode === 'reject' || !item.sms_signature) return { success: false, error: 'Error in Alpha-name' };
      const msgId = String(next++);
      messages.set(msgId, { id: String(item.id), hook: String(item.hook ?? '') });
      return { success: true, data: { id: item.id, msg_id: Number(msgId), parts: 1, sms_count: 1 } };
    });
    return { status: 200, body: { success: true, data: results } };
  });

  /** What AlphaSMS posts to a message's hook. */
  function hookCall(msgId: string, status: string): SignedCallback {
    const message = messages.get(msgId);
    if (!message) throw new Error(`fake AlphaSMS sent no ${msgId}`);
    return {
      url: message.hook,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: message.id, msg_id: msgId, status }),
    };
  }

  return Object.assign(fake as FakeServer, { apiKey, messages, hookCall });
}

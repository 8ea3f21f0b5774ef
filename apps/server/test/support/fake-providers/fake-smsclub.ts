import { randomBytes } from 'node:crypto';
import { bearerOf, type FakeServer, json, startFakeServer } from './fake-server.ts';

/** SMS Club's JSON API as a local server: Bearer token, `success_request` / `error_request` answers, polled statuses. */
export async function startFakeSmsClub(token = randomBytes(16).toString('hex')) {
  const statuses = new Map<string, string>();
  let next = 803_253_430;
  const fake = await startFakeServer((call, self) => {
    if (bearerOf(call) !== token) return { status: 401, body: { error_request: { info: 'Unauthorized', code: 401 } } };
    const body = json(call);
    if (call.path === '/sms/balance')
      return { status: 200, body: { success_request: { info: { money: '100.00', currency: 'UAH' } } } };
    if (call.path === '/sms/send') {
      if (self.mode === 'server_error')
        return { status: 500, body: { error_request: { info: 'Internal error', code: 500 } } };
      if (self.mode === 'reject' || !body.src_addr)
        return { status: 400, body: { error_request: { info: 'Invalid src_addr', code: 3 } } };
      const info: Record<string, string> = {};
      for (const phone of (body.phone as string[] | undefined) ?? []) {
        const id = String(next++);
        statuses.set(id, 'ENROUTE');
        info[id] = phone;
      }
      return { status: 200, body: { success_request: { info } } };
    }
    if (call.path === '/sms/status') {
      const info: Record<string, string> = {};
      for (const id of (body.id_sms as string[] | undefined) ?? [])
        if (statuses.has(id)) info[id] = statuses.get(id) as string;
      return { status: 200, body: { success_request: { info } } };
    }
    return { status: 404, body: { error_request: { info: 'Not found', code: 404 } } };
  });
  return Object.assign(fake as FakeServer, { token, statuses });
}

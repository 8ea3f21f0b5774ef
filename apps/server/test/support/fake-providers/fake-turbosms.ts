import { randomBytes, randomUUID } from 'node:crypto';
import { bearerOf, type FakeServer, json, startFakeServer } from './fake-server.ts';

/**
 * TurboSMS's JSON API as a local server: Bearer token, HTTP 200 with its own `response_code`
 * (800 accepted, 105 bad token, 302 sender refused), statuses answered to `status.json` polls.
 */
export async function startFakeTurboSms(token = randomBytes(16).toString('hex')) {
  const statuses = new Map<string, string>();
  const fake = await startFakeServer((call, self) => {
    if (bearerOf(call) !== token)
      return { status: 200, body: { response_code: 105, response_status: 'REQUIRED_AUTH', response_result: null } };
    const body = json(call);
    if (call.path === '/user/balance.json')
      return { status: 200, body: { response_code: 0, response_status: 'OK', response_result: { balance: 125.5 } } };
    if (call.path === '/message/send.json') {
      if (self.mode === 'server_error')
        return { status: 502, body: '<html>Bad Gateway</html>', contentType: 'text/html' };
      if (self.mode === 'reject')
        return {
          status: 200,
          body: { response_code: 302, response_status: 'INVALID_MESSAGE_SENDER', response_result: null },
        };
      const recipients = (body.recipients as string[] | undefined) ?? [];
      const sms = (body.sms ?? {}) as { sender?: string; text?: string };
      if (!sms.sender)
        return {
          status: 200,
          body: { response_code: 200, response_status: 'REQUIRED_MESSAGE_SENDER', response_result: null },
        };
      return {
        status: 200,
        body: {
          response_code: 800,
          response_status: 'SUCCESS_MESSAGE_ACCEPTED',
          response_result: recipients.map((phone) => {
            const id = randomUUID();
            statuses.set(id, 'Queued');
            return { phone, response_code: 0, message_id: id, response_status: 'OK' };
          }),
        },
      };
    }
    if (call.path === '/message/status.json') {
      const ids = (body.messages as string[] | undefined) ?? [];
      return {
        status: 200,
        body: {
          response_code: 0,
          response_status: 'OK',
          response_result: ids.map((id) =>
            statuses.has(id)
              ? {
                  message_id: id,
                  response_code: 0,
                  response_status: 'OK',
                  status: statuses.get(id),
                  updated: new Date().toISOString(),
                }
              : { message_id: id, response_code: 414, response_status: 'NOT_ALLOWED_MESSAGE_ID' },
          ),
        },
      };
    }
    return { status: 404, body: { response_code: 300, response_status: 'INVALID_REQUEST' } };
  });
  return Object.assign(fake as FakeServer, { token, statuses });
}

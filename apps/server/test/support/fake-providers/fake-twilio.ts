import { randomBytes } from 'node:crypto';
import twilio from 'twilio';
import { type FakeServer, type SignedCallback, startFakeServer } from './fake-server.ts';

/**
 * Twilio's Messages API as a local server: Basic auth AccountSid:AuthToken, form-encoded create,
 * Twilio's JSON errors, and status callbacks signed with X-Twilio-Signature by Twilio's own helper.
 */
export async function startFakeTwilio(
  account = { sid: `AC${randomBytes(16).toString('hex')}`, token: randomBytes(16).toString('hex') },
) {
  const messages = new Map<
    string,
    { to: string; from: string; body: string; callback: string; created: Date; status: string }
  >();
  /** Messages taken per (To, Body): Twilio dedupes by no key, so a repeated create is a second message. */
  const sends = new Map<string, number>();
  const extra = {
    /** Post `sent` then `delivered` to each message's StatusCallback, as Twilio does. */
    autoCallbacks: false,
    /** Answer creates with 429 and this Retry-After (seconds) while set. */
    retryAfter: null as number | null,
  };
  const postCallbacks = async (sid: string) => {
    for (const status of ['sent', 'delivered']) {
      const message = messages.get(sid);
      if (!message?.callback) return;
      message.status = status;
      const signed = statusCallback(sid, status);
      await fetch(signed.url, { method: 'POST', headers: signed.headers, body: signed.body }).catch(() => {});
    }
  };
  const fake = await startFakeServer((call, self) => {
    const auth = call.headers.authorization ?? '';
    const [sid, token] = Buffer.from(auth.replace(/^Basic /, ''), 'base64')
      .toString()
      .split(':');
    if (sid !== account.sid || token !== account.token) {
      return {
        status: 401,
        body: {
          code: 20003,
          message: 'Authenticate',
          more_info: 'https://www.twilio.com/docs/errors/20003',
          status: 401,
        },
      };
    }
    // Lookup v2 with Line Type Intelligence (its own host in production, the same fake here).
    const lookup = /^\/v2\/PhoneNumbers\/([^?]+)\?Fields=line_type_intelligence$/.exec(call.path);
    if (call.method === 'GET' && lookup) {
      const phone = decodeURIComponent(lookup[1]);
      return {
        status: 200,
        body: {
          phone_number: phone,
          valid: true,
          line_type_intelligence: {
            carrier_name: 'Kyivstar',
            mobile_country_code: '255',
            mobile_network_code: '03',
            type: 'mobile',
            error_code: null,
          },
        },
      };
    }
    // The Messages list, filtered by `To` and `DateSent>` (a GMT date: sent on or after its midnight).
    const listPath = `/2010-04-01/Accounts/${account.sid}/Messages.json`;
    if (call.method === 'GET' && call.path.startsWith(`${listPath}?`)) {
      const query = new URLSearchParams(call.path.slice(listPath.length + 1));
      const to = query.get('To');
      const since = query.get('DateSent>');
      const found = [...messages]
        .filter(([, m]) => (!to || m.to === to) && (!since || m.created.toISOString().slice(0, 10) >= since))
        .reverse()
        .map(([sid, m]) => ({
          sid,
          account_sid: account.sid,
          to: m.to,
          from: m.from,
          body: m.body,
          status: m.status,
          error_code: null,
          date_created: m.created.toUTCString(),
          date_sent: m.created.toUTCString(),
        }));
      return { status: 200, body: { messages: found, page: 0, page_size: 100, next_page_uri: null } };
    }
    if (call.method === 'GET' && call.path === `/2010-04-01/Accounts/${account.sid}.json`) {
      return { status: 200, body: { sid: account.sid, status: 'active', friendly_name: 'Fake account' } };
    }
    if (call.method === 'POST' && call.path === `/2010-04-01/Accounts/${account.sid}/Messages.json`) {
      if (self.mode === 'server_error')
        return { status: 500, body: { code: 20500, message: 'Internal Server Error', status: 500 } };
      const options = self as FakeServer & typeof extra;
      if (options.retryAfter !== null)
        return {
          status: 429,
          headers: { 'retry-after': String(options.retryAfter) },
          body: { code: 20429, message: 'Too Many Requests', status: 429 },
        };
      const form = new URLSearchParams(call.body);
      const to = form.get('To') ?? '';
      if (self.mode === 'reject') {
        return {
          status: 400,
          body: { code: 21610, message: 'Attempt to send to unsubscribed recipient', status: 400 },
        };
      }
      if (!to || !form.get('Body') || !(form.get('From') || form.get('MessagingServiceSid'))) {
        return { status: 400, body: { code: 21604, message: "A 'To' phone number is required.", status: 400 } };
      }
      const messageSid = `SM${randomBytes(16).toString('hex')}`;
      messages.set(messageSid, {
        to,
        from: form.get('From') ?? '',
        body: form.get('Body') ?? '',
        callback: form.get('StatusCallback') ?? '',
        created: new Date(),
        status: 'queued',
      });
      const key = `${to}\u0000${form.get('Body') ?? ''}`;
      sends.set(key, (sends.get(key) ?? 0) + 1);
      if (options.autoCallbacks) setTimeout(() => void postCallbacks(messageSid), 5);
      return {
        status: 201,
        body: {
          sid: messageSid,
          account_sid: account.sid,
          to,
          from: form.get('From'),
          body: form.get('Body'),
          status: 'queued',
          num_segments: '1',
          direction: 'outbound-api',
          price: null,
          error_code: null,
          error_message: null,
          date_created: new Date().toUTCString(),
        },
      };
    }
    return { status: 404, body: { code: 20404, message: 'The requested resource was not found', status: 404 } };
  });

  /** The callback Twilio would POST for `sid`, signed with `signWith` (the account's token unless forging). */
  function statusCallback(
    messageSid: string,
    status: string,
    extra: Record<string, string> = {},
    signWith = account.token,
  ): SignedCallback {
    const message = messages.get(messageSid);
    if (!message) throw new Error(`fake Twilio sent no ${messageSid}`);
    const params = {
      MessageSid: messageSid,
      SmsSid: messageSid,
      MessageStatus: status,
      SmsStatus: status,
      AccountSid: account.sid,
      From: message.from,
      To: message.to,
      ApiVersion: '2010-04-01',
      ...extra,
    };
    return {
      url: message.callback,
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-twilio-signature': twilio.getExpectedTwilioSignature(signWith, message.callback, params),
      },
      body: new URLSearchParams(params).toString(),
    };
  }

  function inbound(url: string, from: string, to: string, body: string): SignedCallback {
    const params = {
      MessageSid: `SM${randomBytes(16).toString('hex')}`,
      AccountSid: account.sid,
      From: from,
      To: to,
      Body: body,
      NumMedia: '0',
    };
    return {
      url,
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-twilio-signature': twilio.getExpectedTwilioSignature(account.token, url, params),
      },
      body: new URLSearchParams(params).toString(),
    };
  }

  return Object.assign(fake as FakeServer, extra, {
    account,
    messages,
    statusCallback,
    inbound,
    /** How many times a message to `to` with `body` was taken. */
    sent: (to: string, body: string) => sends.get(`${to}\u0000${body}`) ?? 0,
    sends,
  });
}

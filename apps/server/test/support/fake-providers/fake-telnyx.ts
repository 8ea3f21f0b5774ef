import { generateKeyPairSync, randomBytes, randomUUID, sign } from 'node:crypto';
import { bearerOf, type FakeServer, json, type SignedCallback, startFakeServer } from './fake-server.ts';

/**
 * Telnyx's v2 messaging as a local server: Bearer API key, JSON, `{errors:[…]}` answers, and
 * webhooks signed with Ed25519 over `timestamp|body` by the account's key pair.
 */
export async function startFakeTelnyx(apiKey = `KEY${randomBytes(12).toString('hex')}`) {
  const keys = generateKeyPairSync('ed25519');
  const publicKey = keys.publicKey.export({ format: 'der', type: 'spki' }).subarray(-32).toString('base64');
  const messages = new Map<string, { to: string; from: string; webhookUrl: string; profile: string | null }>();
  const fake = await startFakeServer((call, self) => {
    if (bearerOf(call) !== apiKey) {
      return {
        status: 401,
        body: { errors: [{ code: '10009', title: 'Authentication failed', detail: 'The API key is invalid.' }] },
      };
    }
    const lookup = /^\/v2\/number_lookup\/([^?]+)\?type=carrier$/.exec(call.path);
    if (call.method === 'GET' && lookup) {
      const phone = decodeURIComponent(lookup[1]);
      return {
        status: 200,
        body: {
          data: {
            record_type: 'number_lookup',
            phone_number: phone,
            country_code: 'UA',
            valid_number: true,
            carrier: {
              name: 'Vodafone Ukraine',
              normalized_carrier: 'Vodafone',
              type: 'mobile',
              mobile_country_code: '255',
              mobile_network_code: '01',
              error_code: null,
            },
          },
        },
      };
    }
    if (call.method === 'GET' && call.path === '/v2/balance') {
      return { status: 200, body: { data: { record_type: 'balance', balance: '10.00', currency: 'USD' } } };
    }
    if (call.method === 'POST' && call.path === '/v2/messages') {
      if (self.mode === 'server_error')
        return { status: 503, body: { errors: [{ code: '10011', title: 'Service unavailable' }] } };
      if (self.mode === 'reject') {
        return {
          status: 400,
          body: {
            errors: [{ code: '40300', title: 'Blocked due to STOP message', detail: 'The recipient opted out.' }],
          },
        };
      }
      const body = json(call);
      if (!body.to || !body.text || !(body.from || body.messaging_profile_id)) {
        return {
          status: 422,
          body: { errors: [{ code: '10015', title: 'Invalid parameter', detail: 'to, text and from are required' }] },
        };
      }
      const id = randomUUID();
      messages.set(id, {
        to: String(body.to),
        from: String(body.from ?? ''),
        webhookUrl: String(body.webhook_url ?? ''),
        profile: (body.messaging_profile_id as string) ?? null,
      });
      return {
        status: 200,
        body: {
          data: {
            record_type: 'message',
            direction: 'outbound',
            id,
            type: 'SMS',
            from: { phone_number: body.from ?? null },
            to: [{ phone_number: body.to, status: 'queued', carrier: 'Kyivstar', line_type: 'Wireless' }],
            text: body.text,
            parts: 1,
            encoding: 'GSM-7',
            cost: { amount: '0.0400', currency: 'USD' },
            messaging_profile_id: body.messaging_profile_id ?? null,
            errors: [],
          },
        },
      };
    }
    return { status: 404, body: { errors: [{ code: '10005', title: 'Resource not found' }] } };
  });

  function sign_(timestamp: number, body: string, privateKey = keys.privateKey) {
    return sign(null, Buffer.from(`${timestamp}|${body}`), privateKey).toString('base64');
  }

  /** A `message.sent` / `message.finalized` event for a message, signed (or not) like Telnyx. */
  function event(
    id: string,
    eventType: 'message.sent' | 'message.finalized',
    status: string,
    options: { errorCode?: string; timestamp?: number; forgeKey?: boolean; profile?: string } = {},
  ): SignedCallback {
    const message = messages.get(id);
    if (!message) throw new Error(`fake Telnyx sent no ${id}`);
    const body = JSON.stringify({
      data: {
        record_type: 'event',
        id: randomUUID(),
        event_type: eventType,
        occurred_at: new Date().toISOString(),
        payload: {
          id,
          record_type: 'message',
          messaging_profile_id: options.profile ?? message.profile,
          to: [{ phone_number: message.to, status }],
          from: { phone_number: message.from },
          errors: options.errorCode ? [{ code: options.errorCode, title: 'Delivery failed' }] : [],
        },
      },
      meta: { attempt: 1, delivered_to: message.webhookUrl },
    });
    const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000);
    const key = options.forgeKey ? generateKeyPairSync('ed25519').privateKey : keys.privateKey;
    return {
      url: message.webhookUrl,
      headers: {
        'content-type': 'application/json',
        'telnyx-timestamp': String(timestamp),
        'telnyx-signature-ed25519': sign_(timestamp, body, key),
      },
      body,
    };
  }

  /** A `message.received` event: a reply to one of the account's numbers. */
  function received(url: string, from: string, to: string, text: string): SignedCallback {
    const body = JSON.stringify({
      data: {
        record_type: 'event',
        id: randomUUID(),
        event_type: 'message.received',
        occurred_at: new Date().toISOString(),
        payload: {
          id: randomUUID(),
          direction: 'inbound',
          from: { phone_number: from },
          to: [{ phone_number: to }],
          text,
        },
      },
      meta: { attempt: 1, delivered_to: url },
    });
    const timestamp = Math.floor(Date.now() / 1000);
    return {
      url,
      headers: {
        'content-type': 'application/json',
        'telnyx-timestamp': String(timestamp),
        'telnyx-signature-ed25519': sign_(timestamp, body),
      },
      body,
    };
  }

  return Object.assign(fake as FakeServer, { apiKey, publicKey, messages, event, received });
}

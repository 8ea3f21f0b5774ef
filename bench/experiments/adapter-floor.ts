// What one process's HTTP client alone gets from the fake Twilio: the same call the Twilio adapter
// makes (`callProvider`, form body, basic auth), no database, at a fixed number in flight. The
// floor under any engine that sends through that client from one process. `fetch` as the third
// argument makes the same calls through Node's `fetch` instead, for comparison (decision 024).
// Run: node bench/experiments/adapter-floor.ts [total] [inFlight] [fetch]
import { basicAuth, callProvider } from '../../apps/server/src/modules/gateways/adapters/http.ts';
import { startFakeTwilioProcess } from '../lib/fake-twilio-process.ts';

const total = Number(process.argv[2] ?? 20_000);
const inFlight = Number(process.argv[3] ?? 16);
const viaFetch = process.argv[4] === 'fetch';
const fake = await startFakeTwilioProcess();
const url = `${fake.url.replace(/\/+$/, '')}/2010-04-01/Accounts/${fake.account.sid}/Messages.json`;
const auth = basicAuth(fake.account.sid, fake.account.token);
let next = 0;
const started = performance.now();
await Promise.all(
  Array.from({ length: inFlight }, async () => {
    while (next < total) {
      const i = next++;
      const form = new URLSearchParams({
        To: `+1555${String(i).padStart(7, '0')}`,
        From: '+15005550006',
        Body: `floor ${i}`,
      });
      form.set('StatusCallback', `http://127.0.0.1:1/hooks/status?m=${i}`);
      const headers = { authorization: auth, 'content-type': 'application/x-www-form-urlencoded' };
      const status = viaFetch
        ? await fetch(url, { method: 'POST', headers, body: form.toString() }).then(async (r) => {
            await r.text();
            return r.status;
          })
        : (await callProvider(url, { headers, body: form.toString(), timeoutMs: 10_000 })).status;
      if (status !== 201 && status !== 200) throw new Error(`answered ${status}`);
    }
  }),
);
const seconds = (performance.now() - started) / 1000;
console.log(
  `${viaFetch ? 'fetch' : 'callProvider'}: ${total} calls, ${inFlight} in flight: ${seconds.toFixed(1)} s, ${Math.round(total / seconds)}/s`,
);
await fake.close();

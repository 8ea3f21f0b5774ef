// The fake Twilio (apps/server/test/support/fake-providers/fake-twilio.ts) in a process of its own,
// so the provider the dispatch calls shares neither the event loop nor the CPU time of Herald's
// process in the benchmark: its ceiling is measured, and reached, as a separate server's.
import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startFakeTwilio } from '../../apps/server/test/support/fake-providers/fake-twilio.ts';

const FLAG = '--fake-twilio';

export interface FakeTwilioCounts {
  /** Messages the fake took whose body starts with the prefix asked about. */
  taken: number;
  /** Of those, (To, Body) pairs taken more than once: a message sent twice. */
  repeated: number;
}

export interface FakeTwilioProcess {
  url: string;
  account: { sid: string; token: string };
  counts(bodyPrefix: string): Promise<FakeTwilioCounts>;
  close(): Promise<void>;
}

export async function startFakeTwilioProcess(): Promise<FakeTwilioProcess> {
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), [FLAG], { stdio: 'inherit' });
  const next = <T>(): Promise<T> =>
    new Promise((resolve, reject) => {
      child.once('message', (m) => resolve(m as T));
      child.once('error', reject);
    });
  const ready = await next<{ url: string; account: { sid: string; token: string } }>();
  return {
    ...ready,
    async counts(bodyPrefix) {
      const answer = next<FakeTwilioCounts>();
      child.send({ type: 'counts', bodyPrefix });
      return answer;
    },
    async close() {
      const exited = new Promise((r) => child.once('exit', r));
      child.send({ type: 'close' });
      await exited;
    },
  };
}

if (process.argv.includes(FLAG)) {
  const fake = await startFakeTwilio();
  // The fake records every call for tests; here only its messages matter, so the record stays empty.
  fake.onCall = () => {
    fake.calls.length = 0;
  };
  process.on('message', async (m: { type: 'counts' | 'close'; bodyPrefix?: string }) => {
    if (m.type === 'counts') {
      let taken = 0;
      let repeated = 0;
      for (const [key, n] of fake.sends) {
        if (!key.split('\u0000')[1]?.startsWith(m.bodyPrefix ?? '')) continue;
        taken += n;
        if (n > 1) repeated++;
      }
      process.send?.({ taken, repeated });
    } else {
      await fake.close();
      process.exit(0);
    }
  });
  process.send?.({ url: fake.url, account: fake.account });
}

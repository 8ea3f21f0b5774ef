import type { JobQueue } from '../../jobs/job-queue.ts';
import type { Mailer } from '../../mail/mailer.ts';
import type { DemoRepository } from './demo.repository.ts';

import { DEMO_DELIVERY_JOB } from '@herald/shared/jobs/demo.jobs';

export { DEMO_DELIVERY_JOB };
const FORM_TIMEOUT_MS = 10_000;

export interface DemoDelivery {
  /** The form service requests go to (`HERALD_DEMO_FORM_URL`); none: the support mailbox. */
  formUrl?: string;
  /** The installation's support address (`HERALD_SUPPORT_EMAIL`). */
  supportEmail?: string;
}

type DemoRow = NonNullable<Awaited<ReturnType<DemoRepository['findUndelivered']>>>;

/**
 * Hands a kept request on: to the form service as a form POST with `source=App` (spec section 7),
 * or, with none configured, as a mail to the support address. A failure throws, so pg-boss tries
 * again later; a request already handed on is skipped. With neither configured the request stays
 * in the table for the operator, and the log says so.
 */
export async function registerDemoJobs(
  jobs: Pick<JobQueue, 'register'>,
  deps: {
    repo: DemoRepository;
    mailer: Mailer;
    delivery: DemoDelivery;
    log: { warn(obj: object, msg: string): void };
  },
) {
  const { repo, mailer, delivery, log } = deps;
  await jobs.register(DEMO_DELIVERY_JOB, async ({ id }) => {
    const row = await repo.findUndelivered(id);
    if (!row) return;
    if (delivery.formUrl) {
      await postToForm(delivery.formUrl, row);
      await repo.markDelivered(id, 'form');
    } else if (delivery.supportEmail) {
      await mailer.send(demoMail(delivery.supportEmail, row));
      await repo.markDelivered(id, 'mail');
    } else {
      log.warn(
        { demoRequestId: id },
        'demo request kept: neither HERALD_DEMO_FORM_URL nor HERALD_SUPPORT_EMAIL is set',
      );
    }
  });
}

async function postToForm(url: string, row: DemoRow) {
  const body = new URLSearchParams({
    source: 'App',
    name: row.name,
    email: row.email,
    phone: row.phone,
    message: row.message,
  });
  const response = await fetch(url, { method: 'POST', body, signal: AbortSignal.timeout(FORM_TIMEOUT_MS) });
  // Its body is the service's business; only whether it took the request matters here.
  await response.body?.cancel();
  if (!response.ok) throw new Error(`the demo form service answered ${response.status}`);
}

function demoMail(to: string, row: DemoRow) {
  const lines = [
    'A demo was requested in Herald.',
    '',
    `Name: ${row.name}`,
    `Email: ${row.email}`,
    `Phone: ${row.phone}`,
    `Language: ${row.language}`,
    `Team: ${row.team_id}`,
    '',
    row.message || '(no message)',
  ];
  return { to, subject: `Demo request: ${row.name}`, text: `${lines.join('\n')}\n` };
}

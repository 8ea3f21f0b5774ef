import type { TDemoRequest } from '@herald/shared/demo/demo.schemas';
import { normalizePhone } from '@herald/shared/leads/phone';
import { AppError } from '../../http/app-error.ts';
import type { DemoRepository } from './demo.repository.ts';

/** What the service needs to hand a request on; the job does the handing (demo.jobs.ts). */
export interface DemoQueue {
  deliver(id: number): Promise<void>;
}

/**
 * Request demo: the phone is read by the team's phone rule (decision 011), the request kept, and
 * its delivery left to a retried job, so the answer never waits for the form service or SMTP and
 * a failure of either loses nothing.
 */
export function createDemoService(deps: {
  repo: DemoRepository;
  queue: DemoQueue;
  defaultCountry: (teamId: number) => Promise<string>;
}) {
  const { repo, queue, defaultCountry } = deps;
  return {
    async request(user: { id: number; teamId: number }, input: Required<TDemoRequest>, language: string) {
      const phone = normalizePhone(input.phone, await defaultCountry(user.teamId));
      if (!phone) throw AppError.field('phone', 'phone_invalid');
      const id = await repo.insert(user.teamId, user.id, { ...input, phone, language });
      await queue.deliver(id);
      return id;
    },
  };
}
export type DemoService = ReturnType<typeof createDemoService>;

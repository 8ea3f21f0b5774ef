import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as account from './account.jobs.ts';
import * as alphaNames from './alpha-names.jobs.ts';
import * as billing from './billing.jobs.ts';
import * as campaigns from './campaigns.jobs.ts';
import * as demo from './demo.jobs.ts';
import * as imports from './imports.jobs.ts';
import { checkJobPayload, defineJob, type JobDefinition, JobPayloadError } from './job-definition.ts';
import * as messages from './messages.jobs.ts';
import * as segments from './segments.jobs.ts';
import * as shortLinks from './short-links.jobs.ts';

const POLL = defineJob(
  'test.poll',
  z.object({ messageId: z.number().int().positive(), attempt: z.number().default(0) }),
);

describe('a job’s payload', () => {
  it('is read by its schema: defaults filled in, nothing else changed', () => {
    expect(checkJobPayload(POLL, { messageId: 4 }, 'send')).toEqual({ messageId: 4, attempt: 0 });
  });

  it('fails loudly when its schema refuses it, naming the job, the moment and the field', () => {
    const refused = () => checkJobPayload(POLL, { messageId: '4' }, 'run');
    expect(refused).toThrow(JobPayloadError);
    expect(refused).toThrow(/^Job test\.poll: payload refused at run: messageId: /);
    try {
      refused();
    } catch (error) {
      expect(error).toMatchObject({ job: 'test.poll', when: 'run', issues: [{ path: ['messageId'] }] });
    }
    expect(() => checkJobPayload(POLL, null, 'send')).toThrow(/payload refused at send: \(payload\)/);
  });

  it('has one definition per queue name across the server’s jobs', () => {
    const all = [account, alphaNames, billing, campaigns, demo, imports, messages, segments, shortLinks].flatMap(
      (file) => Object.values(file) as JobDefinition[],
    );
    expect(all.length).toBeGreaterThanOrEqual(11);
    expect(new Set(all.map((job) => job.name)).size).toBe(all.length);
  });
});

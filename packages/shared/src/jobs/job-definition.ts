import type { z } from 'zod';

/**
 * A kind of background job: its queue's name and the schema of its payload. The job queue checks
 * the payload against the schema when the job is sent (a caller's mistake throws there, in its
 * request) and again when it runs (a payload stored by an older version, or written around the
 * queue, fails the job before its handler sees it).
 */
export interface JobDefinition<Data = unknown, Input = Data> {
  readonly name: string;
  readonly schema: z.ZodType<Data, Input>;
}

/** The payload a job's handler is given (the schema's output). */
export type JobData<D> = D extends JobDefinition<infer Data, unknown> ? Data : never;
/** The payload a sender hands over (the schema's input). */
export type JobInput<D> = D extends JobDefinition<unknown, infer Input> ? Input : never;

export function defineJob<S extends z.ZodType>(name: string, schema: S): JobDefinition<z.output<S>, z.input<S>> {
  return { name, schema: schema as unknown as z.ZodType<z.output<S>, z.input<S>> };
}

/** A payload its job's schema refuses: which job, when (sent or run), and zod's issues. */
export class JobPayloadError extends Error {
  readonly job: string;
  readonly when: 'send' | 'run';
  readonly issues: z.core.$ZodIssue[];
  constructor(job: string, when: 'send' | 'run', issues: z.core.$ZodIssue[]) {
    const where = issues.map((i) => `${i.path.join('.') || '(payload)'}: ${i.message}`).join('; ');
    super(`Job ${job}: payload refused at ${when}: ${where}`);
    this.name = 'JobPayloadError';
    this.job = job;
    this.when = when;
    this.issues = issues;
  }
}

/** The payload as the schema reads it, or a `JobPayloadError`. */
export function checkJobPayload<Data, Input>(
  job: JobDefinition<Data, Input>,
  data: unknown,
  when: 'send' | 'run',
): Data {
  const parsed = job.schema.safeParse(data);
  if (!parsed.success) throw new JobPayloadError(job.name, when, parsed.error.issues);
  return parsed.data;
}

import { z } from 'zod';
import { defineJob } from './job-definition.ts';

/** Writes one audience export's file (a process the user sees). */
export const EXPORT_JOB = defineJob('segments.export', z.object({ exportId: z.number().int().positive() }));

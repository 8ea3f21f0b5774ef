import { z } from 'zod';
import type { TProcessKindWithPhases } from '../processes/processes.schemas.ts';
import { defineJob } from './job-definition.ts';

/** Runs one import (a process the user sees): parse, publish, resolve duplicates. */
export const IMPORT_JOB = defineJob(
  'imports.run' satisfies TProcessKindWithPhases,
  z.object({ importId: z.number().int().positive() }),
);

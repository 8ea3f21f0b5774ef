import { describe, expect, it } from 'vitest';
import { failureOf } from './process-jobs.ts';

describe('what a failed process tells its owner', () => {
  it('is the failure’s code when it carries one the web translates', () => {
    const broken = Object.assign(new Error('unexpected end of file'), { code: 'import_file_broken' });
    expect(failureOf(broken)).toBe('import_file_broken');
  });

  it('is never the error’s own words: database, system and plain errors read job_failed', () => {
    const pg = Object.assign(new Error('relation "import_rows_7_1" does not exist'), { code: '42P01' });
    const net = Object.assign(new Error('connect ECONNREFUSED 10.0.0.5:5432'), { code: 'ECONNREFUSED' });
    for (const error of [pg, net, new Error('boom'), 'boom', null]) expect(failureOf(error)).toBe('job_failed');
  });
});

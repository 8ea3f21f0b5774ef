import { describe, expect, it } from 'vitest';
import { exportReadyOf, leadsFailedOf, processMessage, ZProcessMessage } from './processes.schemas.ts';

describe('a process message', () => {
  it('names what a job left behind with typed params', () => {
    expect(leadsFailedOf(processMessage.leadsFailed(3, 41))).toEqual({ count: 3, importId: 41 });
    expect(exportReadyOf(processMessage.exportReady(9))).toBe(9);
  });

  it('is not mistaken for another: a failure, a malformed or a missing message reads null', () => {
    expect(leadsFailedOf(processMessage.exportReady(9))).toBeNull();
    expect(exportReadyOf(processMessage.leadsFailed(3, 41))).toBeNull();
    expect(leadsFailedOf({ code: 'leads_failed', params: { count: '3', import_id: 41 } })).toBeNull();
    expect(exportReadyOf({ code: 'export_ready', params: {} })).toBeNull();
    expect(leadsFailedOf(null)).toBeNull();
  });

  it('takes a code the web can look up, never a sentence', () => {
    expect(ZProcessMessage.safeParse(processMessage.failure('import_file_broken')).success).toBe(true);
    expect(ZProcessMessage.safeParse({ code: 'The file broke', params: {} }).success).toBe(false);
    expect(ZProcessMessage.safeParse({ code: 'job_failed' }).success).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import {
  duration,
  playwrightFailures,
  playwrightFileTimes,
  summary,
  vitestFailures,
  vitestFileTimes,
} from './test-report.ts';

describe('the test run’s summary', () => {
  it('reads how long each Vitest file took from its JSON report', () => {
    const report = {
      testResults: [
        { name: '/repo/apps/server/test/api/a.api.test.ts', startTime: 1_000, endTime: 61_000 },
        { name: '/repo/packages/shared/src/b.test.ts', startTime: 5_000, endTime: 5_040 },
      ],
    };
    expect(vitestFileTimes(report, 'api', '/repo')).toEqual([
      { part: 'api', file: 'apps/server/test/api/a.api.test.ts', ms: 60_000 },
      { part: 'api', file: 'packages/shared/src/b.test.ts', ms: 40 },
    ]);
  });

  it('adds up a Playwright file’s tests, nested describes and retries included', () => {
    const report = {
      suites: [
        {
          file: 'leads.spec.ts',
          specs: [{ tests: [{ results: [{ duration: 3_000 }, { duration: 2_000 }] }] }],
          suites: [{ specs: [{ tests: [{ results: [{ duration: 1_000 }] }] }] }],
        },
        { file: 'auth.spec.ts', specs: [{ tests: [{ results: [{ duration: 500 }] }] }] },
      ],
    };
    expect(playwrightFileTimes(report, 'browser', 'e2e/tests/')).toEqual([
      { part: 'browser', file: 'e2e/tests/leads.spec.ts', ms: 6_000 },
      { part: 'browser', file: 'e2e/tests/auth.spec.ts', ms: 500 },
    ]);
  });

  it('lists each part’s time and the ten slowest files, slowest first', () => {
    const files = Array.from({ length: 12 }, (_, i) => ({ part: 'api', file: `f${i}.api.test.ts`, ms: i * 1_000 }));
    const text = summary(
      [
        { name: 'unit', ms: 17_000, ok: true },
        { name: 'browser', ms: 0, ok: false, skipped: 'Chromium is missing' },
      ],
      files,
      754_000,
    );
    const lines = text.split('\n');
    expect(lines[0]).toBe('Test run: 12 min 34 s, FAILED');
    expect(lines[1]).toMatch(/^ {2}unit {5}\s+17 s {2}passed$/);
    expect(lines[2]).toContain('not run: Chromium is missing');
    expect(lines[3]).toBe('Ten slowest test files:');
    expect(lines.slice(4)).toHaveLength(10);
    expect(lines[4]).toContain('f11.api.test.ts');
    expect(lines[13]).toContain('f2.api.test.ts');
    expect(duration(61_400)).toBe('1 min 01 s');
  });

  it('names the failed tests with their error’s first line, a file that failed outside its tests, not a flaky test', () => {
    const vitest = {
      testResults: [
        {
          name: '/repo/apps/server/test/api/a.api.test.ts',
          status: 'failed',
          assertionResults: [
            { fullName: 'a passes', status: 'passed' },
            {
              fullName: 'a charges once',
              status: 'failed',
              failureMessages: ['\u001b[31mAssertionError: expected 2 to be 1\u001b[39m\n    at a.ts:3'],
            },
          ],
        },
        {
          name: '/repo/apps/server/test/api/b.api.test.ts',
          status: 'failed',
          message: 'Hook timed out in 10000ms',
          assertionResults: [],
        },
        {
          name: '/repo/apps/server/test/api/c.api.test.ts',
          status: 'passed',
          assertionResults: [
            { fullName: 'c plain', status: 'passed', failureMessages: [] },
            { fullName: 'c retried', status: 'passed', failureMessages: ['Error: first try\n at c.ts'] },
          ],
        },
      ],
    };
    const failed = vitestFailures(vitest, 'api', '/repo');
    expect(failed).toEqual([
      {
        part: 'api',
        file: 'apps/server/test/api/a.api.test.ts',
        test: 'a charges once',
        error: 'AssertionError: expected 2 to be 1',
      },
      { part: 'api', file: 'apps/server/test/api/b.api.test.ts', test: '', error: 'Hook timed out in 10000ms' },
      {
        part: 'api',
        file: 'apps/server/test/api/c.api.test.ts',
        test: 'c retried',
        error: 'Error: first try',
        flaky: true,
      },
    ]);
    const playwright = {
      suites: [
        {
          file: 'leads.spec.ts',
          specs: [
            {
              title: 'imports',
              tests: [{ status: 'unexpected', results: [{ error: { message: 'Timed out 20000ms\nCall log' } }] }],
            },
            { title: 'sorts', tests: [{ status: 'flaky', results: [{ error: { message: 'once' } }, {}] }] },
          ],
        },
      ],
    };
    expect(playwrightFailures(playwright, 'browser', 'e2e/tests/')).toEqual([
      { part: 'browser', file: 'e2e/tests/leads.spec.ts', test: 'imports', error: 'Timed out 20000ms' },
      { part: 'browser', file: 'e2e/tests/leads.spec.ts', test: 'sorts', error: 'once', flaky: true },
    ]);
    const text = summary([{ name: 'api', ms: 1_000, ok: false }], [], 1_000, failed);
    expect(text).toContain(
      'Failed tests (2):\n  api  apps/server/test/api/a.api.test.ts › a charges once\n      AssertionError',
    );
  });
});

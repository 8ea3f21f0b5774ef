// Reads the JSON reports of a test run (Vitest's and Playwright's) into how long each test file
// took and which tests failed, and writes the summary `npm test` ends with: each part's time, the
// failed tests with the first line of their error, and the ten slowest files. The failures are in
// the summary because a CI log is often read from its end only.
import { relative } from 'node:path';
import { stripVTControlCharacters } from 'node:util';

export interface FileTime {
  part: string;
  file: string;
  ms: number;
}

export interface PartResult {
  name: string;
  ms: number;
  ok: boolean;
  /** Why a part did not run (Chromium missing, …). */
  skipped?: string;
}

/** Vitest's JSON reporter: each file's run, from its first test's start to its end. */
export function vitestFileTimes(report: unknown, part: string, root: string): FileTime[] {
  const results = (report as { testResults?: Array<{ name: string; startTime?: number; endTime?: number }> })
    .testResults;
  return (results ?? []).map((r) => ({
    part,
    file: relative(root, r.name),
    ms: Math.max(0, (r.endTime ?? 0) - (r.startTime ?? 0)),
  }));
}

interface PlaywrightTest {
  status?: string;
  results?: Array<{ duration?: number; error?: { message?: string } }>;
}

interface PlaywrightSuite {
  file?: string;
  specs?: Array<{ title?: string; tests?: PlaywrightTest[] }>;
  suites?: PlaywrightSuite[];
}

/** Every test of Playwright's JSON report, with the spec file (nested describes inherit it) and the spec's title. */
function eachPlaywrightTest(report: unknown, visit: (file: string, title: string, test: PlaywrightTest) => void) {
  const walk = (suite: PlaywrightSuite, file: string) => {
    const own = suite.file ?? file;
    for (const spec of suite.specs ?? []) for (const test of spec.tests ?? []) visit(own, spec.title ?? '', test);
    for (const child of suite.suites ?? []) walk(child, own);
  };
  for (const suite of (report as { suites?: PlaywrightSuite[] }).suites ?? []) walk(suite, suite.file ?? '');
}

/**
 * Playwright's JSON reporter: each spec file's tests, every try counted (a retried test cost its
 * retry too). Files are relative to the config's test folder; `prefix` puts them under the repository.
 */
export function playwrightFileTimes(report: unknown, part: string, prefix: string): FileTime[] {
  const times = new Map<string, number>();
  eachPlaywrightTest(report, (file, _title, test) => {
    for (const result of test.results ?? []) times.set(file, (times.get(file) ?? 0) + (result.duration ?? 0));
  });
  return [...times].map(([file, ms]) => ({ part, file: `${prefix}${file}`, ms }));
}

/** A failed test (or, with `flaky`, one that passed on its retry): where, which, its error's first line. */
export interface Failure {
  part: string;
  file: string;
  test: string;
  error: string;
  flaky?: boolean;
}

const firstLine = (message: string | undefined) =>
  stripVTControlCharacters(message ?? '')
    .split('\n')
    .find((l) => l.trim() !== '')
    ?.trim()
    .slice(0, 300) ?? '';

/** Vitest's JSON reporter: failed tests, and files that failed outside any test (a hook, an import). */
export function vitestFailures(report: unknown, part: string, root: string): Failure[] {
  type Result = {
    name: string;
    status?: string;
    message?: string;
    assertionResults?: Array<{ fullName?: string; status?: string; failureMessages?: string[] }>;
  };
  const failures: Failure[] = [];
  for (const r of (report as { testResults?: Result[] }).testResults ?? []) {
    const file = relative(root, r.name);
    const failed = (r.assertionResults ?? []).filter((a) => a.status === 'failed');
    for (const a of failed)
      failures.push({ part, file, test: a.fullName ?? '', error: firstLine(a.failureMessages?.[0]) });
    // A test that passed keeps the errors of the tries before (CI's retry): it is flaky.
    for (const a of r.assertionResults ?? [])
      if (a.status === 'passed' && (a.failureMessages?.length ?? 0) > 0)
        failures.push({ part, file, test: a.fullName ?? '', error: firstLine(a.failureMessages?.[0]), flaky: true });
    if (failed.length === 0 && r.status === 'failed')
      failures.push({ part, file, test: '', error: firstLine(r.message) });
  }
  return failures;
}

/** Playwright's JSON reporter: tests that failed every try, and those that passed on a retry (flaky). */
export function playwrightFailures(report: unknown, part: string, prefix: string): Failure[] {
  const failures: Failure[] = [];
  eachPlaywrightTest(report, (file, title, test) => {
    if (test.status !== 'unexpected' && test.status !== 'flaky') return;
    const error = test.results?.map((r) => r.error?.message).find(Boolean);
    const failure = { part, file: `${prefix}${file}`, test: title, error: firstLine(error) };
    failures.push(test.status === 'flaky' ? { ...failure, flaky: true } : failure);
  });
  return failures;
}

export function duration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  return `${m} min ${String(s % 60).padStart(2, '0')} s`;
}

/** The lines `npm test` ends with. */
export function summary(parts: PartResult[], files: FileTime[], totalMs: number, failures: Failure[] = []): string {
  const width = Math.max(...parts.map((p) => p.name.length));
  const lines = [`Test run: ${duration(totalMs)}, ${parts.every((p) => p.ok) ? 'passed' : 'FAILED'}`];
  for (const p of parts) {
    const state = p.skipped ? `not run: ${p.skipped}` : p.ok ? 'passed' : 'FAILED';
    lines.push(`  ${p.name.padEnd(width)}  ${duration(p.ms).padStart(12)}  ${state}`);
  }
  const listed = (title: string, of: Failure[]) => {
    if (of.length === 0) return;
    lines.push(`${title} (${of.length}):`);
    for (const f of of.slice(0, 20)) {
      lines.push(`  ${f.part}  ${f.file}${f.test ? ` › ${f.test}` : ''}`);
      if (f.error) lines.push(`      ${f.error}`);
    }
  };
  listed(
    'Failed tests',
    failures.filter((f) => !f.flaky),
  );
  listed(
    'Passed on a retry (flaky)',
    failures.filter((f) => f.flaky),
  );
  const slowest = [...files].sort((a, b) => b.ms - a.ms).slice(0, 10);
  if (slowest.length > 0) {
    lines.push('Ten slowest test files:');
    for (const f of slowest) lines.push(`  ${duration(f.ms).padStart(12)}  ${f.part.padEnd(7)}  ${f.file}`);
  }
  return lines.join('\n');
}

// Reads the JSON reports of a test run (Vitest's and Playwright's) into how long each test file
// took, and writes the summary `npm test` ends with: each part's time and the ten slowest files.
import { relative } from 'node:path';

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

interface PlaywrightSuite {
  file?: string;
  specs?: Array<{ tests?: Array<{ results?: Array<{ duration?: number }> }> }>;
  suites?: PlaywrightSuite[];
}

/**
 * Playwright's JSON reporter: each spec file's tests, every try counted (a retried test cost its
 * retry too). Files are relative to the config's test folder; `prefix` puts them under the repository.
 */
export function playwrightFileTimes(report: unknown, part: string, prefix: string): FileTime[] {
  const times = new Map<string, number>();
  const walk = (suite: PlaywrightSuite, file: string) => {
    const own = suite.file ?? file;
    for (const spec of suite.specs ?? [])
      for (const test of spec.tests ?? [])
        for (const result of test.results ?? []) times.set(own, (times.get(own) ?? 0) + (result.duration ?? 0));
    for (const child of suite.suites ?? []) walk(child, own);
  };
  for (const suite of (report as { suites?: PlaywrightSuite[] }).suites ?? []) walk(suite, suite.file ?? '');
  return [...times].map(([file, ms]) => ({ part, file: `${prefix}${file}`, ms }));
}

export function duration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  return `${m} min ${String(s % 60).padStart(2, '0')} s`;
}

/** The lines `npm test` ends with. */
export function summary(parts: PartResult[], files: FileTime[], totalMs: number): string {
  const width = Math.max(...parts.map((p) => p.name.length));
  const lines = [`Test run: ${duration(totalMs)}, ${parts.every((p) => p.ok) ? 'passed' : 'FAILED'}`];
  for (const p of parts) {
    const state = p.skipped ? `not run: ${p.skipped}` : p.ok ? 'passed' : 'FAILED';
    lines.push(`  ${p.name.padEnd(width)}  ${duration(p.ms).padStart(12)}  ${state}`);
  }
  const slowest = [...files].sort((a, b) => b.ms - a.ms).slice(0, 10);
  if (slowest.length > 0) {
    lines.push('Ten slowest test files:');
    for (const f of slowest) lines.push(`  ${duration(f.ms).padStart(12)}  ${f.part.padEnd(7)}  ${f.file}`);
  }
  return lines.join('\n');
}

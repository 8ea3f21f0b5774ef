import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * glibc reads its allocator settings when the process starts, before any of our code runs, so the
 * scripts that start the server set them (decision 002, "Memory"). The benchmarks host the server
 * in their own process and must run it as those scripts do, or they measure another program.
 */
const ALLOCATOR = 'MALLOC_ARENA_MAX=2 MALLOC_MMAP_THRESHOLD_=131072 ';
const scripts = (path: string) =>
  (JSON.parse(readFileSync(new URL(path, import.meta.url), 'utf8')) as { scripts: Record<string, string> }).scripts;

describe('start scripts', () => {
  it('start the server with the allocator settings', () => {
    const server = scripts('../package.json');
    for (const name of ['start', 'start:api', 'start:worker', 'dev'])
      expect(server[name]).toMatch(new RegExp(`^${ALLOCATOR}`));
  });

  it('run the benchmarks with the same settings', () => {
    expect(scripts('../../../package.json').bench).toMatch(new RegExp(`^${ALLOCATOR}`));
  });
});

// `npm test`: types and lint (`npm run check`), unit tests, API tests (on PostgreSQL too when
// TEST_DATABASE_URL is set) and browser tests, each part timed. Every part runs even after one
// fails, so one run shows all that is wrong; the command fails if any did. It ends with how long
// each part took and the ten slowest test files, read from the runners' JSON reports.
// `npm test -- unit api` runs only the parts named (check, unit, api, browser).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import {
  type Failure,
  type FileTime,
  type PartResult,
  playwrightFailures,
  playwrightFileTimes,
  summary,
  vitestFailures,
  vitestFileTimes,
} from './test-report.ts';

const root = join(import.meta.dirname, '..');
const CHROMIUM = '/usr/bin/chromium';
const PARTS = ['check', 'unit', 'api', 'browser'] as const;
type Part = (typeof PARTS)[number];

const asked = process.argv.slice(2);
const unknown = asked.filter((a) => !(PARTS as readonly string[]).includes(a));
if (unknown.length > 0) {
  console.error(`Unknown part ${unknown.join(', ')}: the parts are ${PARTS.join(', ')}.`);
  process.exit(2);
}
const parts: readonly Part[] = asked.length > 0 ? (asked as Part[]) : PARTS;

function run(command: string, args: string[], options: { cwd?: string; env?: Record<string, string> } = {}) {
  const result = spawnSync(command, args, {
    cwd: options.cwd ?? root,
    env: { ...process.env, ...options.env },
    stdio: 'inherit',
  });
  return result.status === 0;
}

/**
 * The browser tests drive Debian's Chromium. Missing, it is installed where this may install
 * packages (root, as on a fresh CI machine); otherwise the one line to run is said and nothing runs.
 */
function ensureChromium(): boolean {
  if (existsSync(CHROMIUM)) return true;
  if (process.getuid?.() === 0 && existsSync('/usr/bin/apt-get')) {
    console.log(`${CHROMIUM} is missing: installing Debian's chromium for the browser tests.`);
    const env = { DEBIAN_FRONTEND: 'noninteractive' };
    run('apt-get', ['update'], { env });
    run('apt-get', ['install', '-y', 'chromium'], { env });
    if (existsSync(CHROMIUM)) return true;
  }
  console.error(
    `The browser tests need Chromium at ${CHROMIUM}: run \`sudo apt-get install -y chromium\`, then npm test.`,
  );
  return false;
}

if (parts.includes('browser') && !ensureChromium()) process.exit(1);

const reports = mkdtempSync(join(tmpdir(), 'herald-test-'));
const files: FileTime[] = [];
const failures: Failure[] = [];

function readReport(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return {};
  }
}

function vitest(project: 'unit' | 'api'): boolean {
  const out = join(reports, `${project}.json`);
  const ok = run('npx', [
    'vitest',
    'run',
    '--project',
    project,
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${out}`,
  ]);
  const report = readReport(out);
  files.push(...vitestFileTimes(report, project, root));
  failures.push(...vitestFailures(report, project, root));
  return ok;
}

/**
 * The browser tests run in `HERALD_E2E_SHARDS` shards at once (default 2), each with its own server
 * (port, data directory) on the one web build: most of a browser test is waiting on the app's
 * engines and timers, so two shards on two cores take little more than half the time of one.
 * Each shard's lines are prefixed with its number.
 */
async function browser(): Promise<boolean> {
  if (!run('npm', ['run', 'build', '-w', '@herald/web', '--silent'])) return false;
  const count = Math.max(1, Number(process.env.HERALD_E2E_SHARDS ?? 2));
  const reporter = process.env.CI ? 'line' : 'list';
  const shard = (n: number) =>
    new Promise<{ ok: boolean; out: string }>((done) => {
      const out = join(reports, `browser-${n}.json`);
      // Each shard its own output directory: a run empties its own at the start, and one shard's
      // traces must not vanish under another's.
      const args = ['playwright', 'test', `--shard=${n}/${count}`, `--output=test-results/shard-${n}`];
      const child = spawn('npx', [...args, `--reporter=${reporter},json`], {
        cwd: join(root, 'e2e'),
        env: {
          ...process.env,
          PLAYWRIGHT_JSON_OUTPUT_FILE: out,
          HERALD_E2E_SKIP_BUILD: '1',
          HERALD_E2E_PORT: String(Number(process.env.HERALD_E2E_PORT ?? 3100) + n - 1),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      for (const stream of [child.stdout, child.stderr]) {
        createInterface({ input: stream }).on('line', (line) => console.log(`[${n}/${count}] ${line}`));
      }
      child.on('close', (code) => done({ ok: code === 0, out }));
    });
  const results = await Promise.all(Array.from({ length: count }, (_, i) => shard(i + 1)));
  for (const { out } of results) {
    const report = readReport(out);
    files.push(...playwrightFileTimes(report, 'browser', 'e2e/tests/'));
    failures.push(...playwrightFailures(report, 'browser', 'e2e/tests/'));
  }
  return results.every((r) => r.ok);
}

const steps: Record<Part, () => boolean | Promise<boolean>> = {
  check: () => run('npm', ['run', 'check']),
  unit: () => vitest('unit'),
  api: () => vitest('api'),
  browser,
};

const started = Date.now();
const results: PartResult[] = [];
for (const part of parts) {
  const at = Date.now();
  console.log(`\n── ${part} ──`);
  const ok = await steps[part]();
  results.push({ name: part, ms: Date.now() - at, ok });
}
rmSync(reports, { recursive: true, force: true });
console.log(`\n${summary(results, files, Date.now() - started, failures)}`);
process.exit(results.every((r) => r.ok) ? 0 : 1);

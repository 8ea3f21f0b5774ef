// `npm start` runs this before the server: it builds the web app only when what the build reads has
// changed since the last build, so a second start does not spend a minute in Vite. The build's
// inputs are hashed into `apps/web/dist/.build-stamp` (a dot file, which the server does not serve)
// after a build succeeds; `npm run build` always builds.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = join(import.meta.dirname, '..');
const dist = join(root, 'apps/web/dist');
const stampFile = join(dist, '.build-stamp');

/** What the web build reads: its sources, its configuration, the contract, the installed versions. */
const INPUTS = [
  'apps/web/src',
  'apps/web/public',
  'apps/web/index.html',
  'apps/web/vite.config.ts',
  'apps/web/package.json',
  'apps/web/tsconfig.json',
  'packages/shared/src',
  'packages/shared/package.json',
  'package-lock.json',
];

function filesUnder(path: string): string[] {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

function inputsHash(): string {
  const hash = createHash('sha256');
  const files = INPUTS.flatMap((input) => filesUnder(join(root, input))).sort();
  for (const file of files) {
    hash.update(relative(root, file));
    hash.update('\0');
    hash.update(readFileSync(file));
    hash.update('\0');
  }
  return hash.digest('hex');
}

const wanted = inputsHash();
const stamped = existsSync(stampFile) ? readFileSync(stampFile, 'utf8').trim() : undefined;
if (stamped === wanted && existsSync(join(dist, 'index.html'))) {
  console.log('web app: up to date, not rebuilt');
} else {
  console.log(stamped ? 'web app: sources changed, building' : 'web app: building (first start)');
  const build = spawnSync('npm', ['run', 'build', '-w', '@herald/web'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
  // The hash from before the build: an edit made while it ran shows as a change next time.
  writeFileSync(stampFile, `${wanted}\n`);
}

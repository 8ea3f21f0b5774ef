import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { DataDirInUseError, lockDataDir } from './data-dir-lock.ts';

describe('lockDataDir', () => {
  const dir = mkdtempSync(join(tmpdir(), 'herald-lock-'));
  const lock = join(dir, 'pglite.lock');
  afterEach(() => rmSync(lock, { force: true }));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('writes its pid, refuses a second open in the same process, and frees the directory on release', () => {
    const release = lockDataDir(lock);
    expect(readFileSync(lock, 'utf8').trim()).toBe(String(process.pid));
    expect(() => lockDataDir(lock)).toThrow(DataDirInUseError);
    release();
    expect(existsSync(lock)).toBe(false);
    lockDataDir(lock)();
  });

  it('refuses a directory held by another live process, naming it', async () => {
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)'], { stdio: 'ignore' });
    try {
      writeFileSync(lock, `${other.pid}\n`);
      expect(() => lockDataDir(lock)).toThrow(`in use by process ${other.pid}`);
      expect(readFileSync(lock, 'utf8').trim()).toBe(String(other.pid));
    } finally {
      const exited = new Promise((r) => other.once('exit', r));
      other.kill('SIGKILL');
      await exited;
    }
  });

  it('takes over a lock left by a process that is gone (kill -9), or an unreadable one', async () => {
    const dead = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
    await new Promise((r) => dead.once('exit', r));
    writeFileSync(lock, `${dead.pid}\n`);
    const release = lockDataDir(lock);
    expect(readFileSync(lock, 'utf8').trim()).toBe(String(process.pid));
    release();
    writeFileSync(lock, '');
    lockDataDir(lock)();
  });

  it("takes over a lock naming this process's pid that this process does not hold (a container's pid 1 restarted)", () => {
    writeFileSync(lock, `${process.pid}\n`);
    const release = lockDataDir(lock);
    expect(() => lockDataDir(lock)).toThrow(DataDirInUseError);
    release();
  });
});

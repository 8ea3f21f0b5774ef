import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';

/** Lock files this process holds: a second open in the same process is refused too. */
const held = new Set<string>();

export class DataDirInUseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DataDirInUseError';
  }
}

/**
 * PGlite takes no lock on its data directory, and two PGlite instances writing one directory
 * corrupt it (decision 009, "Embedded (PGlite)": a second server started on the same DATA_DIR left
 * zeroed index pages and lost rows). This lock file holds the pid of the process that has the
 * directory; a lock left by a process that is gone (kill -9, crash, power loss) is taken over, and
 * so is one naming this process's own pid without this process holding it (a container restarted
 * as pid 1 finds its previous life's lock). Returns the release.
 */
export function lockDataDir(lockPath: string): () => void {
  if (held.has(lockPath)) throw new DataDirInUseError(`${lockPath} is already held by this process`);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(lockPath, 'wx');
      try {
        writeSync(fd, `${process.pid}\n`);
      } finally {
        closeSync(fd);
      }
      held.add(lockPath);
      return () => {
        if (!held.delete(lockPath)) return;
        try {
          unlinkSync(lockPath);
        } catch {}
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const owner = readOwner(lockPath);
    if (owner !== undefined && owner !== process.pid && isAlive(owner)) {
      throw new DataDirInUseError(
        `The embedded database is in use by process ${owner} (${lockPath}). Stop that process first: two ` +
          'processes on one DATA_DIR corrupt it. If no Herald process is running, delete the lock file.',
      );
    }
    try {
      unlinkSync(lockPath);
    } catch {}
  }
  throw new DataDirInUseError(`Could not take ${lockPath}`);
}

function readOwner(lockPath: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(lockPath, 'utf8'), 10);
    return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * PGlite has no cross-process lock, and two processes writing one data dir corrupt it.
 * A pid file next to the dir makes a second process refuse to start.
 */
export function acquireDataDirLock(dataDir: string): () => void {
  const lockFile = `${dataDir}.lock`;
  mkdirSync(dirname(lockFile), { recursive: true });
  const ownPid = String(process.pid);
  try {
    closeSync(openSync(lockFile, 'wx'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const holder = Number(readFileSync(lockFile, 'utf8').trim());
    if (holder && holder !== process.pid && isAlive(holder)) {
      throw new Error(
        `The embedded database at ${dataDir} is in use by process ${holder}; embedded mode allows one ` +
          'process per data dir. Stop that process, or set DATABASE_URL to share a PostgreSQL server.',
      );
    }
  }
  writeFileSync(lockFile, ownPid);
  return () => {
    try {
      if (readFileSync(lockFile, 'utf8').trim() === ownPid) unlinkSync(lockFile);
    } catch {
      // already gone
    }
  };
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

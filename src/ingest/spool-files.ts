/**
 * Names and clean-up of the files spooled under `$HEALTH_HOME/ingest/{incoming,uploads}`. The
 * server and the import script (scripts/import-apple-health.ts) may work on one home at once, so
 * a start-up clean-up must not remove a file another live process is still writing or reading.
 * Each spool file's name therefore starts with its owner: `<host>.<pid>.<run>-`, a hash of the
 * host name (a container and its host share a home but not their process ids), the process id and
 * a token drawn once per process (a restarted server in a container gets the old pid back; the
 * token tells its files from the dead run's). A start removes only files whose owner is gone.
 */
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SPOOL_ORPHAN_AGE_MS } from '../limits.js';

/** This process's run token (hex), drawn once. */
const RUN = randomBytes(4).toString('hex');

/** This machine (or container): the host name's hash, hex. */
const HOST = createHash('sha256').update(os.hostname()).digest('hex').slice(0, 8);

const OWNER = /^([0-9a-f]+)\.(\d+)\.([0-9a-f]+)-/;

/** The owner prefix of this process's spool files: `<host>.<pid>.<run>-`. */
export function spoolOwnerPrefix(): string {
  return `${HOST}.${process.pid}.${RUN}-`;
}

/** A fresh spool file name owned by this process, ending in `.<ext>` (no folder). */
export function spoolName(ext: string): string {
  return `${spoolOwnerPrefix()}${Date.now()}-${randomBytes(6).toString('hex')}.${ext}`;
}

/** Whether process `pid` exists (a process of another user counts: EPERM). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Whether the spool file `name` (modified `mtimeMs`) is left over: its owner process on this
 * host is gone, or it is this process's pid from an earlier run, or it carries no owner (written
 * before owners were named). A file of another host, whose processes cannot be seen from here, or
 * of a live process is left over only once older than SPOOL_ORPHAN_AGE_MS (a reused pid must not
 * keep it forever).
 */
export function isLeftOver(name: string, mtimeMs: number, now = Date.now()): boolean {
  if (now - mtimeMs > SPOOL_ORPHAN_AGE_MS) return true;
  const m = OWNER.exec(name);
  if (!m) return true;
  if (m[1] !== HOST) return false;
  const pid = Number(m[2]);
  if (pid === process.pid) return m[3] !== RUN;
  return !alive(pid);
}

/**
 * Removes the left-over files of spool folder `dir` (isLeftOver); the files of live processes
 * stay. A file that vanishes meanwhile (its owner removed it) is skipped.
 * @returns the names removed.
 */
export function removeLeftOverSpool(dir: string): string[] {
  const removed: string[] = [];
  for (const name of fs.readdirSync(dir)) {
    const file = path.join(dir, name);
    let st: fs.Stats;
    try {
      st = fs.lstatSync(file);
    } catch {
      continue;
    }
    if (!isLeftOver(name, st.mtimeMs)) continue;
    fs.rmSync(file, { force: true, recursive: true });
    removed.push(name);
  }
  return removed;
}

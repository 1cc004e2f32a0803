/**
 * Commit points for files other people may edit at the same time (manifests in the data folder).
 * A write never lands over bytes it has not seen: the current file is first renamed aside (an
 * atomic step that captures exactly what was there), its hash compared with what the writer
 * last read, and only then is the new file linked into place, which fails rather than replace a
 * file that appeared meanwhile. A crash at any step leaves a dot-file (`.<name>.<hex>.tmp` or
 * `.<name>.<hex>.old`) that start-up repair settles (src/cards/startup-repair.ts).
 */
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fsyncDir, writeTargetOf } from './atomic-write.js';

/** Name of the copy a file is renamed to while a write checks it: `.<name>.<hex>.old`. */
export function asidePathFor(target: string): string {
  return path.join(path.dirname(target), `.${path.basename(target)}.${randomBytes(6).toString('hex')}.old`);
}

/** A leftover of an interrupted write: which file it belongs to and what kind it is. */
export function parseLeftover(name: string): { target: string; kind: 'tmp' | 'old' } | null {
  const m = /^\.(.+)\.[0-9a-f]{12}\.(tmp|old)$/.exec(name);
  return m ? { target: m[1], kind: m[2] as 'tmp' | 'old' } : null;
}

const NO_HARD_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EXDEV']);

/**
 * Puts `from` at `to` without ever replacing a file at `to`; `from` is removed. On a file system
 * without hard links it falls back to a rename (which would replace).
 * @returns false when a file already exists at `to` (then `from` is left in place).
 */
export function placeNoReplace(from: string, to: string): boolean {
  try {
    fs.linkSync(from, to);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? '';
    if (code === 'EEXIST') return false;
    if (!NO_HARD_LINKS.has(code)) throw err;
    if (fs.existsSync(to)) return false;
    fs.renameSync(from, to);
    return true;
  }
  fs.rmSync(from, { force: true });
  return true;
}

/** Brings an aside copy back to its place unless a newer file is there now (then the copy goes). */
export function restoreAside(aside: string, target: string): void {
  if (!placeNoReplace(aside, target)) fs.rmSync(aside, { force: true });
}

/** sha256 (hex) of a file's bytes, or undefined when it cannot be read. */
function hashOf(file: string): string | undefined {
  try {
    return createHash('sha256').update(fs.readFileSync(file)).digest('hex');
  } catch {
    return undefined;
  }
}

/** What commitIfUnchanged did. */
export type CommitOutcome = 'committed' | 'changed' | 'missing';

/**
 * Replaces `target` (the file it links to, when it is a symlink) by the synced temp file `tmp`
 * (from writeTemp) only if it still holds the bytes whose sha256 (hex) is `expected` (or, for a
 * file too large to read again, that the `expected` check of the set-aside file accepts).
 * Otherwise nothing is replaced and `tmp` is removed: 'changed' when someone else wrote the
 * file since it was read, 'missing' when it is gone.
 * @param whilePlaced runs once the new file is in place and the old one is still kept aside (a
 *   database transaction that belongs to this write); when it throws, the old file goes back
 *   and the error is passed on.
 */
export function commitIfUnchanged(
  tmp: string,
  target: string,
  expected: string | ((aside: string) => boolean),
  whilePlaced?: () => void,
): CommitOutcome {
  // a symlinked file stays linked: the file it points to is the one replaced (as writeTemp placed tmp)
  target = writeTargetOf(target);
  const aside = asidePathFor(target);
  try {
    fs.renameSync(target, aside);
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
    throw err;
  }
  if (typeof expected === 'string' ? hashOf(aside) !== expected : !expected(aside)) {
    restoreAside(aside, target);
    fs.rmSync(tmp, { force: true });
    return 'changed';
  }
  let placed: boolean;
  try {
    placed = placeNoReplace(tmp, target);
  } catch (err) {
    restoreAside(aside, target);
    fs.rmSync(tmp, { force: true });
    throw err;
  }
  if (!placed) {
    // a new file appeared while ours was being placed: it is newer than both; keep it
    fs.rmSync(tmp, { force: true });
    fs.rmSync(aside, { force: true });
    return 'changed';
  }
  if (whilePlaced) {
    try {
      whilePlaced();
    } catch (err) {
      fs.renameSync(aside, target);
      throw err;
    }
  }
  fs.rmSync(aside, { force: true });
  fsyncDir(path.dirname(target));
  return 'committed';
}

/**
 * Removes `target` only if it still holds the bytes whose sha256 (hex) is `expectedHash`: it is
 * renamed aside first, so a save that lands meanwhile is never removed. A symlink is removed
 * itself (as a delete does), judged by the bytes of the file it points to. 'changed' when it
 * holds other bytes (they stay), 'missing' when it is gone.
 */
export function removeIfUnchanged(target: string, expectedHash: string): CommitOutcome {
  const aside = asidePathFor(target);
  try {
    fs.renameSync(target, aside);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
    throw err;
  }
  if (hashOf(aside) !== expectedHash) {
    restoreAside(aside, target);
    return 'changed';
  }
  fs.rmSync(aside, { force: true });
  fsyncDir(path.dirname(target));
  return 'committed';
}

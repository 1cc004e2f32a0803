/**
 * Node's `fs.mkdirSync(dir, {recursive: true})` (and its promise form) reports ENOENT, "no such
 * file or directory", when the folder cannot be made because its disk is read-only or full: the
 * real cause (EROFS, ENOSPC) is lost on the way up the path. Read as it is, a snapshot folder made
 * in a backups folder on a read-only mount, or on a full disk, was an internal error (500) rather
 * than the storage condition it is. This finds the real cause without making anything.
 */
import fs from 'node:fs';
import path from 'node:path';

/** The nearest folder above `p` that exists (the root at worst). */
function nearestExisting(p: string): string {
  let dir = path.dirname(path.resolve(p));
  while (!fs.existsSync(dir)) {
    const up = path.dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  return dir;
}

/** An error like the system's own, with the code the recursive mkdir should have reported. */
function causeError(code: string, message: string, p: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: ${message}, mkdir '${p}'`), { code, syscall: 'mkdir', path: p });
}

/**
 * For an ENOENT of a recursive mkdir: the error it hides, when the nearest existing folder above
 * the path is on a read-only file system or one that refuses this user's writes (EROFS, EACCES,
 * EPERM) or on a full disk (ENOSPC: no free block or no free inode). Null for any other error,
 * or when the folder really is missing (a parent removed meanwhile).
 */
export function recursiveMkdirCause(err: unknown): NodeJS.ErrnoException | null {
  const e = err as NodeJS.ErrnoException | null;
  if (e?.code !== 'ENOENT' || e.syscall !== 'mkdir' || typeof e.path !== 'string') return null;
  const dir = nearestExisting(e.path);
  try {
    fs.accessSync(dir, fs.constants.W_OK);
  } catch (denied) {
    const code = (denied as NodeJS.ErrnoException).code;
    if (code === 'EROFS' || code === 'EACCES' || code === 'EPERM') {
      return causeError(code, (denied as Error).message.split(',')[0].replace(`${code}: `, ''), e.path);
    }
    return null;
  }
  try {
    const s = fs.statfsSync(dir);
    // a file system without figures (/proc, /sys: 0 blocks, 0 inodes) is not a full one
    const full = (s.blocks > 0 && s.bavail === 0) || (s.files > 0 && s.ffree === 0);
    if (full) return causeError('ENOSPC', 'no space left on device', e.path);
  } catch {
    // a file system that gives no figures: nothing more to say
  }
  return null;
}

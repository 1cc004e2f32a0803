/**
 * The start's check of the folders Klebb keeps its data in (HEALTH_HOME, HEALTH_DATA_DIR), so a
 * path that names a file or a place this user may not write stops the start with a sentence
 * naming the variable, instead of a stack trace from deep inside opening the home.
 */
import fs from 'node:fs';
import path from 'node:path';
import { recursiveMkdirCause } from '../store/mkdir-cause.js';

/** The nearest part of `dir` (itself or a parent) that exists, or null. */
function nearestExisting(dir: string): { at: string; isDir: boolean } | null {
  for (let p = dir; ; p = path.dirname(p)) {
    try {
      return { at: p, isDir: fs.statSync(p).isDirectory() };
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') return null;
    }
    if (path.dirname(p) === p) return null;
  }
}

/**
 * Makes `dir` and its missing parents one level at a time. Node's recursive mkdir retries for
 * ever where the file system answers ENOENT for a new folder inside an existing one (inside
 * /proc), so each level is made once here and its error is the answer.
 */
function makeFolders(dir: string): void {
  const missing: string[] = [];
  for (let p = path.resolve(dir); !fs.existsSync(p); p = path.dirname(p)) {
    missing.unshift(p);
    if (path.dirname(p) === p) break;
  }
  for (const p of missing) {
    try {
      fs.mkdirSync(p);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
}

const WHY: Record<string, string> = {
  // a folder whose parent exists, refused as missing: a system folder such as /proc or /sys
  ENOENT: 'this file system makes no new folders there',
  EACCES: 'permission denied',
  EPERM: 'not permitted',
  EROFS: 'the file system is read-only',
};

/**
 * Why the data folders cannot be used, as `VARIABLE: sentence`, or null when they can (each is
 * created when missing, as the start would). `dataDir` is named HEALTH_DATA_DIR unless it is
 * `<home>/data`; `homeName` names the home otherwise (a command's `--target`). Nothing is
 * created while a path names a file: both are looked at first.
 */
export function homeFolderProblem(home: string, dataDir: string, homeName = 'HEALTH_HOME'): string | null {
  const dirs: [string, string][] = [[homeName, home]];
  if (dataDir !== path.join(home, 'data')) dirs.push(['HEALTH_DATA_DIR', dataDir]);
  for (const [variable, dir] of dirs) {
    const found = nearestExisting(dir);
    if (found && !found.isDir) {
      const inside = found.at === dir ? '' : `, so ${dir} cannot be made in it`;
      return `${variable}: ${found.at} is a file, not a folder${inside}; set ${variable} to a folder (a missing one is created)`;
    }
  }
  for (const [variable, dir] of dirs) {
    try {
      makeFolders(dir);
      fs.accessSync(dir, fs.constants.W_OK);
      // the start makes folders in it (db, data, backups): one that allows writing by its mode
      // but makes no folders (/proc, /sys) is found here, not by a start that never ends
      fs.rmdirSync(fs.mkdtempSync(path.join(dir, '.klebb-check-')));
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? '';
      const why = WHY[code] ?? (err as Error).message;
      const todo =
        code === 'ENOENT'
          ? `set ${variable} to an ordinary folder (a missing one is created)`
          : `run Klebb as a user who may write there, or set ${variable} to a folder of that user's`;
      return `${variable}: cannot create or write ${dir} (${code ? `${code}, ` : ''}${why}); ${todo}`;
    }
  }
  return null;
}

const WRITE_REFUSED: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'not permitted',
  EROFS: 'the file system is read-only',
  EIO: 'an input/output error',
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
};

/**
 * Why opening a home failed when a folder inside it refused a write (a subfolder such as
 * reports/ or backups/ on a read-only mount, a full disk), as `HEALTH_HOME: sentence` naming the
 * folder and what to do; null for any other failure. The start then says this instead of the
 * stack trace of the first folder or file it could not make.
 */
export function homeWriteProblem(err: unknown, homeName = 'HEALTH_HOME'): string | null {
  const e = (recursiveMkdirCause(err) ?? err) as NodeJS.ErrnoException | null;
  const code = e?.code;
  if (!code || !Object.hasOwn(WRITE_REFUSED, code) || typeof e.path !== 'string') return null;
  const full = code === 'ENOSPC' || code === 'EDQUOT';
  const todo = full ? 'free some space' : 'make it writable for the user running Klebb';
  return `${homeName}: cannot write in ${path.dirname(e.path)} (${code}, ${WRITE_REFUSED[code]}); ${todo}, then start again`;
}

/**
 * The start's check of the folders Klebb keeps its data in (HEALTH_HOME, HEALTH_DATA_DIR), so a
 * path that names a file or a place this user may not write stops the start with a sentence
 * naming the variable, instead of a stack trace from deep inside opening the home.
 */
import fs from 'node:fs';
import path from 'node:path';

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

const WHY: Record<string, string> = {
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
      fs.mkdirSync(dir, { recursive: true });
      fs.accessSync(dir, fs.constants.W_OK);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? '';
      const why = WHY[code] ?? (err as Error).message;
      return `${variable}: cannot create or write ${dir} (${code ? `${code}, ` : ''}${why}); run Klebb as a user who may write there, or set ${variable} to a folder of that user's`;
    }
  }
  return null;
}

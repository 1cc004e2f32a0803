/**
 * Whether the user running Klebb may read every file of a snapshot folder. A snapshot taken by a
 * cron job run as root (`npm run backups -- --take`), or copied in by root, is root's: its
 * database file (written owner-only) cannot be opened by the server's user. The backups list
 * then says so for that snapshot, and a restore from it is refused naming the file and the
 * `chown` that fixes it, instead of calling it damaged or failing on its first read.
 */
import fs from 'node:fs';
import path from 'node:path';

/** Entries looked at before the walk stops (a snapshot holds a few hundred). */
const MAX_ENTRIES = 50_000;

/**
 * The first path in `dir` (itself included) the user running Klebb may not read (a folder: may
 * not list), as a clause for people naming it, its owner and the chown that fixes it; null when
 * everything can be read or `dir` does not exist. Symbolic links are not followed.
 */
export function snapshotAccessProblem(dir: string): string | null {
  const stack = [dir];
  let seen = 0;
  while (stack.length > 0 && seen++ < MAX_ENTRIES) {
    const at = stack.pop() as string;
    const stat = fs.lstatSync(at, { throwIfNoEntry: false });
    if (!stat || !(stat.isFile() || stat.isDirectory())) continue;
    const need = stat.isDirectory() ? fs.constants.R_OK | fs.constants.X_OK : fs.constants.R_OK;
    try {
      fs.accessSync(at, need);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? 'EACCES';
      const uid = process.getuid?.();
      const owner = uid !== undefined && stat.uid !== uid ? `, owned by uid ${stat.uid}` : '';
      const todo = uid !== undefined ? `chown -R ${uid} ${dir}` : `chmod -R u+rX ${dir}`;
      return `${at} may not be read by the user running Klebb (${code}${owner}); ${todo} makes it readable`;
    }
    if (stat.isDirectory()) for (const name of fs.readdirSync(at)) stack.push(path.join(at, name));
  }
  return null;
}

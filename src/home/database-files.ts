/**
 * The database files of a home that the user running Klebb may not write. A home copied to
 * another machine, restored from a backup or unpacked as root (`cp -r`, `tar x`, `rsync -a` run
 * by another user, a `chown` of the top folder only) keeps its folders writable while
 * `db/klebb.sqlite`, its `-wal` and `-shm` files or the server's lock belong to someone else.
 * SQLite opens such a file read-only and refuses the first write: the start ended in
 * "failed to start: SqliteError: attempt to write a readonly database" and a stack trace. This
 * check runs before the lock and the database are opened, and names the file and what to do.
 */
import fs from 'node:fs';
import path from 'node:path';

/**
 * Why the database folder `dbDir` cannot be used, as `HEALTH_HOME: sentence` naming the first
 * file in it that may not be read and written (with its owner when it is another user); null
 * when every file there may be, or the folder does not exist yet.
 */
export function databaseFileProblem(dbDir: string, homeName = 'HEALTH_HOME'): string | null {
  let names: string[];
  try {
    names = fs.readdirSync(dbDir).sort();
  } catch {
    return null;
  }
  for (const name of names) {
    const file = path.join(dbDir, name);
    const stat = fs.statSync(file, { throwIfNoEntry: false });
    if (!stat?.isFile()) continue;
    try {
      fs.accessSync(file, fs.constants.R_OK | fs.constants.W_OK);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? 'EACCES';
      const uid = process.getuid?.();
      const owner =
        uid !== undefined && stat.uid !== uid
          ? `, owned by uid ${stat.uid}, not by uid ${uid} running Klebb`
          : '';
      const todo =
        uid !== undefined && stat.uid !== uid
          ? `give the home to that user (chown -R ${uid} ${path.dirname(dbDir)})`
          : 'make it readable and writable for the user running Klebb (chmod u+rw)';
      return `${homeName}: the database file ${file} may not be written (${code}${owner}); ${todo}, then start again`;
    }
  }
  return null;
}

/**
 * The files and folders of a home that the user running Klebb may not read and write. A home
 * copied to another machine, restored from a backup or unpacked as root (`cp -r`, `tar x`,
 * `rsync -a` run by another user, a `chown` of the top folder only) keeps its top folder writable
 * while files inside belong to someone else. Each then failed on its first use: the database
 * ended the start with "SqliteError: attempt to write a readonly database" and a stack trace, an
 * unreadable keys/vapid.json with a stack and the advice to move it aside (which would cut off
 * every device's reminders). This check runs before the lock and the database are opened, and
 * names the first such path, its owner and what to do.
 */
import fs from 'node:fs';
import path from 'node:path';

/** How many entries the walk looks at before it stops looking (a home holds far fewer). */
const MAX_ENTRIES = 200_000;

/**
 * Why a path under `home` (and `dataDir`, when elsewhere) cannot be used, as `HEALTH_HOME:
 * sentence` naming the first one the user running Klebb may not use (with its owner when that is
 * another user): a folder it may not read and write, a database file (db/) it may not read and
 * write (SQLite writes in place), any other file it may not read (those are replaced whole, and
 * a card file kept read-only on purpose still refuses its writes one by one); null when all may
 * be used, or the home does not exist yet. Symbolic links are not followed; a `lost+found`
 * folder (the top of a file system of its own) is passed over.
 */
export function homeFileProblem(home: string, dataDir: string, homeName = 'HEALTH_HOME'): string | null {
  const roots: [string, string][] = [[homeName, home]];
  if (dataDir !== home && !dataDir.startsWith(home + path.sep)) roots.push(['HEALTH_DATA_DIR', dataDir]);
  const dbDir = path.join(home, 'db');
  let seen = 0;
  for (const [name, root] of roots) {
    const stack = [root];
    while (stack.length > 0 && seen < MAX_ENTRIES) {
      const at = stack.pop() as string;
      seen++;
      const stat = fs.lstatSync(at, { throwIfNoEntry: false });
      if (!stat || !(stat.isFile() || stat.isDirectory())) continue;
      // a home on a disk of its own has mkfs's lost+found at its top, root's alone: not Klebb's
      if (stat.isDirectory() && path.basename(at) === 'lost+found') continue;
      const need = stat.isDirectory()
        ? fs.constants.R_OK | fs.constants.W_OK | fs.constants.X_OK
        : path.dirname(at) === dbDir
          ? fs.constants.R_OK | fs.constants.W_OK
          : fs.constants.R_OK;
      try {
        fs.accessSync(at, need);
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code ?? 'EACCES';
        // a read-only mount is no owner's doing: the start names it when it first writes there
        if (code === 'EROFS') continue;
        const what = need & fs.constants.W_OK ? 'read and written' : 'read';
        return refusal(at, stat, what, code, root, name);
      }
      if (stat.isDirectory()) for (const name of fs.readdirSync(at)) stack.push(path.join(at, name));
    }
  }
  return null;
}

function refusal(
  at: string,
  stat: fs.Stats,
  what: string,
  code: string,
  root: string,
  homeName: string,
): string {
  const uid = process.getuid?.();
  const other = uid !== undefined && stat.uid !== uid;
  const owner = other ? `, owned by uid ${stat.uid}, not by uid ${uid} running Klebb` : '';
  const todo = other
    ? `give the home to that user (chown -R ${uid} ${root})`
    : `make it readable and writable for the user running Klebb (chmod -R u+rwX ${root})`;
  return `${homeName}: ${at} may not be ${what} (${code}${owner}); ${todo}, then try again`;
}

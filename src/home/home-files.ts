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

/** Folders of the home a start reads and writes whole: each entry in them is looked at. */
const READ_WHOLE = ['db', 'keys', 'credentials', 'sessions'];

/**
 * Folders a start writes in without reading what they hold (the inbox it empties, the spool
 * folders it clears of a dead run's files): the folder itself is looked at, not its entries.
 */
const FOLDER_ONLY = ['inbox', 'tmp', 'ingest', 'ingest/incoming', 'ingest/uploads', 'ingest/quarantine'];

/** What one entry must allow the user running Klebb: folders all, db/ files read and write, others read. */
function accessNeeded(at: string, isDirectory: boolean, dbDir: string): number {
  if (isDirectory) return fs.constants.R_OK | fs.constants.W_OK | fs.constants.X_OK;
  return path.dirname(at) === dbDir ? fs.constants.R_OK | fs.constants.W_OK : fs.constants.R_OK;
}

/**
 * The paths a start opens, with whether the entries of each folder are looked at too: the home
 * folder and its state files (the JSON files at its top), the folders in READ_WHOLE and the data
 * folder with everything in them, and the folders in FOLDER_ONLY alone.
 */
function startPaths(home: string, dataDir: string): { at: string; whole: boolean }[] {
  const out = [{ at: home, whole: false }];
  let top: string[] = [];
  try {
    top = fs.readdirSync(home);
  } catch {
    // the home folder itself is looked at first, and refused when it cannot be read
  }
  for (const name of top) if (name.endsWith('.json')) out.push({ at: path.join(home, name), whole: false });
  for (const name of READ_WHOLE) out.push({ at: path.join(home, name), whole: true });
  out.push({ at: dataDir, whole: true });
  for (const name of FOLDER_ONLY) out.push({ at: path.join(home, name), whole: false });
  return out;
}

/**
 * Why a path the start opens under `home` (and `dataDir`, when elsewhere) cannot be used, as
 * `HEALTH_HOME: sentence` naming the first one the user running Klebb may not use (with its
 * owner when that is another user): a folder it may not read and write, a database file (db/) it
 * may not read and write (SQLite writes in place), any other file it may not read (those are
 * replaced whole, and a card file kept read-only on purpose still refuses its writes one by
 * one); null when all may be used, or the home does not exist yet. Only what a start opens is
 * looked at (see startPaths): a snapshot in backups/, a report or an upload left by another user
 * is the concern of the feature that reads it, which names it when it does, and never stops a
 * start. Symbolic links are not followed.
 */
export function homeFileProblem(home: string, dataDir: string, homeName = 'HEALTH_HOME'): string | null {
  const dbDir = path.join(home, 'db');
  const outside = dataDir !== home && !dataDir.startsWith(home + path.sep);
  let seen = 0;
  for (const { at: first, whole } of startPaths(home, dataDir)) {
    const [name, root] = outside && first === dataDir ? ['HEALTH_DATA_DIR', dataDir] : [homeName, home];
    const stack = [first];
    while (stack.length > 0 && seen < MAX_ENTRIES) {
      const at = stack.pop() as string;
      seen++;
      const stat = fs.lstatSync(at, { throwIfNoEntry: false });
      if (!stat || !(stat.isFile() || stat.isDirectory())) continue;
      const need = accessNeeded(at, stat.isDirectory(), dbDir);
      try {
        fs.accessSync(at, need);
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code ?? 'EACCES';
        // a read-only mount is no owner's doing: the start names it when it first writes there
        if (code === 'EROFS') continue;
        const what = need & fs.constants.W_OK ? 'read and written' : 'read';
        return refusal(at, stat, what, code, root, name);
      }
      if (whole && stat.isDirectory())
        for (const entry of fs.readdirSync(at)) stack.push(path.join(at, entry));
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

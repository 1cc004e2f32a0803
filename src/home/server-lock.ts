/**
 * One Klebb server per HEALTH_HOME. Two servers on one home would each watch the card files,
 * send every reminder twice and take each other's writes for hand edits. The server holds an
 * exclusive SQLite lock on `db/server.lock` for as long as it runs; a second server started on
 * the same home finds it held and stops with a sentence saying so. The operating system lets go
 * of the lock when the process ends in any way (a crash, kill -9, a power cut), so a lock left
 * by a server that died never blocks the next start, and no stale file needs removing by hand.
 * Programs that share a home on purpose (the stdio MCP server, the command-line tools) take no lock.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';

/** The lock file of a home's server. */
export const serverLockFile = (dbDir: string) => path.join(dbDir, 'server.lock');

/** Thrown when another server holds the home's lock. */
export class HomeInUseError extends Error {}

/** A held lock; `release()` lets it go (the process ending does too). */
export interface ServerLock {
  release(): void;
}

/**
 * Takes the server lock of the home whose database folder is `dbDir` (created when missing).
 * @throws HomeInUseError naming the home and the lock file when another live process holds it.
 */
export function takeServerLock(home: string, dbDir: string): ServerLock {
  fs.mkdirSync(dbDir, { recursive: true });
  const file = serverLockFile(dbDir);
  const db = new Database(file, { timeout: 0 });
  try {
    // the lock is taken by the first write and kept until the connection closes
    db.pragma('journal_mode = DELETE');
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('CREATE TABLE IF NOT EXISTS holder (pid INTEGER, since TEXT)');
    db.prepare('DELETE FROM holder').run();
    db.prepare('INSERT INTO holder VALUES (?, ?)').run(process.pid, new Date().toISOString());
  } catch (err) {
    db.close();
    if (
      (err as { code?: string }).code === 'SQLITE_BUSY' ||
      (err as { code?: string }).code === 'SQLITE_LOCKED'
    )
      throw new HomeInUseError(
        `another Klebb server is already running on HEALTH_HOME ${home} (it holds ${file}); stop it first, or give this one its own HEALTH_HOME`,
      );
    throw err;
  }
  return { release: () => db.close() };
}

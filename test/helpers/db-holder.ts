/**
 * A second process holding the instance's database write lock, as a backup tool, Litestream or
 * the sqlite3 shell would: a separate node process opens the file with better-sqlite3, runs
 * BEGIN IMMEDIATE, reports that it holds the lock, waits `holdMs`, then commits and exits.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { repoRoot } from './sandbox-home.js';

/** A running lock holder: `locked` resolves once the lock is held, `done` when the process ends. */
export interface DbHolder {
  locked: Promise<void>;
  done: Promise<void>;
  proc: ChildProcess;
}

const SCRIPT = `
import Database from 'better-sqlite3';
const [file, holdMs] = process.argv.slice(1);
const db = new Database(file);
db.pragma('busy_timeout = 10000');
db.exec('BEGIN IMMEDIATE');
process.stdout.write('locked\\n');
Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, Number(holdMs));
db.exec('COMMIT');
db.close();
`;

/** Starts a process that holds `dbFile`'s write lock for `holdMs` ms. */
export function holdDatabase(dbFile: string, holdMs: number): DbHolder {
  const proc = spawn(process.execPath, ['--input-type=module', '-e', SCRIPT, dbFile, String(holdMs)], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  proc.stderr?.on('data', (c: Buffer) => {
    err += c.toString();
  });
  const locked = new Promise<void>((resolve, reject) => {
    proc.stdout?.on('data', (c: Buffer) => {
      if (c.toString().includes('locked')) resolve();
    });
    proc.once('exit', (code) => reject(new Error(`lock holder exited (${code}) before locking: ${err}`)));
  });
  const done = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  return { locked, done, proc };
}

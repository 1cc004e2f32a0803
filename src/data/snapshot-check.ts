/**
 * Whether a snapshot folder is whole enough to restore, checked cheaply (the first page of the
 * database and the folder's layout, never every page) so the backups list can say which
 * snapshots are damaged and a restore can refuse one before it takes a pre-import snapshot and
 * freezes the home. Damage deeper in the database is found while applying; that transaction then
 * rolls back and the job fails with IMPORT_FAILED.
 */
import fs from 'node:fs';
import Database from 'better-sqlite3';
import { invalid } from '../errors.js';
import type { StagedPaths } from './staged-home.js';

const MAGIC = Buffer.from('SQLite format 3\0', 'latin1');
const HEADER_BYTES = 100;
/** Tables a restore reads; a database without them is not one of ours. */
const NEEDED_TABLES = ['card_state', 'card_rows'];

/** The first 100 bytes of `file`, or fewer when it is shorter. */
function readHeader(file: string): Buffer {
  const fd = fs.openSync(file, 'r');
  try {
    const buf = Buffer.alloc(HEADER_BYTES);
    const n = fs.readSync(fd, buf, 0, HEADER_BYTES, 0);
    return buf.subarray(0, n);
  } finally {
    fs.closeSync(fd);
  }
}

/** What is wrong with the database file at `file`, judged by its header and size, or null. */
function headerProblem(file: string): string | null {
  const size = fs.statSync(file).size;
  if (size === 0) return 'its database file (db.sqlite) is empty';
  const h = readHeader(file);
  if (h.length < HEADER_BYTES || !h.subarray(0, MAGIC.length).equals(MAGIC))
    return 'its database file (db.sqlite) is not a SQLite database';
  const raw = h.readUInt16BE(16);
  const pageSize = raw === 1 ? 65536 : raw;
  // the page count in the header is valid when its "valid-for" number equals the change counter
  const pages = h.readUInt32BE(28);
  const countValid = h.readUInt32BE(92) === h.readUInt32BE(24);
  if (countValid && size < pages * pageSize)
    return `its database file (db.sqlite) is cut short (${size} of ${pages * pageSize} bytes)`;
  return null;
}

/** What is wrong with the tables of the database at `file` (opened read-only), or null. */
function schemaProblem(file: string): string | null {
  let db: Database.Database | undefined;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
    const tables = new Set(
      db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[],
    );
    const missing = NEEDED_TABLES.filter((t) => !tables.has(t));
    return missing.length ? `its database file (db.sqlite) lacks the table ${missing[0]}` : null;
  } catch {
    return 'its database file (db.sqlite) cannot be read';
  } finally {
    db?.close();
  }
}

/**
 * What is damaged in the snapshot at `p`, as a clause for people ("its database file
 * (db.sqlite) is cut short …"), or null when it looks whole: snapshot.json readable, the
 * database a SQLite file as long as its header says, holding the card tables, and the cards
 * folder present.
 */
export function snapshotDamage(p: StagedPaths): string | null {
  try {
    const info = JSON.parse(fs.readFileSync(`${p.dir}/snapshot.json`, 'utf8')) as unknown;
    if (!info || typeof info !== 'object') return 'its snapshot.json is not a JSON object';
  } catch {
    return 'its snapshot.json is missing or not valid JSON';
  }
  let isFile = false;
  try {
    isFile = fs.statSync(p.db).isFile();
  } catch {
    // missing
  }
  if (!isFile) return 'its database file (db.sqlite) is missing';
  const problem = headerProblem(p.db) ?? schemaProblem(p.db);
  if (problem) return problem;
  if (!fs.existsSync(p.cards) || !fs.statSync(p.cards).isDirectory()) return 'its cards folder is missing';
  return null;
}

/** @throws 422 SNAPSHOT_DAMAGED naming the snapshot and what is wrong, when snapshotDamage finds something. */
export function assertSnapshotWhole(name: string, p: StagedPaths): void {
  const problem = snapshotDamage(p);
  if (problem)
    throw invalid(
      `the snapshot "${name}" is damaged and cannot be restored: ${problem}; nothing was changed`,
      undefined,
      'SNAPSHOT_DAMAGED',
    );
}

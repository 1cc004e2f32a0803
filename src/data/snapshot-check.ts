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
import { checkChoices } from '../push/reminder-choices.js';
import { snapshotAccessProblem } from './snapshot-access.js';
import type { StagedPaths } from './staged-home.js';

const MAGIC = Buffer.from('SQLite format 3\0', 'latin1');
const HEADER_BYTES = 100;
/** Tables a restore reads; a database without them is not one of ours. */
const NEEDED_TABLES = ['card_state', 'card_rows'];

/** The kinds a snapshot.json may name (backups.ts SnapshotKind). */
const KINDS = new Set(['daily', 'pre-import', 'manual']);
/** The instant a snapshot.json gives, as Date#toISOString writes it. */
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/;

/** Whether `s` is an ISO instant naming a real day and time (`2026-02-30T…` is not). */
function isInstant(s: unknown): boolean {
  if (typeof s !== 'string' || !ISO_INSTANT.test(s)) return false;
  const t = Date.parse(s);
  return !Number.isNaN(t) && new Date(t).toISOString().slice(0, 19) === s.slice(0, 19);
}

const isCount = (v: unknown) => Number.isSafeInteger(v) && (v as number) >= 0;

/**
 * What is wrong with the parsed content of a snapshot.json, as a clause for people, or null when
 * it holds what a snapshot writes: a kind, the instant it was taken, and whole counts of cards,
 * rows and bytes. A value of another kind (a time that reads as no instant, a count as text)
 * would be shown in the list as it is, and a daily snapshot whose time is no instant would look
 * like the newest one for ever, so that no daily snapshot would be taken again.
 */
export function snapshotInfoProblem(info: unknown): string | null {
  if (!info || typeof info !== 'object' || Array.isArray(info))
    return 'its snapshot.json is not a JSON object';
  const o = info as Record<string, unknown>;
  if (typeof o.kind !== 'string' || !KINDS.has(o.kind))
    return 'its snapshot.json does not say which kind of snapshot it is';
  if (!isInstant(o.takenAt)) return 'its snapshot.json does not say when it was taken';
  const bad = ['cards', 'rows', 'bytes'].find((k) => !isCount(o[k]));
  return bad ? `its snapshot.json does not hold a whole count of ${bad}` : null;
}

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
 * What is wrong with the snapshot's reminder settings (`reminders.json`), or null when it has
 * none (an older Klebb's snapshot) or they hold what Klebb writes. A restore would otherwise put
 * the cards back and silently leave their reminders as they are: half the snapshot.
 */
function remindersProblem(p: StagedPaths): string | null {
  const fix = 'remove that file to restore without them';
  let text: string;
  try {
    text = fs.readFileSync(p.reminders, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    return `its reminder settings (reminders.json) cannot be read; ${fix}`;
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return `its reminder settings (reminders.json) are not valid JSON; ${fix}`;
  }
  const r = checkChoices(raw);
  if ('choices' in r) return null;
  const first = r.problems[0];
  return `its reminder settings (reminders.json) hold a value Klebb does not write (${first.path || 'the file'} ${first.message}); ${fix}`;
}

/**
 * What is damaged in the snapshot at `p`, as a clause for people ("its database file
 * (db.sqlite) is cut short …"), or null when it looks whole: snapshot.json readable and
 * holding what a snapshot writes (snapshotInfoProblem), the
 * database a SQLite file as long as its header says, holding the card tables, the cards
 * folder present, and the reminder settings, when there are any, what Klebb writes. A file the
 * user running Klebb may not read is named first (see snapshotAccessProblem).
 */
export function snapshotDamage(p: StagedPaths): string | null {
  // a snapshot another user took (root's cron) is whole, but not this user's to read: said so
  const access = snapshotAccessProblem(p.dir);
  if (access) return access;
  try {
    const problem = snapshotInfoProblem(JSON.parse(fs.readFileSync(`${p.dir}/snapshot.json`, 'utf8')));
    if (problem) return problem;
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
  return remindersProblem(p);
}

/**
 * @throws 422 SNAPSHOT_DAMAGED naming the snapshot and what is wrong, when snapshotDamage finds
 *   something (a file the user running Klebb may not read: that file and the chown).
 */
export function assertSnapshotWhole(name: string, p: StagedPaths): void {
  const access = snapshotAccessProblem(p.dir);
  if (access)
    throw invalid(
      `the snapshot "${name}" cannot be restored: ${access}; nothing was changed`,
      undefined,
      'SNAPSHOT_DAMAGED',
    );
  const problem = snapshotDamage(p);
  if (problem)
    throw invalid(
      `the snapshot "${name}" is damaged and cannot be restored: ${problem}; nothing was changed`,
      undefined,
      'SNAPSHOT_DAMAGED',
    );
}

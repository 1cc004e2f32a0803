/**
 * Snapshots of a home in `HEALTH_HOME/backups/<name>/`, laid out as a staged home
 * (src/data/staged-home.ts) so a restore is an import of that folder: the database (online
 * backup: consistent, WAL included), the card manifests, reports and `data/_meta`, the reminder
 * settings (`reminders.json`), plus
 * `snapshot.json` (kind, time, card and row counts). A snapshot is built in a dot-folder and
 * renamed into place when complete, so a crash never leaves a half snapshot that looks whole.
 *
 * Kinds: `daily` (automatic; the newest of each of the last `daily` days and the newest of each
 * of the last `weekly` ISO weeks are kept, days and weeks being the person's, in their zone), `pre-import` (taken before an import or a restore,
 * for Roll back; the newest BACKUP_PRE_IMPORT_KEEP kept) and `manual`.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { todayIn } from '../common/dates.js';
import { notFound } from '../errors.js';
import { fsyncDir } from '../home/atomic-write.js';
import { BACKUP_PRE_IMPORT_KEEP } from '../limits.js';
import type { Db } from '../store/database.js';
import { backupDatabase } from './db-snapshot.js';
import { type CardSource, plainFiles } from './export-files.js';
import { stagingName } from './leftover-copies.js';
import { homeReminderChoices, writeStagedChoices } from './reminder-settings.js';
import { assertSnapshotWhole, snapshotDamage, snapshotInfoProblem } from './snapshot-check.js';
import { type StagedPaths, stagedPaths } from './staged-home.js';

/** Why a snapshot was taken. */
export type SnapshotKind = 'daily' | 'pre-import' | 'manual';

/** What `snapshot.json` says, plus the folder name. */
export interface SnapshotInfo {
  name: string;
  kind: SnapshotKind;
  takenAt: string;
  cards: number;
  rows: number;
  bytes: number;
  /**
   * Set when the snapshot's files were damaged after it was taken: what is wrong, for people
   * (a restore from it is refused). Its counts are then 0 when snapshot.json cannot be read.
   */
  damaged?: string;
}

/** Retention of the automatic snapshots. */
export interface Retention {
  daily: number;
  weekly: number;
}

const NAME_RE = /^(daily|pre-import|manual)-(\d{8})-(\d{6})(-[0-9a-f]{4})?$/;

/** The backups folder of a home. */
export const backupsDir = (home: string) => path.join(home, 'backups');

function folderBytes(dir: string): number {
  let n = 0;
  for (const d of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, d.name);
    n += d.isDirectory() ? folderBytes(p) : fs.statSync(p).size;
  }
  return n;
}

/** What a snapshot needs from the home. */
export interface SnapshotSource {
  db: Db;
  home: string;
  cards: () => CardSource[];
  reportsDir: string;
  metaDir: string;
}

/**
 * A free name for a snapshot and its half-built folder, made at once: `base`, else `base-<hex>`.
 * The folder is created exclusively, so two snapshots begun in the same second (a button pressed
 * twice, a resent request) never build in one folder, where one would delete the other's files.
 * The half-built folder is named for this process, so a start after a crash knows it for a
 * leftover.
 */
function claimName(root: string, base: string): { name: string; tmp: string } {
  for (let i = 0; ; i++) {
    const name = i === 0 ? base : `${base}-${randomBytes(2).toString('hex')}`;
    if (fs.existsSync(path.join(root, name))) continue;
    const tmp = path.join(root, stagingName(name));
    try {
      fs.mkdirSync(tmp);
      return { name, tmp };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || i >= 20) throw err;
    }
  }
}

/**
 * Takes a snapshot now.
 * @throws the disk or SQLite error (the half-built folder is removed).
 */
export async function takeSnapshot(
  src: SnapshotSource,
  kind: SnapshotKind,
  now = new Date(),
): Promise<SnapshotInfo> {
  const root = backupsDir(src.home);
  fs.mkdirSync(root, { recursive: true });
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  const { name, tmp } = claimName(root, `${kind}-${stamp}`);
  const p = stagedPaths(tmp);
  try {
    for (const d of [p.cards, p.reports, p.meta]) fs.mkdirSync(d, { recursive: true });
    const cards = src.cards();
    for (const c of cards) fs.copyFileSync(c.file, path.join(p.cards, `${c.id}.json`));
    await backupDatabase(src.db, p.db);
    for (const n of plainFiles(src.reportsDir))
      fs.copyFileSync(path.join(src.reportsDir, n), path.join(p.reports, n));
    for (const n of plainFiles(src.metaDir)) fs.copyFileSync(path.join(src.metaDir, n), path.join(p.meta, n));
    writeStagedChoices(p, homeReminderChoices(src.home));
    const rows = src.db.prepare('SELECT coalesce(sum(row_count), 0) FROM card_state').pluck().get() as number;
    const info: SnapshotInfo = {
      name,
      kind,
      takenAt: now.toISOString(),
      cards: cards.length,
      rows,
      bytes: 0,
    };
    info.bytes = folderBytes(tmp);
    fs.writeFileSync(path.join(tmp, 'snapshot.json'), `${JSON.stringify(info, null, 2)}\n`);
    fs.renameSync(tmp, path.join(root, name));
    fsyncDir(root);
    return info;
  } catch (err) {
    fs.rmSync(tmp, { recursive: true, force: true });
    throw err;
  }
}

/** What the folder name of a snapshot says (kind and time), for one whose snapshot.json is lost. */
function infoFromName(dir: string, name: string): SnapshotInfo {
  const m = NAME_RE.exec(name);
  const [, kind, d, t] = m ?? ['', 'manual', '19700101', '000000'];
  const takenAt = `${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6, 8)}T${t.slice(0, 2)}:${t.slice(2, 4)}:${t.slice(4, 6)}.000Z`;
  let bytes = 0;
  try {
    bytes = folderBytes(dir);
  } catch {
    // unreadable: 0
  }
  return { name, kind: kind as SnapshotKind, takenAt, cards: 0, rows: 0, bytes };
}

/**
 * Every snapshot folder (only whole ones are ever renamed into place), newest first; one whose
 * files were damaged since carries `damaged` (src/data/snapshot-check.ts).
 */
export function listSnapshots(home: string): SnapshotInfo[] {
  const root = backupsDir(home);
  let names: string[];
  try {
    names = fs.readdirSync(root).filter((n) => NAME_RE.test(n));
  } catch {
    return [];
  }
  const out: SnapshotInfo[] = [];
  for (const n of names) {
    const dir = path.join(root, n);
    const damaged = snapshotDamage(stagedPaths(dir)) ?? undefined;
    let read: unknown;
    try {
      read = JSON.parse(fs.readFileSync(path.join(dir, 'snapshot.json'), 'utf8'));
    } catch {
      read = undefined;
    }
    // a snapshot.json that does not hold what a snapshot writes is told by the folder's name
    let info = infoFromName(dir, n);
    if (snapshotInfoProblem(read) === null) {
      const { kind, takenAt, cards, rows, bytes } = read as SnapshotInfo;
      info = { name: n, kind, takenAt, cards, rows, bytes };
    }
    out.push(damaged ? { ...info, damaged } : info);
  }
  return out.sort((a, b) => (a.takenAt < b.takenAt ? 1 : a.takenAt > b.takenAt ? -1 : 0));
}

/**
 * The staged-home paths of snapshot `name`, to restore from.
 * @throws 404 NO_SNAPSHOT when there is none, 422 SNAPSHOT_DAMAGED when its files are damaged.
 */
export function snapshotPaths(home: string, name: string): StagedPaths {
  const dir = path.join(backupsDir(home), name);
  if (!NAME_RE.test(name) || !fs.existsSync(dir)) {
    throw notFound(`no snapshot named "${name}"`, 'NO_SNAPSHOT');
  }
  const p = stagedPaths(dir);
  assertSnapshotWhole(name, p);
  return p;
}

/** ISO week key (`2026-W17`) of a calendar date `YYYY-MM-DD`. */
function isoWeek(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  const day = (d.getUTCDay() + 6) % 7;
  d.setUTCDate(d.getUTCDate() - day + 3);
  const jan4 = new Date(Date.UTC(d.getUTCFullYear(), 0, 4));
  const week =
    1 + Math.round(((d.getTime() - jan4.getTime()) / 86_400_000 - 3 + ((jan4.getUTCDay() + 6) % 7)) / 7);
  return `${d.getUTCFullYear()}-W${String(week).padStart(2, '0')}`;
}

/** The calendar day of a snapshot's `takenAt` (an ISO instant) in `timeZone`. */
function dayTaken(s: SnapshotInfo, timeZone: string | undefined): string {
  const t = Date.parse(s.takenAt);
  return Number.isNaN(t) ? s.takenAt.slice(0, 10) : todayIn(timeZone, new Date(t));
}

/**
 * The names retention would remove: daily snapshots beyond the newest of each of the last
 * `daily` days and of each of the last `weekly` weeks; pre-import ones beyond the newest few.
 * Manual snapshots are the person's to remove. Days and weeks are the person's, in `timeZone`
 * (undefined: the server's): by UTC days, a Los Angeles evening's snapshot and the next
 * morning's would be one day, and the evening's would go.
 */
export function snapshotsToPrune(all: SnapshotInfo[], keep: Retention, timeZone?: string): string[] {
  const keepNames = new Set<string>();
  const days = new Set<string>();
  const weeks = new Set<string>();
  const dailies = all.filter((s) => s.kind === 'daily');
  const dayOf = new Map(dailies.map((s) => [s.name, dayTaken(s, timeZone)]));
  for (const s of dailies) {
    const day = dayOf.get(s.name) ?? '';
    if (!days.has(day) && days.size < keep.daily) {
      days.add(day);
      keepNames.add(s.name);
    }
  }
  for (const s of dailies) {
    const w = isoWeek(dayOf.get(s.name) ?? '');
    if (!weeks.has(w) && weeks.size < keep.weekly) {
      weeks.add(w);
      keepNames.add(s.name);
    }
  }
  const pre = all.filter((s) => s.kind === 'pre-import').slice(0, BACKUP_PRE_IMPORT_KEEP);
  for (const s of pre) keepNames.add(s.name);
  return all.filter((s) => s.kind !== 'manual' && !keepNames.has(s.name)).map((s) => s.name);
}

/** What a prune did: the snapshots removed, and those it could not remove with the system's reason. */
export interface PruneResult {
  removed: string[];
  notRemoved: { name: string; reason: string }[];
}

/**
 * Removes what retention says (days in `timeZone`, see snapshotsToPrune). Never throws: a
 * snapshot that cannot be removed (another user's files, a mount inside it, a busy network
 * share) is left and named in `notRemoved`, the others go. Pruning is housekeeping after a
 * snapshot, an import or a restore that has already succeeded, and must not report that as failed.
 */
export function pruneSnapshots(home: string, keep: Retention, timeZone?: string): PruneResult {
  const out: PruneResult = { removed: [], notRemoved: [] };
  for (const name of snapshotsToPrune(listSnapshots(home), keep, timeZone)) {
    try {
      fs.rmSync(path.join(backupsDir(home), name), { recursive: true, force: true });
      out.removed.push(name);
    } catch (err) {
      out.notRemoved.push({ name, reason: (err as NodeJS.ErrnoException).code ?? (err as Error).message });
    }
  }
  return out;
}

/** Whether a daily snapshot is due: none taken in the last 24 hours. */
export function dailyDue(home: string, now = new Date()): boolean {
  const last = listSnapshots(home).find((s) => s.kind === 'daily');
  return !last || now.getTime() - Date.parse(last.takenAt) >= 24 * 3600_000 - 60_000;
}

/**
 * Putting a staged home (an unpacked archive or a snapshot) into place. The selection replaces,
 * it never merges: each section chosen (cards, samples, conversations, reports) is emptied in the
 * home and filled from the staged one; a section not chosen is left as it is. Two steps:
 *
 * 1. applyDatabase: one SQLite transaction (all of it or none of it, even on a power cut) that
 *    swaps the rows and records an `import`, `restore` or `rollback` change per card plus a marker change
 *    (card `_import`, path = the job id), which is how start-up recovery knows the step committed;
 * 2. applyFiles: makes the manifest, report and meta files equal to the staged ones; it can run
 *    again after a crash and ends in the same state (idempotent).
 *
 * Card data versions restart from fresh change ids and timestamps are the import's, so a page
 * holding an old ETag can never write over imported rows by mistake.
 */
import fs from 'node:fs';
import path from 'node:path';
import { isManifestFileName } from '../cards/manifest-file.js';
import { fsyncDir, writeFileAtomic } from '../home/atomic-write.js';
import { ChangeLog } from '../store/change-log.js';
import type { Db } from '../store/database.js';
import { plainFiles } from './export-files.js';
import type { StagedPaths } from './staged-home.js';

/** What to take from the staged home. `cards: 'all'` takes every card; [] leaves the cards alone. */
export interface Selection {
  cards: string[] | 'all';
  samples: boolean;
  conversations: boolean;
  reports: boolean;
}

/** Everything. */
export const SELECT_ALL: Selection = { cards: 'all', samples: true, conversations: true, reports: true };

/** Whether a selection replaces the card files (all of them, or some). */
export function takesCards(sel: Selection): boolean {
  return sel.cards === 'all' || sel.cards.length > 0;
}

/** The card id of the marker change that says an apply committed (no card can have it). */
export const IMPORT_MARKER_CARD = '_import';

/** Whether the database step of job `jobId` committed. */
export function isApplied(db: Db, jobId: string): boolean {
  return (
    db
      .prepare("SELECT 1 FROM changes WHERE card_id = ? AND op = 'import' AND path = ?")
      .get(IMPORT_MARKER_CARD, jobId) !== undefined
  );
}

function columns(db: Db, schema: string, table: string): string[] {
  return (db.prepare(`PRAGMA ${schema}.table_info(${table})`).all() as { name: string }[]).map((c) => c.name);
}

/** Copies a whole table from `staged` (columns both sides have). */
function copyTable(db: Db, table: string): void {
  const theirs = new Set(columns(db, 'staged', table));
  const cols = columns(db, 'main', table).filter((c) => theirs.has(c));
  db.exec(`DELETE FROM main.${table}`);
  db.exec(`INSERT INTO main.${table} (${cols.join(',')}) SELECT ${cols.join(',')} FROM staged.${table}`);
}

/** The card ids the selection takes, from the staged home (cards with a manifest there). */
export function selectedCards(staged: StagedPaths, sel: Selection): string[] {
  const all = plainFiles(staged.cards, (n) => n.endsWith('.json')).map((n) => n.slice(0, -5));
  if (sel.cards === 'all') return all;
  const want = new Set(sel.cards);
  return all.filter((id) => want.has(id));
}

/**
 * Which rows of the cards taken the phone wrote (`hae_card_rows`), as the snapshot or archive
 * recorded them with those rows. The home's own record names the rows the phone wrote before the
 * restore or import: kept, the next push would find none of them among the rows put in place,
 * take the phone row of a day for one entered by hand and, on a card keeping several readings a
 * day, add its own beside it (a day's reading counted twice). An archive of an older build carries
 * no such record: the record starts empty and the push matches the phone's rows by content.
 */
function restorePhoneRows(db: Db): void {
  db.exec(`DELETE FROM main.hae_card_rows;
    INSERT INTO main.hae_card_rows (card_id, date, body)
    SELECT card_id, date, body FROM staged.hae_card_rows WHERE card_id IN (SELECT id FROM temp.import_ids)`);
}

/**
 * With the samples and pushes of the staged home: the notes of the stored samples its pushes
 * restated (`hae_restated`, keyed by push), which an undo of such a push's change set puts the
 * samples back from, and the metrics its migrations listed for recomputing (`hae_recompute`: a
 * snapshot of an older Klebb read through this version's migrations). Without the notes, History's
 * Undo of an Apple Health import after a restore put the cards' rows back but left the samples
 * restated; without the list, the cards of an older snapshot kept rows made by the older rules.
 * The notes come only for pushes whose change set is the one of this home's History (same id,
 * time and actor in both logs): an archive's, or a fresh home's log, numbers its change sets
 * afresh, and notes kept there would let the undo of an unrelated change put samples back. The
 * pushes themselves are copied as the archive has them, so an import reads back byte for byte.
 */
function restoreSampleNotes(db: Db): void {
  db.exec('DELETE FROM main.hae_restated');
  const theirs = new Set(columns(db, 'staged', 'hae_restated'));
  const cols = columns(db, 'main', 'hae_restated').filter((c) => theirs.has(c));
  if (cols.length > 0)
    db.exec(`INSERT INTO main.hae_restated (${cols.join(',')}) SELECT ${cols.join(',')} FROM staged.hae_restated
      WHERE push_id IN (SELECT p.id FROM main.hae_pushes p JOIN main.change_sets m ON m.id = p.change_set
        JOIN staged.change_sets s ON s.id = m.id AND s.ts = m.ts AND s.actor = m.actor)`);
  db.exec('INSERT OR IGNORE INTO main.hae_recompute (metric) SELECT metric FROM staged.hae_recompute');
}

/** What puts a staged home into place: an archive's import, a snapshot's restore, a roll back. */
export type ApplyKind = 'import' | 'restore' | 'rollback';

/**
 * Step 1: swaps the selected sections' rows in one transaction and records the marker. Each card
 * replaced is one change of op `kind`, so History says "Restored …" or "Rolled back …" rather
 * than "Imported …" for all three (the records' actor is `kind` too, for a caller without a
 * change scope such as the command line). `log` is the running server's change log, so that the
 * card files the job then puts in place are recorded in the same change set.
 * @throws the SQLite error; then nothing changed.
 */
export function applyDatabase(
  db: Db,
  staged: StagedPaths,
  sel: Selection,
  jobId: string,
  kind: ApplyKind = 'import',
  log: ChangeLog = new ChangeLog(db),
): void {
  const actor = kind;
  const ids = selectedCards(staged, sel);
  const takeCards = takesCards(sel);
  db.prepare('ATTACH DATABASE ? AS staged').run(staged.db);
  try {
    db.transaction(() => {
      const now = new Date().toISOString();
      if (takeCards) {
        db.exec('DELETE FROM main.card_rows; DELETE FROM main.card_state;');
        db.exec('CREATE TEMP TABLE IF NOT EXISTS import_ids (id TEXT PRIMARY KEY)');
        db.exec('DELETE FROM temp.import_ids');
        const addId = db.prepare('INSERT INTO temp.import_ids (id) VALUES (?)');
        for (const id of ids) addId.run(id);
        db.prepare(
          `INSERT INTO main.card_state (card_id, shape, doc, row_count, version, updated_at)
           SELECT card_id, shape, doc, row_count, 0, ? FROM staged.card_state WHERE card_id IN (SELECT id FROM temp.import_ids)`,
        ).run(now);
        db.exec(
          `INSERT INTO main.card_rows (card_id, pos, body)
           SELECT card_id, pos, body FROM staged.card_rows WHERE card_id IN (SELECT id FROM temp.import_ids) ORDER BY card_id, pos`,
        );
        const setVersion = db.prepare('UPDATE main.card_state SET version = ? WHERE card_id = ?');
        for (const id of ids) setVersion.run(log.record(id, actor, kind, jobId), id);
        restorePhoneRows(db);
        db.exec('DROP TABLE temp.import_ids');
      }
      if (sel.samples) {
        db.exec('DELETE FROM main.hae_block_memo');
        for (const t of ['hae_samples', 'hae_pushes', 'hae_metrics_seen']) copyTable(db, t);
        restoreSampleNotes(db);
      }
      if (sel.conversations) {
        db.exec('DELETE FROM main.conversation_messages');
        copyTable(db, 'conversations');
        copyTable(db, 'conversation_messages');
      }
      log.record(IMPORT_MARKER_CARD, actor, 'import', jobId);
    })();
  } finally {
    db.exec('DETACH DATABASE staged');
  }
}

/** Where the home's files are. */
export interface HomeDirs {
  dataDir: string;
  reportsDir: string;
  metaDir: string;
}

/** Makes the plain files of `dir` exactly `from`'s (copies what differs, removes the rest). */
function mirrorFiles(from: string, dir: string): void {
  fs.mkdirSync(dir, { recursive: true });
  const want = new Set(plainFiles(from));
  for (const n of plainFiles(dir)) if (!want.has(n)) fs.rmSync(path.join(dir, n), { force: true });
  for (const n of want) {
    const bytes = fs.readFileSync(path.join(from, n));
    const target = path.join(dir, n);
    const cur = fs.existsSync(target) ? fs.readFileSync(target) : undefined;
    if (!cur?.equals(bytes)) writeFileAtomic(target, bytes, 0o600);
  }
  fsyncDir(dir);
}

/** Which manifest files step 2 removed and wrote (absolute paths), for the live loader. */
export interface FilesResult {
  removed: string[];
  written: string[];
}

/** Step 2: makes the home's files equal to the staged ones for the selected sections. Idempotent. */
export function applyFiles(home: HomeDirs, staged: StagedPaths, sel: Selection): FilesResult {
  const result: FilesResult = { removed: [], written: [] };
  const takeCards = takesCards(sel);
  if (takeCards) {
    const ids = new Set(selectedCards(staged, sel));
    fs.mkdirSync(home.dataDir, { recursive: true });
    for (const d of fs.readdirSync(home.dataDir, { withFileTypes: true })) {
      if (d.isDirectory() || !isManifestFileName(d.name)) continue;
      if (!ids.has(d.name.slice(0, -5))) {
        fs.rmSync(path.join(home.dataDir, d.name), { force: true });
        result.removed.push(path.join(home.dataDir, d.name));
      }
    }
    for (const id of ids) {
      const bytes = fs.readFileSync(path.join(staged.cards, `${id}.json`));
      const target = path.join(home.dataDir, `${id}.json`);
      const cur = fs.existsSync(target) ? fs.readFileSync(target) : undefined;
      if (!cur?.equals(bytes)) writeFileAtomic(target, bytes, 0o600);
      result.written.push(target);
    }
    fsyncDir(home.dataDir);
    mirrorFiles(staged.meta, home.metaDir);
  }
  if (sel.reports) mirrorFiles(staged.reports, home.reportsDir);
  return result;
}

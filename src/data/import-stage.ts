/**
 * Unpacks a checked archive into a staged home (src/data/staged-home.ts), verifying as it goes:
 * each file's size and sha256 against the inventory, each line file's row count, each row valid
 * JSON with every number one JavaScript keeps as written (and each table row made of that table's
 * columns only), each manifest a JSON object whose
 * `meta.id` is its card. The home itself is not touched: a refusal leaves only the staging
 * folder, which the caller removes. Memory stays flat: rows go to the staged database in
 * batches as they stream.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { Transform } from 'node:stream';
import { jsonShapeProblem } from '../common/json-guard.js';
import { jsonNumberProblem } from '../common/json-text.js';
import { type ErrorCode, invalid, KlebbError } from '../errors.js';
import { IMPORT_MAX_LINE_BYTES } from '../limits.js';
import { MIGRATION_STEPS } from '../migration-steps.js';
import type { ReminderChoices } from '../push/reminder-choices.js';
import { type Db, openDatabase } from '../store/database.js';
import { storageFault } from '../store/storage-faults.js';
import { TABLE_FILES } from './export-format.js';
import type { CheckedManifest } from './import-manifest.js';
import { LineTooLongError, splitLines } from './line-splitter.js';
import { writeStagedChoices } from './reminder-settings.js';
import { type StagedPaths, stagedPaths } from './staged-home.js';
import { EXPORTED_TABLES, type TableKey, tableColumns } from './table-lines.js';
import type { SafeZip } from './zip-reader.js';

/** Rows inserted per transaction of the staged database. */
const BATCH_ROWS = 20_000;

const bad = (code: ErrorCode, message: string) => invalid(message, undefined, code);

/** A Transform that hashes and counts what passes through. */
function hasher() {
  const hash = createHash('sha256');
  let bytes = 0;
  const t = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      hash.update(chunk);
      bytes += chunk.length;
      cb(null, chunk);
    },
  });
  return { t, result: () => ({ bytes, sha256: hash.digest('hex') }) };
}

function parseRow(line: string, where: string): unknown {
  let v: unknown;
  try {
    v = JSON.parse(line);
  } catch (err) {
    throw bad('IMPORT_BAD_ROW', `${where} is not valid JSON: ${(err as Error).message}`);
  }
  const p = jsonShapeProblem(v);
  if (p) throw bad('IMPORT_BAD_ROW', `${where}: ${p.path} ${p.message}`);
  // a number JavaScript does not keep as written (1e999 read back as null, 1e-400 as 0, a
  // 17-digit integer rounded) would be imported as text and lost at every read
  const n = jsonNumberProblem(line);
  if (n) throw bad('IMPORT_BAD_ROW', `${where}: ${n.path} ${n.message}`);
  return v;
}

/** Batches inserts into transactions of BATCH_ROWS. */
class Batcher {
  private n = 0;
  constructor(private readonly db: Db) {
    db.exec('BEGIN');
  }
  tick(): void {
    if (++this.n % BATCH_ROWS === 0) {
      this.db.exec('COMMIT');
      this.db.exec('BEGIN');
    }
  }
  end(): void {
    this.db.exec('COMMIT');
  }
}

function tableInserter(db: Db, key: TableKey, file: string) {
  const { table } = EXPORTED_TABLES[key];
  const { names, blobs } = tableColumns(db, table);
  const stmt = db.prepare(
    `INSERT INTO ${table} (${names.join(',')}) VALUES (${names.map(() => '?').join(',')})`,
  );
  const allowed = new Set(names);
  return (v: unknown, line: number) => {
    const where = `${file} line ${line}`;
    if (!v || typeof v !== 'object' || Array.isArray(v))
      throw bad('IMPORT_BAD_ROW', `${where} is not a JSON object`);
    const row = v as Record<string, unknown>;
    for (const k of Object.keys(row)) {
      if (!allowed.has(k))
        throw bad('IMPORT_BAD_ROW', `${where} has a field "${k}" that ${table} does not have`);
    }
    const values = names.map((n) => {
      const x = row[n];
      if (blobs.has(n)) {
        if (typeof x !== 'string' || !/^([0-9a-f]{2})*$/.test(x))
          throw bad('IMPORT_BAD_ROW', `${where}: ${n} must be hex`);
        return Buffer.from(x, 'hex');
      }
      if (x !== null && x !== undefined && typeof x === 'object')
        throw bad('IMPORT_BAD_ROW', `${where}: ${n} must be a plain value`);
      return x === undefined ? null : typeof x === 'boolean' ? Number(x) : x;
    });
    try {
      stmt.run(...values);
    } catch (err) {
      // a full disk or a locked database is no fault of the row
      if (storageFault(err)) throw err;
      throw bad('IMPORT_BAD_ROW', `${where} does not fit ${table}: ${(err as Error).message}`);
    }
  };
}

/** What the staging found, for the preview. */
export interface StageSummary {
  cards: { id: string; label: string; emoji?: string; rows: number; data: 'rows' | 'value' | 'none' }[];
  samples: CheckedManifest['inventory']['samples'];
  conversations: CheckedManifest['inventory']['conversations'];
  reports: number;
}

/**
 * Unpacks and verifies every file of `zip` into a new staged home at `dir` (must not exist).
 * @throws 422 IMPORT_CHECKSUM (size or sha256 differs), IMPORT_ROW_COUNT, IMPORT_BAD_ROW,
 *   IMPORT_BAD_CARD, or a zip read error (ZIP_CORRUPT: CRC or size check failed); a fault of
 *   the server's (a full disk, a database error) as what it is (see stagingFault).
 */
export async function stageArchive(
  zip: SafeZip,
  manifest: CheckedManifest,
  dir: string,
): Promise<StageSummary> {
  const p = stagedPaths(dir);
  fs.mkdirSync(dir, { recursive: false });
  for (const d of [p.cards, p.reports, p.meta]) fs.mkdirSync(d);
  const db = openDatabase(p.db, { synchronous: 'NORMAL', steps: MIGRATION_STEPS });
  db.pragma('synchronous = OFF');
  try {
    const summary: StageSummary = {
      cards: [],
      samples: manifest.inventory.samples,
      conversations: manifest.inventory.conversations,
      reports: manifest.inventory.reports.length,
    };
    const byFile = new Map(manifest.inventory.files.map((f) => [f.file, f]));
    const now = new Date().toISOString();
    for (const f of manifest.inventory.files) {
      const entry = zip.entries.get(f.file);
      if (!entry) throw bad('IMPORT_INVENTORY_MISMATCH', `${f.file} is missing`);
      const rs = await zip.open(entry).catch((err: unknown) => {
        throw stagingFault(err, err, f.file);
      });
      const h = hasher();
      // what the archive's own stream reports is the archive's fault; anything else is not
      let archiveFault: unknown;
      rs.on('error', (err) => {
        archiveFault = err;
        h.t.destroy(err);
      });
      rs.pipe(h.t);
      try {
        await stageFile(db, p, manifest, f.file, h.t, now, summary);
      } catch (err) {
        throw stagingFault(err, archiveFault, f.file);
      }
      const got = h.result();
      if (got.bytes !== f.bytes || got.sha256 !== f.sha256) {
        throw bad(
          'IMPORT_CHECKSUM',
          `${f.file} does not match its checksum in the inventory: the archive is damaged or was changed`,
        );
      }
    }
    for (const c of manifest.inventory.cards) {
      if (c.data === 'none') {
        db.prepare(
          "INSERT INTO card_state (card_id, shape, doc, row_count, version, updated_at) VALUES (?, 'none', NULL, 0, 0, ?)",
        ).run(c.id, now);
      }
      const lineCount = c.dataFile ? byFile.get(c.dataFile)?.rows : undefined;
      if (c.data === 'rows' && lineCount !== c.rows) {
        throw bad(
          'IMPORT_ROW_COUNT',
          `card ${c.id}: the inventory says ${c.rows} rows, its file lists ${String(lineCount)}`,
        );
      }
    }
    const reminders = manifest.settings?.reminders as ReminderChoices | undefined;
    if (reminders) writeStagedChoices(p, reminders);
    return summary;
  } finally {
    db.close();
  }
}

/**
 * What a failure while staging `file` is reported as. Only a fault the archive's own stream
 * reported (a CRC or size check, a truncated or undecodable entry) is 422 ZIP_CORRUPT, and a line
 * past the limit 422 IMPORT_BAD_ROW: both are the file's. A refusal already worded passes on; a
 * storage condition (a full disk, a database locked past its timeout, a refused write) becomes its
 * catalogued answer (507 DISK_FULL, 503 STORAGE_BUSY, 503 NOT_SAVED); a system error (ENOSPC, EIO)
 * or any other fault of the server (a database error) passes on as it is, to be answered as
 * what it is (500 INTERNAL), never as a damaged archive the person would export again for nothing.
 */
function stagingFault(err: unknown, archiveFault: unknown, file: string): unknown {
  if (err instanceof KlebbError) return err;
  const storage = storageFault(err);
  if (storage) return storage;
  const e = err as NodeJS.ErrnoException;
  if (typeof e?.code === 'string' && /^E[A-Z]+$/.test(e.code)) return err;
  if (err instanceof LineTooLongError) return bad('IMPORT_BAD_ROW', `${file}: ${err.message}`);
  if (archiveFault !== undefined) {
    const why = archiveFault instanceof Error ? archiveFault.message : String(archiveFault);
    return bad('ZIP_CORRUPT', `${file} cannot be read from the archive: ${why}`);
  }
  return err;
}

async function readSmall(src: AsyncIterable<Buffer>, max: number, name: string): Promise<Buffer> {
  const parts: Buffer[] = [];
  let n = 0;
  for await (const c of src) {
    n += c.length;
    if (n > max) throw bad('IMPORT_BAD_CARD', `${name} is larger than ${max} bytes`);
    parts.push(c);
  }
  return Buffer.concat(parts);
}

async function stageFile(
  db: Db,
  p: StagedPaths,
  manifest: CheckedManifest,
  name: string,
  src: Transform,
  now: string,
  summary: StageSummary,
): Promise<void> {
  const inv = manifest.inventory;
  const listed = inv.files.find((f) => f.file === name);
  const card = inv.cards.find((c) => c.file === name || c.dataFile === name);
  const table = (Object.keys(TABLE_FILES) as TableKey[]).find((k) => TABLE_FILES[k] === name);
  if (card && name === card.file) {
    const bytes = await readSmall(src, IMPORT_MAX_LINE_BYTES, name);
    const parsed = parseRow(bytes.toString('utf8'), name) as {
      meta?: { id?: unknown; label?: unknown; emoji?: unknown };
    };
    if (!parsed || typeof parsed !== 'object' || parsed.meta?.id !== card.id) {
      throw bad('IMPORT_BAD_CARD', `${name} is not the manifest of card ${card.id} (its meta.id differs)`);
    }
    fs.writeFileSync(`${p.cards}/${card.id}.json`, bytes);
    summary.cards.push({
      id: card.id,
      label: typeof parsed.meta.label === 'string' ? parsed.meta.label : card.id,
      ...(typeof parsed.meta.emoji === 'string' ? { emoji: parsed.meta.emoji } : {}),
      rows: card.rows,
      data: card.data,
    });
    return;
  }
  if (card && card.data === 'value') {
    const text = (await readSmall(src, IMPORT_MAX_LINE_BYTES, name)).toString('utf8').replace(/\n$/, '');
    const v = parseRow(text, name);
    db.prepare(
      "INSERT INTO card_state (card_id, shape, doc, row_count, version, updated_at) VALUES (?, 'value', ?, ?, 0, ?)",
    ).run(card.id, text, v === null ? 0 : 1, now);
    return;
  }
  if (!card && !table) {
    // a report or a meta file: copied as it is (no transaction: one left open would make the
    // next file's BEGIN fail, and the closing of the database roll back what came after it)
    const target = name.startsWith('reports/') ? p.reports : p.meta;
    const out = fs.createWriteStream(`${target}/${name.slice(name.indexOf('/') + 1)}`, { flags: 'wx' });
    for await (const c of src)
      if (!out.write(c)) await new Promise<void>((r) => out.once('drain', () => r()));
    await new Promise<void>((res, rej) => out.end((err?: Error | null) => (err ? rej(err) : res())));
    return;
  }
  let lineNo = 0;
  const lines = splitLines(src, IMPORT_MAX_LINE_BYTES);
  const batch = new Batcher(db);
  try {
    if (card) {
      const ins = db.prepare('INSERT INTO card_rows (card_id, pos, body) VALUES (?,?,?)');
      for await (const batchLines of lines) {
        for (const line of batchLines) {
          parseRow(line, `${name} line ${lineNo + 1}`);
          ins.run(card.id, lineNo++, line);
          batch.tick();
        }
      }
      db.prepare(
        "INSERT INTO card_state (card_id, shape, doc, row_count, version, updated_at) VALUES (?, 'array', NULL, ?, 0, ?)",
      ).run(card.id, lineNo, now);
    } else if (table) {
      const insert = tableInserter(db, table, name);
      for await (const batchLines of lines) {
        for (const line of batchLines) {
          lineNo++;
          insert(parseRow(line, `${name} line ${lineNo}`), lineNo);
          batch.tick();
        }
      }
    }
  } catch (err) {
    try {
      db.exec('ROLLBACK');
    } catch {
      // no transaction open
    }
    throw err;
  }
  batch.end();
  if (listed?.rows !== undefined && listed.rows !== lineNo) {
    throw bad('IMPORT_ROW_COUNT', `${name}: the inventory says ${listed.rows} lines, the file has ${lineNo}`);
  }
}

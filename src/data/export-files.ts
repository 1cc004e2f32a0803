/**
 * What an export holds, as a list of files each produced lazily from a consistent database
 * snapshot and the manifest/report files: card manifests verbatim, card rows as JSON lines, the
 * samples and conversation tables, reports and the `data/_meta` files. Never exported: passkeys,
 * sessions, tokens, the HAE token, the change log, the browser's settings, work folders.
 * The same home always gives the same bytes (rows in key order), so a re-export of an import
 * carries the same checksums.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Db } from '../store/database.js';
import {
  type CardDataKind,
  cardDataFileName,
  cardFileName,
  type ExportManifest,
  type InventoryCard,
  TABLE_FILES,
} from './export-format.js';
import { type TableKey, tableCount, tableLines } from './table-lines.js';

/** One file of the archive; `pieces()` may be called more than once (each call reads afresh). */
export interface ExportFile {
  name: string;
  /** Line count for line files (rows), else undefined. */
  rows?: number;
  pieces: () => Iterable<string | Buffer>;
}

/** A card to export: its id and the path of its manifest file. */
export interface CardSource {
  id: string;
  file: string;
}

/** Reads a file in chunks (synchronously, so it fits the lazy iterables). */
export function* fileChunks(file: string, chunk = 256 * 1024): Generator<Buffer> {
  const fd = fs.openSync(file, 'r');
  try {
    for (;;) {
      const buf = Buffer.allocUnsafe(chunk);
      const n = fs.readSync(fd, buf, 0, chunk, null);
      if (n === 0) return;
      yield n === chunk ? buf : buf.subarray(0, n);
    }
  } finally {
    fs.closeSync(fd);
  }
}

function* withNewlines(lines: Iterable<string>): Generator<string> {
  for (const l of lines) yield `${l}\n`;
}

/** Regular files (not links, not dot-files) directly in `dir`, sorted; [] when it is missing. */
export function plainFiles(dir: string, keep: (name: string) => boolean = () => true): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .filter((n) => !n.startsWith('.') && !n.endsWith('.tmp') && keep(n))
    .filter((n) => fs.lstatSync(path.join(dir, n)).isFile())
    .sort();
}

interface StateRow {
  shape: 'array' | 'value' | 'none';
  doc: string | null;
  row_count: number;
}

/** The card part of the inventory and its files. */
function cardFiles(db: Db, cards: CardSource[]): { inventory: InventoryCard[]; files: ExportFile[] } {
  const stateOf = db.prepare('SELECT shape, doc, row_count FROM card_state WHERE card_id = ?');
  const rowsOf = db.prepare('SELECT body FROM card_rows WHERE card_id = ? ORDER BY pos').pluck();
  const inventory: InventoryCard[] = [];
  const files: ExportFile[] = [];
  for (const c of [...cards].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))) {
    const bytes = fs.readFileSync(c.file);
    const st = stateOf.get(c.id) as StateRow | undefined;
    const kind: CardDataKind = !st || st.shape === 'none' ? 'none' : st.shape === 'array' ? 'rows' : 'value';
    const entry: InventoryCard = { id: c.id, file: cardFileName(c.id), data: kind, rows: 0 };
    files.push({ name: entry.file, pieces: () => [bytes] });
    if (kind === 'rows' && st) {
      entry.dataFile = cardDataFileName(c.id, 'rows');
      entry.rows = st.row_count;
      files.push({
        name: entry.dataFile,
        rows: st.row_count,
        pieces: () => withNewlines(rowsOf.iterate(c.id) as Iterable<string>),
      });
    } else if (kind === 'value' && st) {
      entry.dataFile = cardDataFileName(c.id, 'value');
      const doc = st.doc ?? 'null';
      entry.rows = doc === 'null' ? 0 : 1;
      files.push({ name: entry.dataFile, pieces: () => [`${doc}\n`] });
    }
    inventory.push(entry);
  }
  return { inventory, files };
}

/** Where the non-database files of a home are. */
export interface FileDirs {
  reportsDir: string;
  metaDir: string;
}

/**
 * The files of an export (everything but the manifest) and the inventory without `files`
 * (the writer fills that in as it streams).
 * @param db a snapshot of the database, not the live handle (a consistent view for the whole export).
 */
export function exportFiles(
  db: Db,
  cards: CardSource[],
  dirs: FileDirs,
): { files: ExportFile[]; inventory: Omit<ExportManifest['inventory'], 'files'> } {
  const c = cardFiles(db, cards);
  const files = [...c.files];
  const count = (k: TableKey) => tableCount(db, k);
  for (const key of Object.keys(TABLE_FILES) as TableKey[]) {
    files.push({ name: TABLE_FILES[key], rows: count(key), pieces: () => withNewlines(tableLines(db, key)) });
  }
  const reports = plainFiles(dirs.reportsDir);
  for (const n of reports) {
    files.push({ name: `reports/${n}`, pieces: () => fileChunks(path.join(dirs.reportsDir, n)) });
  }
  const meta = plainFiles(dirs.metaDir);
  for (const n of meta)
    files.push({ name: `meta/${n}`, pieces: () => fileChunks(path.join(dirs.metaDir, n)) });
  return {
    files,
    inventory: {
      cards: c.inventory,
      samples: { pushes: count('pushes'), samples: count('samples'), metrics: count('metrics') },
      conversations: { conversations: count('conversations'), messages: count('messages') },
      reports: reports.map((n) => `reports/${n}`),
      meta: meta.map((n) => `meta/${n}`),
    },
  };
}

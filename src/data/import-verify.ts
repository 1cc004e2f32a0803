/**
 * After an import: the home, exported again, must give the archive's bytes for everything that
 * was selected (same sha256 per file). This re-reads every row the import wrote, without
 * writing anything.
 */
import path from 'node:path';
import type { Db } from '../store/database.js';
import { exportFiles } from './export-files.js';
import { figuresOf } from './hashing-stream.js';
import type { HomeDirs, Selection } from './import-apply.js';
import type { CheckedManifest } from './import-manifest.js';

/** The files of the archive the selection covers. */
function coveredFiles(m: CheckedManifest, sel: Selection): Set<string> {
  const inv = m.inventory;
  const out = new Set<string>();
  const cards =
    sel.cards === 'all' ? inv.cards : inv.cards.filter((c) => (sel.cards as string[]).includes(c.id));
  for (const c of cards) {
    out.add(c.file);
    if (c.dataFile) out.add(c.dataFile);
  }
  if (cards.length > 0) for (const f of inv.meta) out.add(f);
  if (sel.samples)
    for (const f of ['samples/pushes.jsonl', 'samples/samples.jsonl', 'samples/metrics-seen.jsonl'])
      out.add(f);
  if (sel.conversations)
    for (const f of ['conversations/conversations.jsonl', 'conversations/messages.jsonl']) out.add(f);
  if (sel.reports) for (const f of inv.reports) out.add(f);
  return out;
}

/**
 * Compares the home with the archive's inventory.
 * @returns one line per problem (a file whose bytes differ, or that is missing); [] when equal.
 */
export function verifyImport(db: Db, home: HomeDirs, m: CheckedManifest, sel: Selection): string[] {
  const covered = coveredFiles(m, sel);
  const ids = m.inventory.cards.filter((c) => covered.has(c.file)).map((c) => c.id);
  const { files } = exportFiles(
    db,
    ids.map((id) => ({ id, file: path.join(home.dataDir, `${id}.json`) })),
    home,
  );
  const mine = new Map(files.map((f) => [f.name, f]));
  const problems: string[] = [];
  for (const f of m.inventory.files) {
    if (!covered.has(f.file)) continue;
    const got = mine.get(f.file);
    if (!got) {
      problems.push(`${f.file}: missing after the import`);
      continue;
    }
    let fig: { bytes: number; sha256: string };
    try {
      fig = figuresOf(got.pieces());
    } catch (err) {
      problems.push(`${f.file}: cannot be read back (${(err as Error).message})`);
      continue;
    }
    if (fig.sha256 !== f.sha256)
      problems.push(`${f.file}: differs from the archive (${fig.bytes} bytes, expected ${f.bytes})`);
  }
  return problems;
}

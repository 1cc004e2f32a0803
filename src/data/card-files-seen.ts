/**
 * Before an import, a restore or a roll back replaces the data folder's card files: every
 * manifest file there is overwritten or removed, and the pre-import snapshot keeps a copy only
 * of the cards the server has loaded. So each file must be one the server last wrote or read as
 * a card. A hand edit the watcher has not delivered yet is read first (it is then in the change
 * log and in the snapshot); a file that does not load (unfinished JSON, a duplicate id), a card
 * file deleted by hand, or a `*.json` file that is no loaded card refuses the whole job with 409,
 * naming the files, and nothing changes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { type CardContext, requireCard } from '../cards/card-context.js';
import { isManifestFileName } from '../cards/manifest-file.js';
import { KlebbError } from '../errors.js';

/** A card file the job would overwrite or remove without a copy. */
export interface UnseenFile {
  file: string;
  /** What is wrong: it does not load, it is gone, or it holds no loaded card. */
  problem: 'does not load' | 'deleted by hand' | 'not a loaded card';
}

/** The manifest files directly in the data folder (absolute paths). */
function manifestFiles(dataDir: string): string[] {
  if (!fs.existsSync(dataDir)) return [];
  return fs
    .readdirSync(dataDir, { withFileTypes: true })
    .filter((d) => !d.isDirectory() && isManifestFileName(d.name))
    .map((d) => path.join(dataDir, d.name));
}

/** The card files of the data folder that are not what the server last wrote or read (see the file comment). */
export function unseenCardFiles(cards: CardContext): UnseenFile[] {
  // a hand edit not picked up yet is read now, as before any write over it
  for (const card of cards.registry.all()) requireCard(cards, card.id);
  const out: UnseenFile[] = [];
  for (const card of cards.registry.all()) {
    if (!fs.existsSync(card.file)) out.push({ file: card.file, problem: 'deleted by hand' });
    else if (cards.loader.hasFailed(card.file)) out.push({ file: card.file, problem: 'does not load' });
  }
  for (const file of manifestFiles(cards.dataDir)) {
    if (cards.registry.byFile(file)) continue;
    out.push({ file, problem: cards.loader.hasFailed(file) ? 'does not load' : 'not a loaded card' });
  }
  return out;
}

/**
 * Refuses a job (`what`: "import", "restore", "roll back") that would replace card files the
 * server has not seen: 409 FILE_INVALID when one does not load, else FILE_MISSING when a card's
 * file was deleted by hand, else FILE_CHANGED; `files` lists them all.
 */
export function assertCardFilesSeen(cards: CardContext, what: string): void {
  const unseen = unseenCardFiles(cards);
  if (unseen.length === 0) return;
  const has = (p: UnseenFile['problem']) => unseen.some((u) => u.problem === p);
  const code = has('does not load')
    ? 'FILE_INVALID'
    : has('deleted by hand')
      ? 'FILE_MISSING'
      : 'FILE_CHANGED';
  const list = unseen.map((u) => `${path.basename(u.file)} (${u.problem})`).join(', ');
  throw new KlebbError(
    409,
    code,
    `the ${what} would replace card files the server has not loaded: ${list}. Fix, finish or move them out of the data folder first; nothing was changed`,
    undefined,
    { files: unseen.map((u) => ({ file: path.basename(u.file), problem: u.problem })) },
  );
}

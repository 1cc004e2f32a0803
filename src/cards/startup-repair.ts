/**
 * Settles writes a crash interrupted, before the data folder is loaded. Every multi-step write
 * has one commit point (src/cards/card-crud.ts, src/home/commit-file.ts); what a crash leaves
 * around it is a dot-file beside the manifest:
 * - `.<name>.<hex>.tmp`: a new manifest not yet in place. Its card creation committed when the
 *   card's newest change is its `create`, recorded after the temp file was written: then the
 *   file is put in place (the card gets the rows it was created with); otherwise it is removed.
 * - `.<name>.<hex>.old`: a manifest set aside while a write checked it or a delete ran. When the
 *   card's newest change is its `delete-card`, recorded after the file was set aside, the delete
 *   committed and the copy goes; otherwise the copy goes back in place (unless a file is there).
 * The same names beside the file a symlinked manifest points to (outside the data folder) are
 * settled too. Nothing else is touched. Each repair is logged.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseLeftover, placeNoReplace, restoreAside } from '../home/commit-file.js';
import type { CardDataStore } from '../store/card-data-store.js';
import { parseManifestLoosely } from './manifest-text.js';

/** Clock slack between a file's time stamp and the change log's, ms. */
const CLOCK_SLACK_MS = 2_000;

/** The card id a manifest file names, or undefined. */
function idIn(file: string): string | undefined {
  try {
    const parsed = parseManifestLoosely(fs.readFileSync(file)) as { meta?: { id?: unknown } } | undefined;
    return typeof parsed?.meta?.id === 'string' ? parsed.meta.id : undefined;
  } catch {
    return undefined;
  }
}

/** Whether the card's newest change is `op`, recorded no earlier than `sinceMs`. */
function committedAfter(store: CardDataStore, id: string | undefined, op: string, sinceMs: number): boolean {
  if (id === undefined) return false;
  const last = store.changes.recent(id, 1)[0];
  return last !== undefined && last.op === op && Date.parse(last.ts) >= sinceMs - CLOCK_SLACK_MS;
}

/** One repair done at start-up, for the log. */
export interface Repair {
  file: string;
  action: 'completed-create' | 'removed-temp' | 'restored' | 'removed-aside';
}

/**
 * Settles every leftover of an interrupted write in `dataDir` (see the file comment).
 * `.old` copies are settled before `.tmp` files, so a write interrupted between its two steps
 * gets its original back first.
 */
export function repairInterruptedWrites(dataDir: string, store: CardDataStore): Repair[] {
  if (!fs.existsSync(dataDir)) return [];
  const done: Repair[] = [];
  const names = fs.readdirSync(dataDir);
  const leftovers = names
    .map((name) => ({ name, lo: parseLeftover(name) }))
    .filter((x): x is { name: string; lo: NonNullable<ReturnType<typeof parseLeftover>> } => x.lo !== null)
    .sort((a, b) => (a.lo.kind === b.lo.kind ? 0 : a.lo.kind === 'old' ? -1 : 1));
  for (const { name, lo } of leftovers) {
    const file = path.join(dataDir, name);
    const target = path.join(dataDir, lo.target);
    const st = fs.statSync(file, { throwIfNoEntry: false });
    if (!st?.isFile()) continue;
    const targetThere = fs.existsSync(target);
    if (lo.kind === 'old') {
      if (!targetThere && !committedAfter(store, idIn(file), 'delete-card', st.ctimeMs)) {
        restoreAside(file, target);
        done.push({ file: lo.target, action: 'restored' });
      } else {
        fs.rmSync(file, { force: true });
        done.push({ file: lo.target, action: 'removed-aside' });
      }
    } else if (!targetThere && committedAfter(store, idIn(file), 'create', st.mtimeMs)) {
      if (placeNoReplace(file, target)) done.push({ file: lo.target, action: 'completed-create' });
    } else {
      fs.rmSync(file, { force: true });
      done.push({ file: lo.target, action: 'removed-temp' });
    }
  }
  done.push(...repairBesideLinks(dataDir, names));
  return done;
}

/**
 * Settles what an interrupted write left beside the file a symlinked manifest points to (writes
 * go to that file, so their temp and aside copies are made in its folder, outside the data
 * folder): a temp file is removed; an aside copy goes back when the linked file is missing (the
 * link would dangle), else it is removed. Only names made for that very file are touched.
 */
function repairBesideLinks(dataDir: string, names: string[]): Repair[] {
  const done: Repair[] = [];
  for (const name of names) {
    if (name.startsWith('.')) continue;
    const link = path.join(dataDir, name);
    let target: string;
    try {
      if (!fs.lstatSync(link).isSymbolicLink()) continue;
      target = path.resolve(dataDir, fs.readlinkSync(link));
    } catch {
      continue;
    }
    const dir = path.dirname(target);
    if (path.resolve(dir) === path.resolve(dataDir)) continue;
    let siblings: string[];
    try {
      siblings = fs.readdirSync(dir);
    } catch {
      continue;
    }
    for (const sibling of siblings) {
      const lo = parseLeftover(sibling);
      if (!lo || lo.target !== path.basename(target)) continue;
      const file = path.join(dir, sibling);
      if (lo.kind === 'old' && !fs.existsSync(target)) {
        restoreAside(file, target);
        done.push({ file: name, action: 'restored' });
      } else {
        fs.rmSync(file, { force: true });
        done.push({ file: name, action: lo.kind === 'old' ? 'removed-aside' : 'removed-temp' });
      }
    }
  }
  return done;
}

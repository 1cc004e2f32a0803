/**
 * Several card files changed as one step (an undo that touches many cards, a reorder): each file
 * is replaced, created or removed only over the bytes the server last wrote or read of it, never
 * over a hand edit saved since (src/home/commit-file.ts does the compare and swap), and when one
 * of them is refused, the ones already done are put back.
 */
import fs from 'node:fs';
import { writeTemp } from '../home/atomic-write.js';
import {
  type CommitOutcome,
  commitIfUnchanged,
  placeNoReplace,
  removeIfUnchanged,
} from '../home/commit-file.js';
import { contentHash } from './manifest-file.js';

/** One file of a batch. */
export interface FileStep {
  file: string;
  /** sha256 of the bytes the file must hold now; undefined: there must be no file. */
  expectedHash: string | undefined;
  /** The new bytes; undefined: the file is removed. */
  text: string | undefined;
}

interface Done {
  file: string;
  before: Buffer | undefined;
  afterHash: string | undefined;
}

/** Puts `bytes` at `file` unless a file is there. */
function createFile(file: string, bytes: string | Buffer): boolean {
  const tmp = writeTemp(file, bytes);
  if (placeNoReplace(tmp, file)) return true;
  fs.rmSync(tmp, { force: true });
  return false;
}

/** The bytes of `file`, or undefined when there is none. */
function readIfThere(file: string): Buffer | undefined {
  try {
    return fs.readFileSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/** File changes made one by one, each over the bytes it expects, that can be taken back together. */
export class CardFileBatch {
  private readonly done: Done[] = [];

  /**
   * Makes one change. 'committed' when made; otherwise nothing of that file changed: 'changed'
   * when it holds other bytes than expected (or exists where none was expected), 'missing' when
   * it is gone. Removing a file that is already gone is 'missing' too.
   */
  apply(step: FileStep): CommitOutcome {
    const { file, expectedHash, text } = step;
    if (expectedHash === undefined) {
      if (text === undefined) return fs.existsSync(file) ? 'changed' : 'missing';
      if (!createFile(file, text)) return 'changed';
      this.done.push({ file, before: undefined, afterHash: contentHash(text) });
      return 'committed';
    }
    const before = readIfThere(file);
    if (before === undefined) return 'missing';
    if (contentHash(before) !== expectedHash) return 'changed';
    const outcome =
      text === undefined
        ? removeIfUnchanged(file, expectedHash)
        : commitIfUnchanged(writeTemp(file, text), file, expectedHash);
    if (outcome === 'committed') {
      this.done.push({ file, before, afterHash: text === undefined ? undefined : contentHash(text) });
    }
    return outcome;
  }

  /**
   * Puts back every file changed so far, newest first, each only over the bytes this batch put
   * there (a hand edit saved since stays). Never throws: the others are still put back.
   */
  takeBack(): void {
    for (const d of this.done.reverse()) {
      try {
        if (d.afterHash === undefined) createFile(d.file, d.before as Buffer);
        else if (d.before === undefined) removeIfUnchanged(d.file, d.afterHash);
        else commitIfUnchanged(writeTemp(d.file, d.before), d.file, d.afterHash);
      } catch {
        // a file that cannot be put back keeps the batch's bytes; the rest still go back
      }
    }
    this.done.length = 0;
  }
}

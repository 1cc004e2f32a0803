/**
 * The export read out of a zip front to back, by its entries' own headers (zip-walk.ts), when
 * its central directory is missing or does not lead to its entries: an export.zip whose upload,
 * AirDrop or copy stopped part way, or one over 4 GiB zipped by macOS's Finder. The same entry is
 * chosen as from the directory (export-entry.ts); as the entries come one after another, each that
 * may be the export is unpacked as it passes, into a file of its own beside `out`, and the one
 * chosen at the end is kept. What the archive holds up to a cut is read: an export cut in the
 * middle gives its records up to the cut (the reader then says the file was cut short), and a
 * warning says the zip was cut short.
 */
import fs from 'node:fs';
import { PassThrough } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type yauzl from 'yauzl';
import { lazyRequire } from '../../lazy-module.js';
import type { EcgHead } from './ecg-csv.js';
import {
  checkReadable,
  checkTwin,
  corruptEntry,
  exportEntryRank,
  innerZipFits,
  noExport,
  sizeFits,
  unsafeNameError,
  zipError,
} from './export-entry.js';
import { closedFile } from './file-closed.js';
import { ByteLimit } from './gunzip-upload.js';
import { type LocalEntry, walkLocalEntries, type ZipWalk } from './zip-walk.js';

/** The zip reader, for its check of entry names. */
const zipLib = lazyRequire<typeof yauzl>('yauzl');

/** The entry unpacked from a zip. */
export interface UnzippedExport {
  /** Its name in the archive. */
  name: string;
  /** What the person should know about the archive (it was cut short), or null. */
  warning: string | null;
  /** The electrocardiograms recorded beside the export (zip-ecg.ts), when read, and what to say of them. */
  ecg?: { heads: EcgHead[]; warnings: string[] };
}

/** An entry that may be the export, and where it was unpacked to. */
interface Candidate {
  entry: LocalEntry;
  /** 2 export.xml, 1 another XML that may be it, 0 a zip that may hold it. */
  rank: number;
  /** Its unpacked copy, unless it cannot be unpacked (encrypted, another method). */
  copy?: { file: string; counted: ByteLimit; done: Promise<void>; stream: fs.WriteStream };
}

/**
 * Unpacks the export's entry of the zip `file` into `out` by walking the archive (see the module
 * comment); as unzipExport, an archive with one zip where the export could sit gives that zip.
 * @param why why the central directory was not used (yauzl's message), named in a refusal.
 * @throws as unzipExport; 422 ZIP_NOT_A_ZIP when the archive ends, or is damaged, before an entry
 *   that may be the export.
 */
export async function unzipByWalking(
  file: string,
  out: string,
  maxBytes: number,
  nested: boolean,
  why: string,
): Promise<UnzippedExport> {
  const candidates: Candidate[] = [];
  const seen = new Map<string, string>();
  let kept: Candidate | undefined;
  try {
    const walk = await walkLocalEntries(file, (entry) => {
      const name = entry.fileName;
      if (zipLib().validateFileName(name) !== null) throw unsafeNameError(name);
      const rank = exportEntryRank(name);
      if (rank > 0) checkTwin(seen, name);
      else if (!innerZipFits(name)) return undefined;
      // of zips inside only the first is unpacked: with two, which one is the export is not guessed
      const unpack = rank > 0 || !candidates.some((c) => c.rank === 0);
      const candidate: Candidate = { entry, rank };
      candidates.push(candidate);
      const readable = !entry.encrypted && (entry.compressionMethod === 0 || entry.compressionMethod === 8);
      if (!unpack || !readable) return undefined;
      const head = new PassThrough();
      const counted = new ByteLimit(maxBytes);
      const copy = `${out}.part${candidates.length}`;
      const stream = fs.createWriteStream(copy, { flags: 'wx', mode: 0o600 });
      const done = pipeline(head, counted, stream);
      done.catch(() => {});
      candidate.copy = { file: copy, counted, done, stream };
      return head;
    });
    await Promise.all(candidates.map((c) => c.copy?.done));
    kept = choose(candidates, walk, nested, why);
    const { entry, copy } = kept;
    checkReadable(entry.fileName, entry.encrypted, entry.compressionMethod);
    if (!copy) throw new Error(`${entry.fileName} was not unpacked`);
    if (!entry.cut && entry.recordedSize !== undefined && !sizeFits(entry.recordedSize, copy.counted.bytes)) {
      throw corruptEntry(
        entry.fileName,
        `it unpacks to ${copy.counted.bytes} bytes, the zip says ${entry.recordedSize}`,
      );
    }
    fs.renameSync(copy.file, out);
    return { name: entry.fileName, warning: cutWarning(entry, walk) };
  } finally {
    await Promise.allSettled(candidates.map((c) => c.copy?.done));
    await Promise.all(candidates.map((c) => c.copy && closedFile(c.copy.stream)));
    for (const c of candidates) if (c.copy) fs.rmSync(c.copy.file, { force: true });
  }
}

/**
 * The candidate to read: the export's XML (export.xml first, else the largest), else the one zip
 * inside when `nested` allows.
 * @throws 422 NOT_AN_EXPORT for a whole archive without it, ZIP_NOT_A_ZIP for one that ends or is
 *   damaged before it.
 */
function choose(candidates: Candidate[], walk: ZipWalk, nested: boolean, why: string): Candidate {
  const size = (c: Candidate) => c.copy?.counted.bytes ?? 0;
  let best: Candidate | undefined;
  for (const c of candidates) {
    if (c.rank === 0) continue;
    if (!best || c.rank > best.rank || (c.rank === best.rank && size(c) > size(best))) best = c;
  }
  const zips = candidates.filter((c) => c.rank === 0);
  const chosen = best ?? (nested && zips.length === 1 ? zips[0] : undefined);
  if (chosen) return chosen;
  if (walk.end === 'directory')
    throw noExport(
      zips.map((z) => z.entry.fileName),
      nested,
    );
  const where =
    walk.end === 'cut'
      ? 'it is cut short (an upload or copy that stopped), and the part that arrived ends before its export.xml'
      : walk.end === 'damaged'
        ? 'it is damaged, before its export.xml'
        : `its entry ${walk.entries.at(-1)?.fileName} cannot be read past without the archive's directory`;
  throw zipError(
    'ZIP_NOT_A_ZIP',
    `the upload starts like a zip archive but cannot be read as one (${why}): ${where}; export again from the Health app and upload the whole export.zip`,
  );
}

/** The warning for an archive that ended, or was damaged, before its central directory; null when it did not. */
function cutWarning(entry: LocalEntry, walk: ZipWalk): string | null {
  const name = entry.fileName;
  if (walk.end === 'directory') return null;
  if (entry.cut && walk.end === 'damaged') {
    return `the zip is damaged inside ${name} (its data stops making sense part way, as a copy or download gone wrong leaves it), so the records before the damage were read; export again from the Health app and upload the new export.zip (readings already here are not added twice)`;
  }
  if (entry.cut) {
    return `the zip was cut short: it ends inside ${name} (an upload, AirDrop or copy that stopped part way), so the records up to the cut were read; export again from the Health app and upload the whole export.zip (readings already here are not added twice)`;
  }
  const what = walk.end === 'cut' ? 'cut short' : 'damaged';
  return `the zip was ${what} after ${name}: ${name} itself is whole and was read; the rest of the archive (workout routes, ECGs, clinical records, which Klebb does not read) is missing`;
}

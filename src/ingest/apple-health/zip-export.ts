/**
 * The Health app's own export, `export.zip`, uploaded as it is: its `export.xml` entry is found
 * (export-entry.ts) and unpacked with yauzl, as a stream, into a file beside the upload, under the
 * same limit as a plain upload (the unpacked bytes count, so a zip that unpacks to more is refused
 * like a file that large). The electrocardiograms beside it (`electrocardiograms/*.csv`) are read
 * by their heads (zip-ecg.ts); the rest of the archive (`export_cda.xml`, `workout-routes/*.gpx`)
 * is not read. An archive with an entry named outside itself, or with
 * the export twice, is refused before a byte is unpacked.
 *
 * yauzl reads the archive's central directory, at its end. An archive whose directory is missing
 * (cut short) or does not lead to the entries (its offsets cut to 32 bits past 4 GiB) is read
 * front to back by its entries instead (zip-walk-export.ts).
 */
import fs from 'node:fs';
import { pipeline } from 'node:stream/promises';
import type yauzl from 'yauzl';
import { KlebbError, payloadTooLarge } from '../../errors.js';
import { lazyRequire } from '../../lazy-module.js';
import {
  checkReadable,
  checkTwin,
  corruptEntry,
  exportEntryRank,
  innerZipFits,
  noExport,
  sizeFits,
  unsafeNameError,
} from './export-entry.js';
import { closedFile } from './file-closed.js';
import { ByteLimit } from './gunzip-upload.js';
import { mayBeEcgFile, readEcgHeads } from './zip-ecg.js';
import { zip64EndOutside } from './zip-end-records.js';
import { type UnzippedExport, unzipByWalking } from './zip-walk-export.js';

/** The zip reader, loaded with the first archive uploaded. */
const zipLib = lazyRequire<typeof yauzl>('yauzl');

function openZip(file: string): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) => {
    // entry sizes are checked here (sizeFits), not by yauzl: it would refuse a Finder archive of an
    // export over 4 GiB
    zipLib().open(file, { lazyEntries: true, validateEntrySizes: false, autoClose: false }, (err, zip) =>
      err || !zip ? reject(err) : resolve(zip),
    );
  });
}

/**
 * yauzl's refusals of an entry name that would write outside a folder it is unpacked into
 * (`../x`, `/etc/x`, `C:\\x`); the name follows the colon.
 */
const UNSAFE_NAME = /^(?:invalid characters in fileName|absolute path|invalid relative path): (.*)$/s;

/** What the central directory holds that may be the export. */
interface ExportEntries {
  /** The export's XML entry (see exportEntryRank), if any. */
  xml?: yauzl.Entry;
  /** `.zip` entries where the export could sit (innerZipFits), in archive order. */
  zips: yauzl.Entry[];
  /** `.csv` entries that may be electrocardiograms (mayBeEcgFile), in archive order. */
  csvs: yauzl.Entry[];
}

/**
 * Reads the central directory of `zip` and returns the export's entry and the zips inside.
 * @throws 422 ZIP_UNSAFE_NAME for an entry named outside the archive (nothing is read then),
 *   ZIP_DUPLICATE when the export is in it twice (checkTwin); yauzl's own error otherwise.
 */
function findExportEntry(zip: yauzl.ZipFile): Promise<ExportEntries> {
  return new Promise((resolve, reject) => {
    let best: { entry: yauzl.Entry; rank: number } | undefined;
    const zips: yauzl.Entry[] = [];
    const csvs: yauzl.Entry[] = [];
    // candidates by their file name (lower case), wherever they are in the archive
    const candidates = new Map<string, string>();
    zip.on('error', (err: Error) => {
      const unsafe = UNSAFE_NAME.exec(err.message);
      reject(unsafe ? unsafeNameError(unsafe[1]) : err);
    });
    zip.on('end', () => resolve({ xml: best?.entry, zips, csvs }));
    zip.on('entry', (e: yauzl.Entry) => {
      const rank = exportEntryRank(e.fileName);
      if (rank > 0) {
        try {
          checkTwin(candidates, e.fileName);
        } catch (err) {
          return reject(err);
        }
      }
      if (
        rank > 0 &&
        (!best ||
          rank > best.rank ||
          (rank === best.rank && e.uncompressedSize > best.entry.uncompressedSize))
      )
        best = { entry: e, rank };
      else if (rank === 0 && innerZipFits(e.fileName)) zips.push(e);
      else if (rank === 0 && mayBeEcgFile(e.fileName, e.uncompressedSize)) csvs.push(e);
      zip.readEntry();
    });
    zip.readEntry();
  });
}

/**
 * yauzl's error for an entry whose local header is not where the directory says: the directory's
 * offsets are not the archive's (cut to 32 bits past 4 GiB), so the archive is walked instead.
 */
const MISPLACED_ENTRY = /^invalid local file header signature/;

/**
 * Unpacks the export's XML entry of the zip `file` into the new file `out` (mode 0600; removed
 * again when this fails). An archive with no export XML but one zip where the export could sit
 * (export.zip inside a zip) gives that zip instead, when `nested` allows it: the caller then
 * unpacks it in turn. An archive whose central directory cannot be read, or does not lead to its
 * entries, is read front to back by its entries (unzipByWalking), also when cut short.
 * @returns the entry's name in the archive, the electrocardiograms beside it (read from the
 *   directory; not from an archive walked), and, for an archive cut short, a warning saying so.
 * @throws 422 ZIP_NOT_A_ZIP (the archive cannot be read even front to back: damaged, or cut short
 *   before its export), ZIP_UNSAFE_NAME and ZIP_DUPLICATE (see findExportEntry), NOT_AN_EXPORT (no
 *   export XML inside, nor a single zip that may hold it), ZIP_ENCRYPTED, ZIP_METHOD (compressed
 *   other than store or deflate), ZIP_CORRUPT (the entry's data does not match its header:
 *   damaged); 413 PAYLOAD_TOO_LARGE when it unpacks past `maxBytes`.
 */
export async function unzipExport(
  file: string,
  out: string,
  maxBytes: number,
  nested = true,
): Promise<UnzippedExport> {
  const outside = await zip64EndOutside(file);
  if (outside !== undefined) return unzipByWalking(file, out, maxBytes, nested, outside);
  let zip: yauzl.ZipFile;
  try {
    zip = await openZip(file);
  } catch (err) {
    return unzipByWalking(file, out, maxBytes, nested, (err as Error).message);
  }
  let walk: string | undefined;
  try {
    let found: ExportEntries | undefined;
    try {
      found = await findExportEntry(zip);
    } catch (err) {
      if (err instanceof KlebbError) throw err;
      walk = (err as Error).message;
    }
    if (found) {
      const entry = found.xml ?? (nested && found.zips.length === 1 ? found.zips[0] : undefined);
      if (!entry)
        throw noExport(
          found.zips.map((z) => z.fileName),
          nested,
        );
      const name = entry.fileName;
      checkReadable(name, entry.isEncrypted(), entry.compressionMethod);
      if (entry.uncompressedSize > maxBytes) {
        throw payloadTooLarge(
          `${name} in the zip unpacks to ${entry.uncompressedSize} bytes, more than ${maxBytes} (KLEBB_APPLE_HEALTH_MAX_BYTES)`,
        );
      }
      // an offset past the file (a damaged Zip64 field) is not read at: yauzl would throw
      walk =
        entry.relativeOffsetOfLocalHeader > zip.fileSize
          ? `the directory says ${name} starts past the end of the file`
          : await unpackEntry(zip, entry, out, maxBytes);
      if (walk === undefined) {
        const ecg = found.xml ? await readEcgHeads(zip, found.csvs) : undefined;
        return { name, warning: null, ...(ecg ? { ecg } : {}) };
      }
    }
  } finally {
    zip.close();
  }
  return unzipByWalking(file, out, maxBytes, nested, walk ?? 'its directory cannot be read');
}

/**
 * Streams `entry` into `out` under `maxBytes`.
 * @returns undefined once unpacked; yauzl's message when the entry is not where the directory
 *   says (MISPLACED_ENTRY: nothing was written, the caller walks the archive instead).
 */
async function unpackEntry(
  zip: yauzl.ZipFile,
  entry: yauzl.Entry,
  out: string,
  maxBytes: number,
): Promise<string | undefined> {
  let readError: Error | undefined;
  const file = fs.createWriteStream(out, { flags: 'wx', mode: 0o600 });
  try {
    const input = await new Promise<NodeJS.ReadableStream>((resolve, reject) =>
      zip.openReadStream(entry, (err, rs) => (err || !rs ? reject(err) : resolve(rs))),
    ).catch((err: Error) => {
      readError = err;
      throw err;
    });
    input.on('error', (err: Error) => {
      readError ??= err;
    });
    const counted = new ByteLimit(maxBytes);
    await pipeline(input, counted, file);
    if (!sizeFits(entry.uncompressedSize, counted.bytes)) {
      readError = new Error(`it unpacks to ${counted.bytes} bytes, the zip says ${entry.uncompressedSize}`);
      throw readError;
    }
    return undefined;
  } catch (err) {
    await closedFile(file);
    fs.rmSync(out, { force: true });
    if (err instanceof KlebbError) throw err;
    if (readError && err === readError) {
      if (MISPLACED_ENTRY.test(readError.message)) return readError.message;
      throw corruptEntry(entry.fileName, readError.message);
    }
    throw err;
  }
}

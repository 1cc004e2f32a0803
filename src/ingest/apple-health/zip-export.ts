/**
 * The Health app's own export, `export.zip`, uploaded as it is: its `export.xml` entry is found
 * and unpacked with yauzl, as a stream, into a file beside the upload, under the same limit as a
 * plain upload (the unpacked bytes count, so a zip that unpacks to more is refused like a file
 * that large). The rest of the archive (`export_cda.xml`, `workout-routes/*.gpx`,
 * `electrocardiograms/*.csv`) is not read.
 *
 * The file is named after the phone's language (`export.xml`, Spanish `exportar.xml`, Norwegian
 * `eksport.xml`, Finnish `vienti.xml`) while `export_cda.xml` keeps its English name, so the entry
 * read is `export.xml` when there is one, else the largest other `.xml`: at the archive's top, in
 * `apple_health_export/`, or in a folder or two around it (the unpacked folder zipped again), never
 * in the export's own folders of routes and records. Entries a Mac's archiver adds (`__MACOSX/`,
 * `._x`) are never it. An archive with an entry named outside itself, or with the export twice, is
 * refused before a byte is unpacked.
 */
import fs from 'node:fs';
import { pipeline } from 'node:stream/promises';
import type yauzl from 'yauzl';
import { type ErrorCode, invalid, KlebbError, payloadTooLarge } from '../../errors.js';
import { lazyRequire } from '../../lazy-module.js';
import { ByteLimit } from './gunzip-upload.js';

/** The zip reader, loaded with the first archive uploaded. */
const zipLib = lazyRequire<typeof yauzl>('yauzl');

const zipError = (code: ErrorCode, message: string) => invalid(message, undefined, code);

/**
 * Folders of an export.zip that hold its other files (routes, ECGs, FHIR records), and the one a
 * Mac's archiver adds for its resource forks: an entry in one of them is never the export.
 */
const SIDE_FOLDERS = new Set(['workout-routes', 'electrocardiograms', 'clinical-records', '__macosx']);

/**
 * Folders the export may sit in: `apple_health_export/`, and the ones around it when the unpacked
 * folder was zipped again (Finder zips a folder with the folder itself inside: `Export
 * 2026/apple_health_export/export.xml`). Deeper, it is some other archive.
 */
const MAX_FOLDERS = 4;

/**
 * How well `name` fits as the export's XML: 2 for `export.xml`, 1 for another candidate, 0 for
 * an entry that is not it (see the module comment).
 */
export function exportEntryRank(name: string): number {
  const base = candidateBase(name);
  if (base === undefined || !base.endsWith('.xml') || base.endsWith('_cda.xml')) return 0;
  return base === 'export.xml' ? 2 : 1;
}

/**
 * True when `name` may be the Health app's export.zip inside another archive (a folder downloaded
 * from a cloud drive as a zip, export.zip zipped again to send it): a `.zip` where the export
 * could sit.
 */
export function innerZipFits(name: string): boolean {
  return candidateBase(name)?.endsWith('.zip') === true;
}

/**
 * The lower-case file name of an entry that may hold the export (not in a side folder, not a Mac's
 * `._` file, at most MAX_FOLDERS deep), undefined for any other.
 */
function candidateBase(name: string): string | undefined {
  const parts = name.toLowerCase().split('/');
  const base = parts.pop() ?? '';
  if (parts.length > MAX_FOLDERS || parts.some((p) => SIDE_FOLDERS.has(p))) return undefined;
  return base.startsWith('._') ? undefined : base;
}

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
}

/**
 * Reads the central directory of `zip` and returns the export's entry and the zips inside.
 * @throws 422 ZIP_UNSAFE_NAME for an entry named outside the archive (nothing is read then),
 *   ZIP_DUPLICATE when the export is in it twice (the same name, or `export.xml` both at the top
 *   and in the folder: which one is the export cannot be told); yauzl's own error otherwise.
 */
function findExportEntry(zip: yauzl.ZipFile): Promise<ExportEntries> {
  return new Promise((resolve, reject) => {
    let best: { entry: yauzl.Entry; rank: number } | undefined;
    const zips: yauzl.Entry[] = [];
    // candidates by their file name (lower case), wherever they are in the archive
    const candidates = new Map<string, string>();
    zip.on('error', (err: Error) => {
      const unsafe = UNSAFE_NAME.exec(err.message);
      if (!unsafe) return reject(err);
      reject(
        zipError(
          'ZIP_UNSAFE_NAME',
          `the zip has an entry with an unsafe name (${JSON.stringify(unsafe[1])}: it points outside the archive), so it was not read and nothing was stored; the Health app never names entries so: export again from the Health app`,
        ),
      );
    });
    zip.on('end', () => resolve({ xml: best?.entry, zips }));
    zip.on('entry', (e: yauzl.Entry) => {
      const rank = exportEntryRank(e.fileName);
      if (rank > 0) {
        const base = e.fileName.split('/').pop()?.toLowerCase() ?? '';
        const twin = candidates.get(base);
        if (twin !== undefined) {
          const where = twin === e.fileName ? `twice as ${twin}` : `as ${twin} and as ${e.fileName}`;
          return reject(
            zipError(
              'ZIP_DUPLICATE',
              `the zip holds the export ${where}: which one to read cannot be told, so none was read and nothing was stored; export again from the Health app, or upload the export.xml you mean`,
            ),
          );
        }
        candidates.set(base, e.fileName);
      }
      if (
        rank > 0 &&
        (!best ||
          rank > best.rank ||
          (rank === best.rank && e.uncompressedSize > best.entry.uncompressedSize))
      )
        best = { entry: e, rank };
      else if (rank === 0 && innerZipFits(e.fileName)) zips.push(e);
      zip.readEntry();
    });
    zip.readEntry();
  });
}

/**
 * Unpacks the export's XML entry of the zip `file` into the new file `out` (mode 0600; removed
 * again when this fails). An archive with no export XML but one zip where the export could sit
 * (export.zip inside a zip) gives that zip instead, when `nested` allows it: the caller then
 * unpacks it in turn.
 * @returns the entry's name in the archive.
 * @throws 422 ZIP_NOT_A_ZIP (the archive cannot be read: cut short, damaged), ZIP_UNSAFE_NAME
 *   and ZIP_DUPLICATE (see findExportEntry), NOT_AN_EXPORT (no
 *   export XML inside, nor a single zip that may hold it), ZIP_ENCRYPTED, ZIP_METHOD (compressed
 *   other than store or deflate), ZIP_CORRUPT (the entry's data does not match its header:
 *   damaged); 413 PAYLOAD_TOO_LARGE when it unpacks past `maxBytes`.
 */
export async function unzipExport(
  file: string,
  out: string,
  maxBytes: number,
  nested = true,
): Promise<string> {
  let zip: yauzl.ZipFile;
  try {
    zip = await openZip(file);
  } catch (err) {
    throw zipError(
      'ZIP_NOT_A_ZIP',
      `the upload starts like a zip archive but cannot be read as one (${(err as Error).message}): it is damaged or cut short; export again from the Health app`,
    );
  }
  try {
    let found: ExportEntries;
    try {
      found = await findExportEntry(zip);
    } catch (err) {
      if (err instanceof KlebbError) throw err;
      throw zipError(
        'ZIP_NOT_A_ZIP',
        `the zip archive cannot be read (${(err as Error).message}): it is damaged or cut short; export again from the Health app`,
      );
    }
    const entry = found.xml ?? (nested && found.zips.length === 1 ? found.zips[0] : undefined);
    if (!entry) throw noExport(found.zips, nested);
    const name = entry.fileName;
    if (entry.isEncrypted())
      throw zipError('ZIP_ENCRYPTED', `${name} in the zip is encrypted: unzip it yourself and upload it`);
    if (entry.compressionMethod !== 0 && entry.compressionMethod !== 8) {
      throw zipError(
        'ZIP_METHOD',
        `${name} in the zip is compressed with method ${entry.compressionMethod} (only store and deflate are read): unzip it yourself and upload it`,
      );
    }
    if (entry.uncompressedSize > maxBytes) {
      throw payloadTooLarge(
        `${name} in the zip unpacks to ${entry.uncompressedSize} bytes, more than ${maxBytes} (KLEBB_APPLE_HEALTH_MAX_BYTES)`,
      );
    }
    await unpackEntry(zip, entry, out, maxBytes);
    return name;
  } finally {
    zip.close();
  }
}

/**
 * The 422 NOT_AN_EXPORT for an archive without the export: it holds no export.xml, and either no
 * zip, several (which one is the export is not guessed), or a zip inside a zip already unpacked.
 */
function noExport(zips: yauzl.Entry[], nested: boolean): KlebbError {
  const names = zips
    .slice(0, 5)
    .map((z) => z.fileName)
    .join(', ');
  const why =
    zips.length === 0
      ? 'it is not an Apple Health export (the Health app makes export.zip with apple_health_export/export.xml inside)'
      : !nested
        ? `only another zip (${names}), inside the zip it came in: unzip them and upload export.zip`
        : `but ${zips.length} zip archives (${names}${zips.length > 5 ? ', ...' : ''}): which one is the export cannot be told; upload that one`;
  return zipError('NOT_AN_EXPORT', `this zip holds no export.xml: ${why}`);
}

/** 2^32: sizes written in the 32-bit fields of a zip without Zip64 records wrap around at it. */
const FOUR_GIB = 2 ** 32;

/**
 * True when `written` bytes unpacked from an entry fit the size its header records. Equal, or,
 * for a size recorded in 32 bits, larger by a multiple of 4 GiB: macOS's Archive Utility (Finder's
 * Compress) writes an entry over 4 GiB without Zip64 records, its size cut to its low 32 bits,
 * and an export.xml of years of watch data passes 4 GiB. The deflate stream ends where the data
 * ends, so whole data is still told from cut or damaged data, which does not inflate.
 */
export function sizeFits(recorded: number, written: number): boolean {
  if (written === recorded) return true;
  return recorded < FOUR_GIB && written > recorded && (written - recorded) % FOUR_GIB === 0;
}

/** Streams `entry` into `out` under `maxBytes`. */
async function unpackEntry(zip: yauzl.ZipFile, entry: yauzl.Entry, out: string, maxBytes: number) {
  let readError: Error | undefined;
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
    await pipeline(input, counted, fs.createWriteStream(out, { flags: 'wx', mode: 0o600 }));
    if (!sizeFits(entry.uncompressedSize, counted.bytes)) {
      readError = new Error(`it unpacks to ${counted.bytes} bytes, the zip says ${entry.uncompressedSize}`);
      throw readError;
    }
  } catch (err) {
    fs.rmSync(out, { force: true });
    if (err instanceof KlebbError) throw err;
    if (readError && err === readError) {
      throw zipError(
        'ZIP_CORRUPT',
        `${entry.fileName} in the zip is damaged (${readError.message}): export again from the Health app`,
      );
    }
    throw err;
  }
}

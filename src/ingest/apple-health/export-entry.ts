/**
 * Which entry of an uploaded zip is the Health app's export, and the refusals of a zip that does
 * not hold it plainly: the rules shared by the reading of a zip's central directory (zip-export.ts)
 * and the front-to-back reading of a zip without a usable one (zip-walk-export.ts).
 *
 * The file is named after the phone's language (`export.xml`, Spanish `exportar.xml`, Norwegian
 * `eksport.xml`, Finnish `vienti.xml`) while `export_cda.xml` keeps its English name, so the entry
 * read is `export.xml` when there is one, else the largest other `.xml`: at the archive's top, in
 * `apple_health_export/`, or in a folder or two around it (the unpacked folder zipped again), never
 * in the export's own folders of routes and records. Entries a Mac's archiver adds (`__MACOSX/`,
 * `._x`) are never it.
 */
import { type ErrorCode, invalid, type KlebbError } from '../../errors.js';

/** A 422 of the zip upload. */
export const zipError = (code: ErrorCode, message: string): KlebbError => invalid(message, undefined, code);

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

/** The 422 ZIP_UNSAFE_NAME for an entry named `name`, outside the archive (`../x`, `/etc/x`, `C:\\x`). */
export function unsafeNameError(name: string): KlebbError {
  return zipError(
    'ZIP_UNSAFE_NAME',
    `the zip has an entry with an unsafe name (${JSON.stringify(name)}: it points outside the archive), so it was not read and nothing was stored; the Health app never names entries so: export again from the Health app`,
  );
}

/**
 * Tells the export's candidates apart by their file name: `seen` maps each lower-case file name
 * to the entry first seen with it.
 * @throws 422 ZIP_DUPLICATE when `name` is the export a second time (the same name, or `export.xml`
 *   both at the top and in the folder: which one is the export cannot be told).
 */
export function checkTwin(seen: Map<string, string>, name: string): void {
  const base = name.split('/').pop()?.toLowerCase() ?? '';
  const twin = seen.get(base);
  if (twin === undefined) {
    seen.set(base, name);
    return;
  }
  const where = twin === name ? `twice as ${twin}` : `as ${twin} and as ${name}`;
  throw zipError(
    'ZIP_DUPLICATE',
    `the zip holds the export ${where}: which one to read cannot be told, so none was read and nothing was stored; export again from the Health app, or upload the export.xml you mean`,
  );
}

/**
 * The 422 NOT_AN_EXPORT for an archive without the export: it holds no export.xml, and either no
 * zip, several (which one is the export is not guessed), or a zip inside a zip already unpacked.
 * `zips` are the names of the zips inside.
 */
export function noExport(zips: string[], nested: boolean): KlebbError {
  const names = zips.slice(0, 5).join(', ');
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

/**
 * @throws 422 ZIP_ENCRYPTED for the export's entry `name` encrypted, ZIP_METHOD for it compressed
 *   with `method` other than store (0) or deflate (8).
 */
export function checkReadable(name: string, encrypted: boolean, method: number): void {
  if (encrypted)
    throw zipError('ZIP_ENCRYPTED', `${name} in the zip is encrypted: unzip it yourself and upload it`);
  if (method === 9) {
    // Windows' "Send to > Compressed folder" writes Deflate64 for files over about 2 GB
    throw zipError(
      'ZIP_METHOD',
      `${name} in the zip is compressed with Deflate64 (method 9), as Windows' "Send to > Compressed (zipped) folder" does for a large file; it is not read: upload the export.zip the Health app made as it is, or the export.xml itself`,
    );
  }
  if (method !== 0 && method !== 8) {
    throw zipError(
      'ZIP_METHOD',
      `${name} in the zip is compressed with method ${method} (only store and deflate are read): unzip it yourself and upload it`,
    );
  }
}

/** The 422 ZIP_CORRUPT for the export's entry `name` whose data does not match its header (`why`). */
export function corruptEntry(name: string, why: string): KlebbError {
  return zipError('ZIP_CORRUPT', `${name} in the zip is damaged (${why}): export again from the Health app`);
}

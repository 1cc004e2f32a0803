/**
 * Opening an archive someone uploaded, with yauzl, refusing what could hurt before a byte is
 * unpacked: names that climb out (`..`, absolute, drive letters, NUL), symbolic
 * links, encrypted entries, methods other than store/deflate, duplicate names, too many
 * entries, and sizes or compression ratios over the limits (src/limits.ts). yauzl checks each
 * entry's real size against its header and its CRC-32 as it streams, so a lying header fails
 * the read. Every refusal is 422 with a `ZIP_*` code naming the entry.
 */
import type { Readable } from 'node:stream';
import type yauzl from 'yauzl';
import { type ErrorCode, invalid, KlebbError } from '../errors.js';
import { lazyRequire } from '../lazy-module.js';
import {
  IMPORT_MAX_ENTRIES,
  IMPORT_MAX_RATIO,
  IMPORT_MAX_TOTAL_BYTES,
  IMPORT_RATIO_FLOOR_BYTES,
} from '../limits.js';

/** The zip reader, loaded with the first archive to read. */
const zipLib = lazyRequire<typeof yauzl>('yauzl');

/** One file entry of an accepted archive. */
export interface SafeEntry {
  name: string;
  size: number;
  entry: yauzl.Entry;
}

/** An opened archive: its file entries by name; close() when done. */
export interface SafeZip {
  entries: Map<string, SafeEntry>;
  open(e: SafeEntry): Promise<Readable>;
  close(): void;
}

/** Limits of one read (defaults from src/limits.ts; tests pass smaller ones). */
export interface ZipLimits {
  maxEntries: number;
  maxTotalBytes: number;
  maxRatio: number;
}

const DEFAULT_LIMITS: ZipLimits = {
  maxEntries: IMPORT_MAX_ENTRIES,
  maxTotalBytes: IMPORT_MAX_TOTAL_BYTES,
  maxRatio: IMPORT_MAX_RATIO,
};

const zipError = (code: ErrorCode, message: string) => invalid(message, undefined, code);

/** Why a name is unsafe, or null. Names are UTF-8, `/`-separated, relative, without `.`/`..` parts. */
export function unsafeName(name: string): string | null {
  if (name === '') return 'an empty name';
  if (name.includes('\0')) return 'a NUL byte in the name';
  if (name.startsWith('/') || /^[A-Za-z]:/.test(name)) return 'an absolute path';
  if (name.split('/').some((p) => p === '..' || p === '.'))
    return 'a path that climbs out of the archive (..)';
  return null;
}

function openFile(file: string): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) => {
    zipLib().open(
      file,
      { lazyEntries: true, decodeStrings: false, validateEntrySizes: true, autoClose: false },
      (err, zip) => (err || !zip ? reject(err) : resolve(zip)),
    );
  });
}

/**
 * Checks one central-directory entry; returns its decoded name, or null for a folder entry. A
 * backslash is read as the separator it is meant as: Windows PowerShell's Compress-Archive (and
 * other Windows tools) write `cards\bp.json` although zip names separate with `/`. The name is
 * checked after that, so `..\x` or `C:\x` is refused like `../x` and `C:/x`.
 */
function checkEntry(e: yauzl.Entry, limits: ZipLimits): string | null {
  const raw = e.fileName as unknown as Buffer;
  const text = raw.toString('utf8');
  if (!Buffer.from(text, 'utf8').equals(raw))
    throw zipError('ZIP_UNSAFE_NAME', 'an entry name is not valid UTF-8');
  const name = text.replace(/\\/g, '/');
  const why = unsafeName(name);
  if (why) throw zipError('ZIP_UNSAFE_NAME', `entry "${name}" is refused: ${why}`);
  const fileType = (e.externalFileAttributes >>> 16) & 0o170000;
  if (fileType === 0o120000) throw zipError('ZIP_SYMLINK', `entry "${name}" is a symbolic link`);
  if ((e.generalPurposeBitFlag & 0x1) !== 0) throw zipError('ZIP_ENCRYPTED', `entry "${name}" is encrypted`);
  if (name.endsWith('/')) return null;
  if (fileType !== 0 && fileType !== 0o100000)
    throw zipError('ZIP_NOT_A_FILE', `entry "${name}" is not a regular file`);
  if (e.compressionMethod !== 0 && e.compressionMethod !== 8) {
    throw zipError(
      'ZIP_METHOD',
      `entry "${name}" uses compression method ${e.compressionMethod} (only store and deflate)`,
    );
  }
  if (e.uncompressedSize > limits.maxTotalBytes) {
    throw zipError(
      'ZIP_TOO_LARGE',
      `entry "${name}" unpacks to ${e.uncompressedSize} bytes, over the ${limits.maxTotalBytes} limit`,
    );
  }
  if (
    e.uncompressedSize > IMPORT_RATIO_FLOOR_BYTES &&
    e.uncompressedSize > limits.maxRatio * Math.max(e.compressedSize, 1)
  ) {
    throw zipError(
      'ZIP_RATIO',
      `entry "${name}" unpacks ${Math.round(e.uncompressedSize / Math.max(e.compressedSize, 1))}× its packed size (limit ${limits.maxRatio}×)`,
    );
  }
  return name;
}

/**
 * Opens `file` and reads its whole central directory, checking every entry.
 * @throws 422 ZIP_NOT_A_ZIP, ZIP_UNSAFE_NAME, ZIP_SYMLINK, ZIP_ENCRYPTED, ZIP_NOT_A_FILE,
 *   ZIP_METHOD, ZIP_DUPLICATE, ZIP_TOO_MANY, ZIP_TOO_LARGE or ZIP_RATIO.
 */
export async function openSafeZip(file: string, limits: Partial<ZipLimits> = {}): Promise<SafeZip> {
  const lim = { ...DEFAULT_LIMITS, ...limits };
  let zip: yauzl.ZipFile;
  try {
    zip = await openFile(file);
  } catch {
    // the unzip library's own words (a header signature) say nothing to the person importing
    throw zipError('ZIP_NOT_A_ZIP', 'the file is not a zip archive, so it is not a Klebb export');
  }
  try {
    if (zip.entryCount > lim.maxEntries) {
      throw zipError(
        'ZIP_TOO_MANY',
        `the archive holds ${zip.entryCount} entries, over the ${lim.maxEntries} limit`,
      );
    }
    const entries = new Map<string, SafeEntry>();
    let total = 0;
    await new Promise<void>((resolve, reject) => {
      zip.on('error', (err) =>
        reject(
          err instanceof KlebbError
            ? err
            : zipError('ZIP_NOT_A_ZIP', `the archive cannot be read: ${err.message}`),
        ),
      );
      zip.on('end', () => resolve());
      zip.on('entry', (e: yauzl.Entry) => {
        try {
          const name = checkEntry(e, lim);
          if (name !== null) {
            if (entries.has(name)) throw zipError('ZIP_DUPLICATE', `entry "${name}" appears twice`);
            total += e.uncompressedSize;
            if (total > lim.maxTotalBytes) {
              throw zipError('ZIP_TOO_LARGE', `the archive unpacks to more than ${lim.maxTotalBytes} bytes`);
            }
            entries.set(name, { name, size: e.uncompressedSize, entry: e });
          }
          zip.readEntry();
        } catch (err) {
          reject(err);
        }
      });
      zip.readEntry();
    });
    return {
      entries,
      open: (e) =>
        new Promise((resolve, reject) =>
          zip.openReadStream(e.entry, (err, rs) => (err || !rs ? reject(err) : resolve(rs))),
        ),
      close: () => zip.close(),
    };
  } catch (err) {
    zip.close();
    throw err;
  }
}

/**
 * Reading a zip archive front to back by its local headers, the way it was written, for when its
 * central directory (the table of entries at the end, which yauzl reads) cannot be used: the
 * archive was cut short (an upload, AirDrop or copy that stopped part way leaves no directory), or
 * the directory's offset was written in 32 bits past 4 GiB (macOS's Archive Utility zipping an
 * export of years of watch data) and points into the middle of the data.
 *
 * Each entry's local header gives its name and method. Where its data ends is told by the data
 * itself, not by sizes that may be missing (written after the data: a data descriptor) or cut to
 * 32 bits: a deflated entry ends where its deflate stream ends (zlib says how much of the input it
 * took), a stored one after the size its header records. Looking for the next header's signature
 * instead, as streaming unzip libraries do, misfires on the same four bytes inside compressed data,
 * which a gigabyte of it holds by chance. A stored entry whose size comes only after it cannot be
 * walked past unless it is empty (a folder), and ends the walk.
 */
import fs from 'node:fs/promises';
import { Writable } from 'node:stream';
import zlib from 'node:zlib';
import type yauzl from 'yauzl';
import { lazyRequire } from '../../lazy-module.js';

/** The zip reader, for its decoding of entry names (code page 437, Info-ZIP's Unicode path). */
const zipLib = lazyRequire<typeof yauzl>('yauzl');

const LOCAL_HEADER = 0x04034b50;
const DATA_DESCRIPTOR = 0x08074b50;
/** Records that follow the last entry: central directory, Zip64 end, archive extra data, end. */
const AFTER_ENTRIES = new Set([0x02014b50, 0x06064b50, 0x07064b50, 0x08064b50, 0x05054b50, 0x06054b50]);
const MAX32 = 0xffffffff;
/** Bytes read at a time. */
const CHUNK = 256 * 1024;

/** An entry as its local header describes it. */
export interface LocalEntry {
  /** Its name, decoded and with backslashes made slashes, as yauzl gives it. */
  fileName: string;
  /** 0 store, 8 deflate, other methods are not read. */
  compressionMethod: number;
  /** Encrypted (its data cannot be read). */
  encrypted: boolean;
  /**
   * The unpacked size recorded for it (in the local header, or in the data descriptor after the
   * data), once the walk is past it; undefined when it is not known (the archive ends first).
   */
  recordedSize?: number;
  /**
   * True when this entry is not whole: the archive ends inside its data (or its data descriptor),
   * or its data is damaged part way (the walk then ends 'damaged').
   */
  cut: boolean;
}

/** How the walk ended. */
export type WalkEnd =
  /** at the central directory: every entry was read whole */
  | 'directory'
  /** the file ended first: the archive was cut short */
  | 'cut'
  /** bytes that are neither an entry nor the directory, where the next entry should start */
  | 'damaged'
  /** at an entry whose end cannot be told (stored, or compressed otherwise, with its size after it) */
  | 'unwalkable';

/** What the walk read. */
export interface ZipWalk {
  /** The entries read, in archive order (the last one maybe cut: see LocalEntry.cut). */
  entries: LocalEntry[];
  end: WalkEnd;
}

/**
 * Where an entry's unpacked bytes go: a stream the walk writes them to and ends (or destroys with
 * the error that stopped it); undefined to read past the entry.
 */
export type EntrySink = (entry: LocalEntry) => Writable | undefined;

/** Positional reads of one file. */
class Reader {
  constructor(private readonly fd: fs.FileHandle) {}
  /** Up to `length` bytes at `position` (fewer at the end of the file), in a buffer of their own. */
  async at(position: number, length: number): Promise<Buffer> {
    const buf = Buffer.allocUnsafe(length);
    const { bytesRead } = await this.fd.read(buf, 0, length, position);
    return bytesRead < length ? buf.subarray(0, bytesRead) : buf;
  }
}

/**
 * Walks the zip `file` from its first byte by its local headers (see the module comment), handing
 * each entry's unpacked bytes to the stream `sink` gives for it, if any.
 * @throws what `sink` throws, and the error a sink stream fails with (a size limit). An entry
 *   whose data stops inflating ends the walk as 'damaged' (a sink keeps what inflated before).
 */
export async function walkLocalEntries(file: string, sink: EntrySink): Promise<ZipWalk> {
  const fd = await fs.open(file, 'r');
  try {
    const reader = new Reader(fd);
    const entries: LocalEntry[] = [];
    let pos = 0;
    for (;;) {
      const head = await reader.at(pos, 30);
      if (head.length < 4) return { entries, end: 'cut' };
      const signature = head.readUInt32LE(0);
      if (AFTER_ENTRIES.has(signature)) return { entries, end: await directoryEnd(reader, pos) };
      if (signature !== LOCAL_HEADER) return { entries, end: 'damaged' };
      if (head.length < 30) return { entries, end: 'cut' };
      const flags = head.readUInt16LE(6);
      const nameLength = head.readUInt16LE(26);
      const extraLength = head.readUInt16LE(28);
      const names = await reader.at(pos + 30, nameLength + extraLength);
      if (names.length < nameLength + extraLength) return { entries, end: 'cut' };
      const extra = extraFields(names.subarray(nameLength));
      if (!extra) return { entries, end: 'damaged' };
      const entry: LocalEntry = {
        fileName: zipLib().getFileNameLowLevel(flags, names.subarray(0, nameLength), extra, false),
        compressionMethod: head.readUInt16LE(8),
        encrypted: (flags & 1) !== 0,
        cut: false,
      };
      entries.push(entry);
      const sizes = headerSizes(head, extra);
      const sizesAfter = (flags & 8) !== 0;
      const inflated = entry.compressionMethod === 8 && !entry.encrypted;
      const dataStart = pos + 30 + nameLength + extraLength;
      // stored with its sizes after it: readable only when empty (a folder), its descriptor at once
      if (!inflated && sizesAfter && sizes.compressed === 0) {
        const empty = await readDescriptor(reader, dataStart, sizes.zip64);
        if (typeof empty === 'string' || empty.compressed !== 0) return { entries, end: 'unwalkable' };
      }
      const dest = sink(entry);
      const data = inflated
        ? await inflateFrom(reader, dataStart, dest)
        : await copyFrom(reader, dataStart, sizes.compressed, dest);
      if (data.damaged) {
        entry.cut = true;
        return { entries, end: 'damaged' };
      }
      if (data.eof) {
        entry.cut = true;
        return { entries, end: 'cut' };
      }
      pos = data.end;
      if (!sizesAfter) {
        entry.recordedSize = sizes.uncompressed;
        continue;
      }
      const descriptor = await readDescriptor(reader, pos, sizes.zip64);
      if (descriptor === 'cut') {
        entry.cut = true;
        return { entries, end: 'cut' };
      }
      if (descriptor === 'damaged') return { entries, end: 'damaged' };
      entry.recordedSize = descriptor.uncompressed;
      pos = descriptor.next;
    }
  } finally {
    await fd.close();
  }
}

/**
 * Reads past the records after the entries (central directory, Zip64 end records, end record),
 * starting at `pos`, to tell a whole archive from one cut short there.
 * @returns 'directory' when the end record is there whole, 'cut' when the file ends first,
 *   'damaged' at bytes that are none of them.
 */
async function directoryEnd(reader: Reader, pos: number): Promise<WalkEnd> {
  for (;;) {
    const head = await reader.at(pos, 46);
    if (head.length < 4) return 'cut';
    const signature = head.readUInt32LE(0);
    // each record's length: fixed part, then the lengths it records
    const needs = new Map<number, [number, () => number]>([
      [0x02014b50, [46, () => head.readUInt16LE(28) + head.readUInt16LE(30) + head.readUInt16LE(32)]],
      [0x06064b50, [12, () => size64(head, 4)]],
      [0x07064b50, [20, () => 0]],
      [0x05054b50, [6, () => head.readUInt16LE(4)]],
      [0x08064b50, [8, () => head.readUInt32LE(4)]],
      [0x06054b50, [22, () => head.readUInt16LE(20)]],
    ]);
    const record = needs.get(signature);
    if (!record) return 'damaged';
    if (head.length < record[0]) return 'cut';
    const length = record[0] + record[1]();
    if ((await reader.at(pos + length - 1, 1)).length === 0) return 'cut';
    if (signature === 0x06054b50) return 'directory';
    pos += length;
  }
}

/** The extra fields of a local header, or undefined when they do not parse (a damaged header). */
function extraFields(bytes: Buffer): { id: number; data: Buffer }[] | undefined {
  try {
    return zipLib().parseExtraFields(bytes);
  } catch {
    return undefined;
  }
}

/** A 64-bit size as a number; past 2^52 bytes (no file is that large) it stands for "beyond the file". */
function size64(b: Buffer, at: number): number {
  const n = b.readBigUInt64LE(at);
  return n > 2n ** 52n ? 2 ** 52 : Number(n);
}

/** An entry's sizes from its local header, or its Zip64 extra field where the header says 0xFFFFFFFF. */
function headerSizes(
  head: Buffer,
  extra: { id: number; data: Buffer }[],
): { compressed: number; uncompressed: number; zip64: boolean } {
  let compressed = head.readUInt32LE(18);
  let uncompressed = head.readUInt32LE(22);
  const zip64 = extra.find((e) => e.id === 0x0001);
  if (!zip64) return { compressed, uncompressed, zip64: false };
  // the Zip64 field holds the sizes the header could not, uncompressed first
  let at = 0;
  if (uncompressed === MAX32 && zip64.data.length >= at + 8) {
    uncompressed = size64(zip64.data, at);
    at += 8;
  }
  if (compressed === MAX32 && zip64.data.length >= at + 8) compressed = size64(zip64.data, at);
  return { compressed, uncompressed, zip64: true };
}

/**
 * The data descriptor at `pos` (after an entry's data): its optional signature, CRC and sizes,
 * 32-bit or, with Zip64, 64-bit. Which one is told by what follows it: the next record's
 * signature.
 */
async function readDescriptor(
  reader: Reader,
  pos: number,
  zip64: boolean,
): Promise<{ compressed: number; uncompressed: number; next: number } | 'cut' | 'damaged'> {
  const b = await reader.at(pos, 4 + 20 + 4);
  if (b.length < 4) return 'cut';
  const skip = b.readUInt32LE(0) === DATA_DESCRIPTOR ? 4 : 0;
  let cut = false;
  for (const wide of zip64 ? [true, false] : [false, true]) {
    const length = skip + (wide ? 20 : 12);
    if (b.length < length + 4) {
      cut = true;
      continue;
    }
    const following = b.readUInt32LE(length);
    if (following !== LOCAL_HEADER && !AFTER_ENTRIES.has(following)) continue;
    const compressed = wide ? size64(b, skip + 4) : b.readUInt32LE(skip + 4);
    const uncompressed = wide ? size64(b, skip + 12) : b.readUInt32LE(skip + 8);
    return { compressed, uncompressed, next: pos + length };
  }
  return cut ? 'cut' : 'damaged';
}

/** A stream that keeps nothing: where an entry read past is inflated to find its end. */
function nowhere(): Writable {
  return new Writable({ write: (_chunk, _enc, done) => done() });
}

/** Where an entry's data ends, and how it ended when not whole. */
interface DataEnd {
  /** The byte after the data. */
  end: number;
  /** The file ended first (what was there was passed on). */
  eof: boolean;
  /** The data turned out damaged (it does not inflate) after what was passed on. */
  damaged?: boolean;
}

/**
 * Inflates the deflate stream starting at `start` into `dest` (or nowhere), ending `dest`. Data
 * that stops inflating (damaged, or zeros a download wrote ahead of the data) ends it there: what
 * inflated before is kept.
 * @returns where the stream ended, or eof when the file ended first, or damaged.
 * @throws the error `dest` fails with (a size limit).
 */
async function inflateFrom(reader: Reader, start: number, dest: Writable | undefined): Promise<DataEnd> {
  // a cut stream gives what it holds instead of an error, with the output of its last piece
  const inflater = zlib.createInflateRaw({ finishFlush: zlib.constants.Z_SYNC_FLUSH });
  const out = dest ?? nowhere();
  let damaged = false;
  const done = new Promise<void>((resolve, reject) => {
    out.once('finish', resolve);
    out.once('error', reject);
    inflater.once('error', (err: NodeJS.ErrnoException) => {
      if (typeof err.code !== 'string' || !err.code.startsWith('Z_')) return reject(err);
      // zlib's own refusal of the data: what it passed on stays, the entry ends here
      damaged = true;
      inflater.unpipe(out);
      out.end();
    });
  });
  done.catch(() => {});
  inflater.pipe(out);
  let fed = 0;
  // whether the deflate data ended before the file did
  let ended = false;
  try {
    while (!damaged) {
      const chunk = await reader.at(start + fed, CHUNK);
      if (chunk.length === 0) {
        inflater.end();
        break;
      }
      fed += chunk.length;
      // once a chunk is taken (its output passed on), zlib has taken all of it unless the deflate
      // data ended inside it: then it ends the stream by itself, the rest of the chunk left
      await Promise.race([new Promise<void>((resolve) => inflater.write(chunk, () => resolve())), done]);
      if (!damaged && inflater.bytesWritten < fed) {
        ended = true;
        break;
      }
    }
    await done;
  } catch (err) {
    inflater.destroy();
    out.destroy(err as Error);
    throw err;
  }
  const end = start + inflater.bytesWritten;
  inflater.destroy();
  return damaged ? { end, eof: false, damaged } : { end, eof: !ended };
}

/** Resolves at the first of `events` on `stream`. */
function waitFor(stream: NodeJS.EventEmitter, ...events: string[]): Promise<void> {
  return new Promise((resolve) => {
    const on = () => {
      for (const e of events) stream.off(e, on);
      resolve();
    };
    for (const e of events) stream.once(e, on);
  });
}

/**
 * Copies `length` bytes from `start` into `dest` (or past them), ending `dest`.
 * @returns where they end, or eof when the file ended first (what was there was copied).
 */
async function copyFrom(
  reader: Reader,
  start: number,
  length: number,
  dest: Writable | undefined,
): Promise<DataEnd> {
  if (!dest) {
    // read past: only whether the file holds them all is looked at
    const last = length > 0 ? await reader.at(start + length - 1, 1) : Buffer.alloc(1);
    return { end: start + length, eof: last.length === 0 };
  }
  const failed = new Promise<never>((_resolve, reject) => dest.once('error', reject));
  failed.catch(() => {});
  let copied = 0;
  while (copied < length) {
    const chunk = await reader.at(start + copied, Math.min(CHUNK, length - copied));
    if (chunk.length === 0) break;
    copied += chunk.length;
    if (!dest.write(chunk)) await Promise.race([waitFor(dest, 'drain'), failed]);
  }
  await Promise.race([new Promise<void>((resolve) => dest.end(resolve)), failed]);
  return { end: start + copied, eof: copied < length };
}

/**
 * Zip archives written byte by byte, in the shapes other archivers make and yazl does not: entry
 * names without the UTF-8 flag (in the archiver's own code page), sizes after the data (a data
 * descriptor, with or without its signature, as a phone or a streaming archiver writes them), and
 * Zip64 records (sizes and offsets in the Zip64 extra field and end records). Read back by any
 * zip reader; the layout follows the PKWARE APPNOTE.
 */
import zlib from 'node:zlib';

/** One entry of an archive. */
export interface RawZipEntry {
  /** The name as text (written in UTF-8), or its bytes as another archiver wrote them. */
  name: string | Buffer;
  /** The content (none for a folder entry, whose name ends in `/`). */
  data?: Buffer | string;
  /** 8 deflate (the default), 0 store. */
  method?: 0 | 8;
  /** Sets the UTF-8 flag (bit 11) of the name; default: true for a text name, false for bytes. */
  utf8?: boolean;
  /**
   * Sizes and CRC after the data instead of in the local header (flag bit 3): `signed` with the
   * optional descriptor signature, `unsigned` without it. Default: in the local header.
   */
  descriptor?: 'signed' | 'unsigned';
  /** Sizes and offset in a Zip64 extra field (local and central), 0xFFFFFFFF in the 32-bit fields. */
  zip64?: boolean;
  /** The unpacked size the headers record, when not the real one (a damaged archive). */
  recordedSize?: number;
  /** The bytes of the data as they stand in the archive, when not `data` compressed (a damaged one). */
  raw?: Buffer;
}

const u16 = (n: number) => {
  const b = Buffer.alloc(2);
  b.writeUInt16LE(n);
  return b;
};
const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n >>> 0);
  return b;
};
const u64 = (n: number) => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64LE(BigInt(n));
  return b;
};
const MAX32 = 0xffffffff;
/** 2026-03-01 09:00, MS-DOS time and date. */
const DOS_TIME = (9 << 11) | (0 << 5);
const DOS_DATE = ((2026 - 1980) << 9) | (3 << 5) | 1;

/** The archive holding `entries` in order, as bytes. */
export function rawZip(entries: RawZipEntry[]): Buffer {
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  let anyZip64 = false;
  const push = (b: Buffer) => {
    parts.push(b);
    offset += b.length;
  };
  for (const e of entries) {
    const nameBytes = Buffer.isBuffer(e.name) ? e.name : Buffer.from(e.name, 'utf8');
    const utf8 = e.utf8 ?? !Buffer.isBuffer(e.name);
    const plain =
      e.data === undefined ? Buffer.alloc(0) : Buffer.isBuffer(e.data) ? e.data : Buffer.from(e.data);
    const method = e.data === undefined ? 0 : (e.method ?? 8);
    const stored = e.raw ?? (method === 8 ? zlib.deflateRawSync(plain) : plain);
    const crc = zlib.crc32(plain);
    const size = e.recordedSize ?? plain.length;
    const zip64 = e.zip64 === true;
    anyZip64 ||= zip64;
    const flags = (utf8 ? 1 << 11 : 0) | (e.descriptor ? 1 << 3 : 0);
    const version = zip64 ? 45 : 20;
    const localOffset = offset;
    // local header: with a descriptor the CRC and sizes are 0 here (written after the data)
    const inHeader = !e.descriptor;
    const localExtra = zip64
      ? Buffer.concat([u16(1), u16(16), u64(inHeader ? size : 0), u64(inHeader ? stored.length : 0)])
      : Buffer.alloc(0);
    push(
      Buffer.concat([
        u32(0x04034b50),
        u16(version),
        u16(flags),
        u16(method),
        u16(DOS_TIME),
        u16(DOS_DATE),
        u32(inHeader ? crc : 0),
        u32(zip64 ? MAX32 : inHeader ? stored.length : 0),
        u32(zip64 ? MAX32 : inHeader ? size : 0),
        u16(nameBytes.length),
        u16(localExtra.length),
        nameBytes,
        localExtra,
      ]),
    );
    push(stored);
    if (e.descriptor) {
      const sizes = zip64
        ? Buffer.concat([u64(stored.length), u64(size)])
        : Buffer.concat([u32(stored.length), u32(size)]);
      push(Buffer.concat([e.descriptor === 'signed' ? u32(0x08074b50) : Buffer.alloc(0), u32(crc), sizes]));
    }
    const centralExtra = zip64
      ? Buffer.concat([u16(1), u16(24), u64(size), u64(stored.length), u64(localOffset)])
      : Buffer.alloc(0);
    const isDir = nameBytes[nameBytes.length - 1] === 0x2f;
    central.push(
      Buffer.concat([
        u32(0x02014b50),
        u16((3 << 8) | 30),
        u16(version),
        u16(flags),
        u16(method),
        u16(DOS_TIME),
        u16(DOS_DATE),
        u32(crc),
        u32(zip64 ? MAX32 : stored.length),
        u32(zip64 ? MAX32 : size),
        u16(nameBytes.length),
        u16(centralExtra.length),
        u16(0),
        u16(0),
        u16(0),
        u32(((isDir ? 0o40755 : 0o100644) << 16) >>> 0),
        u32(zip64 ? MAX32 : localOffset),
        nameBytes,
        centralExtra,
      ]),
    );
  }
  const cdOffset = offset;
  for (const c of central) push(c);
  const cdSize = offset - cdOffset;
  if (anyZip64) {
    const eocd64Offset = offset;
    push(
      Buffer.concat([
        u32(0x06064b50),
        u64(44),
        u16((3 << 8) | 45),
        u16(45),
        u32(0),
        u32(0),
        u64(entries.length),
        u64(entries.length),
        u64(cdSize),
        u64(cdOffset),
      ]),
    );
    push(Buffer.concat([u32(0x07064b50), u32(0), u64(eocd64Offset), u32(1)]));
  }
  push(
    Buffer.concat([
      u32(0x06054b50),
      u16(0),
      u16(0),
      u16(anyZip64 ? 0xffff : entries.length),
      u16(anyZip64 ? 0xffff : entries.length),
      u32(anyZip64 ? MAX32 : cdSize),
      u32(anyZip64 ? MAX32 : cdOffset),
      u16(0),
    ]),
  );
  return Buffer.concat(parts);
}

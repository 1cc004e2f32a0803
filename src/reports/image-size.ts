/**
 * Width and height of a PNG or JPEG from its header, without decoding a pixel: a 20 000 × 20 000
 * image must be refused before a decoder allocates 400 million pixels for it.
 */
import fs from 'node:fs';

/** Pixel size, or null when the header cannot be read. */
export interface ImageSize {
  width: number;
  height: number;
}

/** Reads the size from the first 256 KiB of `file` (PNG IHDR, or a JPEG SOFn segment). */
export function imageSize(file: string): ImageSize | null {
  const fd = fs.openSync(file, 'r');
  try {
    const head = Buffer.alloc(256 * 1024);
    const n = fs.readSync(fd, head, 0, head.length, 0);
    return sizeFromBytes(head.subarray(0, n));
  } finally {
    fs.closeSync(fd);
  }
}

/** The same, from bytes already read. */
export function sizeFromBytes(b: Buffer): ImageSize | null {
  if (b.length >= 24 && b.readUInt32BE(0) === 0x89504e47 && b.toString('latin1', 12, 16) === 'IHDR') {
    return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
  }
  if (b.length < 4 || b[0] !== 0xff || b[1] !== 0xd8) return null;
  let i = 2;
  while (i + 9 < b.length) {
    if (b[i] !== 0xff) return null;
    const marker = b[i + 1];
    if (marker === 0xff) {
      i += 1;
      continue;
    }
    const len = b.readUInt16BE(i + 2);
    // SOF0..SOF15 except DHT (C4), JPG (C8) and DAC (CC) carry the frame size
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: b.readUInt16BE(i + 5), width: b.readUInt16BE(i + 7) };
    }
    i += 2 + len;
  }
  return null;
}

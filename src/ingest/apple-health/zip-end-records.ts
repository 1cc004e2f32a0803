/**
 * A look at a zip's end records before yauzl reads them. yauzl follows the Zip64 end locator and
 * record to wherever their 64-bit offsets point; an offset past 2^53 (damaged bytes) makes its
 * file read throw outside any callback, so the upload would neither be read nor refused. Such an
 * archive's directory is not used: it is read front to back instead (zip-walk-export.ts).
 */
import fs from 'node:fs/promises';

const END = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_END = 0x06064b50;
/** The end record with the longest comment, and the Zip64 locator before it. */
const TAIL = 22 + 0xffff + 20;

/**
 * Why the Zip64 end records of the zip `file` cannot be followed (an offset past the file), or
 * undefined when they can, or there are none (yauzl then reads the archive, or refuses it itself).
 */
export async function zip64EndOutside(file: string): Promise<string | undefined> {
  const fd = await fs.open(file, 'r');
  try {
    const size = (await fd.stat()).size;
    const start = Math.max(0, size - TAIL);
    const tail = Buffer.alloc(size - start);
    await fd.read(tail, 0, tail.length, start);
    let end = -1;
    for (let i = tail.length - 22; i >= 0; i--) {
      if (tail.readUInt32LE(i) === END) {
        end = i;
        break;
      }
    }
    if (end < 20 || tail.readUInt32LE(end - 20) !== ZIP64_LOCATOR) return undefined;
    const record = tail.readBigUInt64LE(end - 20 + 8);
    if (record + 56n > BigInt(size)) return 'its Zip64 end record is said to be past the end of the file';
    const head = Buffer.alloc(56);
    await fd.read(head, 0, 56, Number(record));
    if (head.readUInt32LE(0) !== ZIP64_END) return undefined;
    const directory = head.readBigUInt64LE(48);
    if (directory > BigInt(size)) return 'its directory is said to be past the end of the file';
    return undefined;
  } finally {
    await fd.close();
  }
}

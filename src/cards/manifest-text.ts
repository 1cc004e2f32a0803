/**
 * The text of a card file's bytes. A card file is saved by whatever editor its owner uses: most
 * write UTF-8, some with a byte order mark, and Windows editors often write UTF-16 (Notepad's
 * "Unicode" and "Unicode big endian", Windows PowerShell's `>` and Out-File), with a byte order
 * mark or, more rarely, without one. Each reads as the same text here; the server writes the file
 * back as UTF-8 the next time it saves it.
 */
import type { JsonShapeProblem } from '../common/json-guard.js';
import { decodeUtf8Strict, jsonPathAt } from '../common/json-text.js';

/** A UTF-16 byte order. */
type Utf16 = 'utf-16le' | 'utf-16be';

const STRICT_UTF16: Record<Utf16, TextDecoder> = {
  'utf-16le': new TextDecoder('utf-16le', { fatal: true }),
  'utf-16be': new TextDecoder('utf-16be', { fatal: true }),
};
const LOOSE_UTF16: Record<Utf16, TextDecoder> = {
  'utf-16le': new TextDecoder('utf-16le'),
  'utf-16be': new TextDecoder('utf-16be'),
};

/**
 * The UTF-16 byte order of `bytes`, or undefined for UTF-8. A byte order mark says it; without
 * one, JSON text starts with a character of ASCII (a space or `{`), which in UTF-16 is a zero
 * byte beside a non-zero one, and in UTF-8 JSON a zero byte is never there.
 */
function utf16Order(bytes: Uint8Array): Utf16 | undefined {
  if (bytes.length < 2) return undefined;
  const [a, b] = bytes;
  if (a === 0xff && b === 0xfe) return 'utf-16le';
  if (a === 0xfe && b === 0xff) return 'utf-16be';
  if (a !== 0 && b === 0) return 'utf-16le';
  if (a === 0 && b !== 0) return 'utf-16be';
  return undefined;
}

/** Byte offset of the first unpaired surrogate in UTF-16 `bytes` (or of a last lone byte), or -1. */
function firstInvalidUtf16(bytes: Uint8Array, order: Utf16): number {
  const unit = (i: number) =>
    order === 'utf-16le' ? bytes[i] | (bytes[i + 1] << 8) : (bytes[i] << 8) | bytes[i + 1];
  for (let i = 0; i + 1 < bytes.length; i += 2) {
    const u = unit(i);
    if (u >= 0xdc00 && u <= 0xdfff) return i;
    if (u >= 0xd800 && u <= 0xdbff) {
      const next = i + 3 < bytes.length ? unit(i + 2) : -1;
      if (next < 0xdc00 || next > 0xdfff) return i;
      i += 2;
    }
  }
  return bytes.length % 2 === 1 ? bytes.length - 1 : -1;
}

/**
 * Decodes a card file's bytes (see the file comment); a byte order mark is not part of the text.
 * @returns the text, or `{problem}` naming the JSON field that holds the first byte that is
 *   neither UTF-8 nor, in a UTF-16 file, UTF-16 (a save cut short in the middle of a character).
 */
export function decodeManifestText(
  bytes: Uint8Array,
): { text: string; problem?: undefined } | { text?: undefined; problem: JsonShapeProblem } {
  const order = utf16Order(bytes);
  if (order === undefined) return decodeUtf8Strict(bytes);
  const at = firstInvalidUtf16(bytes, order);
  if (at < 0) return { text: STRICT_UTF16[order].decode(bytes) };
  const before = LOOSE_UTF16[order].decode(bytes.subarray(0, at));
  return {
    problem: {
      path: jsonPathAt(before, before.length),
      message: `holds bytes that are not UTF-16 text (at byte ${at}); save the file as UTF-8`,
    },
  };
}

/**
 * What a card file's bytes parse to, for a quick look (which id it names, whether it is whole
 * yet), or undefined when they are no JSON text.
 */
export function parseManifestLoosely(bytes: Uint8Array): unknown {
  const { text } = decodeManifestText(bytes);
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    // not whole yet, or broken: the loader reports it when it reads the file
    return undefined;
  }
}

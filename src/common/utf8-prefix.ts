/**
 * The start of a text that fits a number of UTF-8 bytes or of UTF-16 units, cut where a person
 * sees a character end. A plain `slice(0, n)` can end between the two halves of an emoji (a
 * lone surrogate that strict JSON parsers refuse); a cut of the encoded bytes (`Buffer.subarray(0, n).toString()`) can fall inside a multi-byte
 * character (ü is two bytes, € three, an emoji four), which decodes as U+FFFD, or inside a
 * cluster (half a family emoji, an accent without its letter). Shared by the server and the
 * browser: no Node imports.
 */
import { splitGraphemes } from './graphemes.js';

const encoder = new TextEncoder();

/** How far around the cut clusters are looked at (no cluster is longer, in UTF-16 units). */
const CLUSTER_REACH = 64;

/**
 * Where the user-perceived character that `cut` (a UTF-16 index) falls in starts: `cut` itself
 * when it lies between two characters. Only the clusters around the cut are looked at.
 */
function clusterStart(text: string, cut: number): number {
  const from = Math.max(0, cut - CLUSTER_REACH);
  let at = from;
  let keep = from;
  for (const c of splitGraphemes(text.slice(from, cut + CLUSTER_REACH))) {
    if (at + c.length > cut) break;
    at += c.length;
    keep = at;
  }
  if (keep > from || from === 0) return keep;
  // a cluster longer than the window (a letter under many marks): at least never split a pair
  const low = text.charCodeAt(cut);
  return cut > 0 && low >= 0xdc00 && low <= 0xdfff ? cut - 1 : cut;
}

/**
 * The longest start of `text` whose UTF-8 encoding has at most `maxBytes` bytes and that ends
 * between two user-perceived characters; `text` itself when it fits.
 */
export function utf8Prefix(text: string, maxBytes: number): string {
  const bytes = encoder.encode(text);
  if (bytes.length <= maxBytes) return text;
  let end = Math.max(0, Math.floor(maxBytes));
  // back off to the first byte of a character (continuation bytes are 10xxxxxx)
  while (end > 0 && (bytes[end] & 0xc0) === 0x80) end--;
  const cut = new TextDecoder().decode(bytes.subarray(0, end)).length;
  return text.slice(0, clusterStart(text, cut));
}

/**
 * The longest start of `text` of at most `maxUnits` UTF-16 units that ends between two
 * user-perceived characters (never inside an emoji's surrogate pair); `text` itself when it fits.
 * For long texts cut to a size (a report's text, a prompt), where counting characters would cost
 * more than it tells.
 */
export function unitPrefix(text: string, maxUnits: number): string {
  if (text.length <= maxUnits) return text;
  return text.slice(0, clusterStart(text, Math.max(0, Math.floor(maxUnits))));
}

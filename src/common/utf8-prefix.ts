/**
 * The start of a text that fits a number of UTF-8 bytes, cut where a person sees a character end.
 * A cut of the encoded bytes (`Buffer.subarray(0, n).toString()`) can fall inside a multi-byte
 * character (ü is two bytes, € three, an emoji four), which decodes as U+FFFD, or inside a
 * cluster (half a family emoji, an accent without its letter). Shared by the server and the
 * browser: no Node imports.
 */
import { splitGraphemes } from './graphemes.js';

const encoder = new TextEncoder();

/** How far around the cut clusters are looked at (no cluster is longer, in UTF-16 units). */
const CLUSTER_REACH = 64;

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
  // and to the start of the cluster the cut falls in
  const from = Math.max(0, cut - CLUSTER_REACH);
  let at = from;
  let keep = from;
  for (const c of splitGraphemes(text.slice(from, cut + CLUSTER_REACH))) {
    if (at + c.length > cut) break;
    at += c.length;
    keep = at;
  }
  // the window's first cluster may have started before it: only trust boundaries after it
  return text.slice(0, keep === from && from > 0 ? cut : keep);
}

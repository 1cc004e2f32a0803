/**
 * A string that owns its characters. V8 makes a substring of 13 characters or more as a view
 * into the string it was cut from, and the view keeps that whole string alive: a timestamp cut by
 * stream-json from a 64 KiB chunk of a streamed body keeps the chunk (128 KB when the chunk holds
 * a character beyond Latin-1, like the U+2019 of `User’s Apple Watch`) in memory for as long as
 * the timestamp lives. A long-lived cache or table keyed by such strings must store a copy.
 */

/**
 * `s` with the same characters, not sharing memory with any larger string (concatenating makes a
 * new string; slicing it flattens that into fresh characters of its own). About 50 ns: for keys
 * kept beyond one chunk of work, not for every value.
 */
export function ownString(s: string): string {
  return ` ${s}`.slice(1);
}

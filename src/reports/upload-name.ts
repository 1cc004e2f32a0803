/**
 * The file name of an upload, as sent in the `X-Klebb-Filename` header (URL-encoded, so any
 * Unicode name fits in a header): decoded, checked, and turned into a safe stem for the report's
 * own name. A browser sends a bare file name; a name with a path separator, a control character,
 * a bidirectional embedding/override/isolate control (U+202A–U+202E, U+2066–U+2069: they make a
 * name show another extension than its real one) or a stem with nothing visible did not come
 * from a file picker and is refused rather than guessed at. Right-to-left letters themselves are
 * fine. Spaces and invisible formatting characters around the name (a trailing space a phone's
 * rename left, a zero-width space pasted with it) are no part of it and are trimmed first.
 */
import { hasVisibleName, trimInvisible } from '../common/control-characters.js';
import { badRequest } from '../errors.js';

/** The file kinds a report can be made from, by extension. */
export const REPORT_EXTENSIONS = ['pdf', 'png', 'jpg', 'jpeg', 'txt', 'md', 'csv', 'docx'] as const;
export type ReportExtension = (typeof REPORT_EXTENSIONS)[number];

/** A checked upload name: the name as the person knows it, its safe stem and its extension. */
export interface UploadName {
  /** The decoded file name, shown back to the person (at most 200 characters). */
  original: string;
  /** `[a-z0-9-]`, 1 to 60 characters, used in the report's name. */
  stem: string;
  ext: ReportExtension;
}

const HEADER = 'headers.x-klebb-filename';

function refuse(message: string): never {
  throw badRequest(message, [{ path: HEADER, message }], 'BAD_FILENAME');
}

function unsupported(why: string): never {
  const message = `${why}: send a PDF, PNG, JPEG, TXT, MD, CSV or DOCX file`;
  throw badRequest(message, [{ path: HEADER, message }], 'UNSUPPORTED_FILE_TYPE');
}

/** Lower-case ASCII letters, digits and single hyphens; accents dropped, the rest a hyphen. */
export function safeStem(stem: string): string {
  const ascii = stem
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return ascii || 'report';
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * A header value as the name it spells. HTTP hands a header's bytes over one character per byte
 * (Latin-1); a name sent without URL-encoding (curl -H, a script setting the header to the name)
 * arrives as its UTF-8 bytes, so "Ärztebrief 😀.txt" would read as mojibake holding C1 control
 * characters. Bytes that form valid UTF-8 are read as UTF-8; others (a Latin-1 "März", one
 * byte per letter) stay as they came.
 */
function utf8Header(value: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: bytes above ASCII are what is looked for
  if (!/[\u0080-\u00ff]/.test(value) || /[^\u0000-\u00ff]/.test(value)) return value;
  try {
    return UTF8.decode(Buffer.from(value, 'latin1'));
  } catch {
    return value;
  }
}

/**
 * Reads the header value.
 * @throws 400 BAD_FILENAME (naming `headers.x-klebb-filename`) for a value that does not decode,
 *   holds a control character, a bidirectional override or a path separator, is too long, or has
 *   nothing visible before its extension; 400 UNSUPPORTED_FILE_TYPE for no extension or one not in
 *   REPORT_EXTENSIONS, named as it was written.
 */
export function parseUploadName(header: string): UploadName {
  let name: string;
  try {
    name = decodeURIComponent(utf8Header(header).trim());
  } catch {
    refuse('X-Klebb-Filename is not a valid URL-encoded file name');
  }
  if (name === '') refuse('X-Klebb-Filename is empty');
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (/[\u0000-\u001f\u007f-\u009f]/.test(name)) refuse('the file name holds a control character');
  if (/[/\\]/.test(name)) refuse('the file name holds a path separator: send the bare file name');
  // an embedding, override or isolate control reorders what follows: "results\u202Efdp.txt" shows as
  // "resultstxt.pdf", hiding the extension the file really has; a file picker's name has none
  if (/[\u202a-\u202e\u2066-\u2069]/.test(name)) {
    refuse('the file name holds a character that reverses how it reads (a right-to-left override)');
  }
  name = trimInvisible(name);
  if (name === '') refuse('the file name is blank');
  if ([...name].length > 200) refuse('the file name is longer than 200 characters');
  const dot = name.lastIndexOf('.');
  if (dot === -1 || dot === name.length - 1) {
    const why = dot === -1 ? 'has no extension' : 'ends in a dot, so it has no extension';
    unsupported(`the file name "${name}" ${why}`);
  }
  const stem = name.slice(0, dot);
  const written = name.slice(dot + 1);
  const ext = written.toLowerCase();
  if (!hasVisibleName(stem)) refuse(`the file name has no name before its extension ".${written}"`);
  if (!(REPORT_EXTENSIONS as readonly string[]).includes(ext))
    unsupported(`".${written}" files cannot be read`);
  return { original: name, stem: safeStem(stem), ext: ext as ReportExtension };
}

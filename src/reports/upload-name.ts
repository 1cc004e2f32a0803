/**
 * The file name of an upload, as sent in the `X-Klebb-Filename` header (URL-encoded, so any
 * Unicode name fits in a header): decoded, checked, and turned into a safe stem for the report's
 * own name. A browser sends a bare file name; a name with a path separator, a control character,
 * a bidirectional embedding/override/isolate control (U+202A–U+202E, U+2066–U+2069: they make a
 * name show another extension than its real one) or a dot-only stem did not come from a file
 * picker and is refused rather than guessed at. Right-to-left letters themselves are fine.
 */
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

/**
 * Reads the header value.
 * @throws 400 BAD_FILENAME (naming `headers.x-klebb-filename`) for a value that does not decode,
 *   holds a control character, a bidirectional override or a path separator, is too long, or has no stem;
 *   400 UNSUPPORTED_FILE_TYPE for an extension not in REPORT_EXTENSIONS.
 */
export function parseUploadName(header: string): UploadName {
  let name: string;
  try {
    name = decodeURIComponent(header.trim());
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
  if ([...name].length > 200) refuse('the file name is longer than 200 characters');
  const dot = name.lastIndexOf('.');
  const stem = dot > 0 ? name.slice(0, dot) : '';
  const ext = dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
  if (/^\.*$/.test(stem)) refuse('the file name has no name before its extension');
  if (!(REPORT_EXTENSIONS as readonly string[]).includes(ext)) {
    const message = `".${ext || name}" files cannot be read: send a PDF, PNG, JPEG, TXT, MD, CSV or DOCX file`;
    throw badRequest(message, [{ path: HEADER, message }], 'UNSUPPORTED_FILE_TYPE');
  }
  return { original: name, stem: safeStem(stem), ext: ext as ReportExtension };
}

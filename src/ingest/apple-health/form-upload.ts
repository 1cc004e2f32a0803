/**
 * A file sent inside an HTML form (`multipart/form-data`: `curl -F file=@export.zip`, a browser
 * form) instead of as the body itself. Told by its Content-Type, the form is parsed as it arrives
 * (busboy) and its first file part is handed on as a stream, to be spooled like a raw body; other
 * fields are read past. A form with more than one file part is refused once it is read (which
 * file is the export is not guessed: the Health app's folder also holds export_cda.xml). A form body whose Content-Type was lost
 * on the way (e.g. by a proxy) cannot be split without its boundary, and is told by its first
 * bytes and refused with 415 and the command that sends the file as it is.
 */

import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import type busboy from 'busboy';
import { fieldPath } from '../../common/field-path.js';
import { badRequest, KlebbError } from '../../errors.js';
import { lazyRequire } from '../../lazy-module.js';

/** The form parser, loaded with the first form upload. */
const formLib = lazyRequire<typeof busboy>('busboy');

/** A file part of a form: its field name and file name. */
export interface FormFilePart {
  field: string;
  filename: string;
}

/** The first file part of a form, and what the rest of the form held. */
export interface FormFile {
  /** The first file part's content, a stream to be read to its end. */
  stream: Readable;
  /**
   * Every file part of the form, the first included; settles once the whole form is read (so
   * only after `stream` was read to its end).
   */
  allFiles: Promise<FormFilePart[]>;
}

/**
 * Parses the form `body` (its request `headers` give the boundary) and resolves with its first
 * file part (the rest of the form is read past as the stream is read).
 * @throws 400 BAD_REQUEST for a form with no file part (naming the field to use) or one that does
 *   not parse.
 */
export function firstFormFile(body: Readable, headers: IncomingHttpHeaders): Promise<FormFile> {
  let settleAll: (parts: FormFilePart[]) => void = () => {};
  const allFiles = new Promise<FormFilePart[]>((r) => {
    settleAll = r;
  });
  const parts: FormFilePart[] = [];
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = formLib()({ headers, limits: { fields: 100, fieldSize: 64 * 1024 } });
    } catch (err) {
      body.on('error', () => {});
      body.resume();
      reject(badRequest(`the form upload cannot be read: ${(err as Error).message}`));
      return;
    }
    let found = false;
    parser.on('file', (name, file, info) => {
      parts.push({ field: name, filename: info.filename ?? '' });
      if (found) {
        // a later file is only counted (formFilesRefused); its bytes are read past
        file.resume();
        return;
      }
      found = true;
      resolve({ stream: file, allFiles });
    });
    parser.on('error', (err: Error) => {
      settleAll(parts);
      if (!found) reject(badRequest(`the form upload cannot be read: ${err.message}`));
    });
    parser.on('close', () => {
      settleAll(parts);
      if (!found)
        reject(
          badRequest(
            'the form has no file part: send the export as a file field, e.g. curl -F file=@export.zip (or the file itself as the body)',
          ),
        );
    });
    body.on('error', (err) => parser.destroy(err));
    body.pipe(parser);
  });
}

/**
 * The 400 for a form of more than one file part, naming each field (and file name).
 */
export function formFilesRefused(parts: FormFilePart[]): KlebbError {
  const named = parts.map((p) => `"${p.field}"${p.filename ? ` (${p.filename})` : ''}`).join(', ');
  return badRequest(
    `the form has ${parts.length} file parts (${named}): send one file, the export.zip or export.xml, e.g. curl -F file=@export.zip; nothing was imported`,
    parts.map((p) => ({ path: fieldPath('body', [p.field]), message: 'one file part only: the export' })),
  );
}

/** True for a `multipart/…` Content-Type (form-data, mixed). */
export function isMultipartType(contentType: string | undefined): boolean {
  return typeof contentType === 'string' && /^\s*multipart\//i.test(contentType);
}

/**
 * True when `head` (a body's first bytes) is a form part: a boundary line (`--…`) and, within the
 * first part's headers, `Content-Disposition: form-data`.
 */
export function looksLikeFormBody(head: Buffer): boolean {
  if (head.length < 4 || head[0] !== 0x2d || head[1] !== 0x2d) return false;
  const text = head.toString('latin1');
  const headersEnd = text.indexOf('\r\n\r\n');
  const headers = headersEnd < 0 ? text : text.slice(0, headersEnd);
  return /\r?\ncontent-disposition:\s*form-data/i.test(headers);
}

/** The 415 for a form body without its Content-Type, saying how to send the file itself. */
export function formUploadRefused(): KlebbError {
  return new KlebbError(
    415,
    'UNSUPPORTED_MEDIA_TYPE',
    'this is a form upload (multipart/form-data) sent without its Content-Type, so its file cannot be found: send it with its Content-Type (curl -F file=@export.zip does), or send the file itself as the request body, e.g. curl --data-binary @export.zip (not curl -F); export.zip, export.xml and a gzip-compressed export.xml are read as they are',
  );
}

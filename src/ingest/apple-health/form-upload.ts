/**
 * A file sent inside an HTML form (`multipart/form-data`: `curl -F file=@export.zip`, a browser
 * form) instead of as the body itself. Such a body wraps the file in boundary lines and part
 * headers, which read as text outside the XML root and then as no export at all. It is refused
 * with 415 and the command that sends the file as it is, told by its Content-Type before a byte
 * is read, or (the type lost on the way, e.g. by a proxy) by the body's first bytes.
 */
import { KlebbError } from '../../errors.js';

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

/** The 415 for a form upload, saying how to send the file itself. */
export function formUploadRefused(): KlebbError {
  return new KlebbError(
    415,
    'UNSUPPORTED_MEDIA_TYPE',
    'this is a form upload (multipart/form-data), which wraps the file: send the file itself as the request body, e.g. curl --data-binary @export.zip (not curl -F); export.zip, export.xml and a gzip-compressed export.xml are read as they are',
  );
}

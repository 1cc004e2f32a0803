/**
 * What Settings › Data says when an archive is refused or an import did not complete: one plain
 * sentence per kind of refusal (the API's `code`), never the unzip library's or the checker's
 * own words (a file name inside the archive, a header signature). Codes not listed here carry a
 * message already written for people (REPLACE not typed, another import running) and are shown
 * as they are.
 */

import { lookupTable } from '../../src/common/lookup-table.js';

const BROKEN = 'This Klebb export is damaged or was changed after it was made, so it cannot be imported.';

const PLAIN = lookupTable<string>({
  ZIP_NOT_A_ZIP: 'This file is not a Klebb export (not a zip archive).',
  ZIP_UNSAFE_NAME:
    'This archive holds a file Klebb will not unpack (its name is unsafe), so it is not imported.',
  ZIP_SYMLINK: 'This archive holds a link Klebb will not unpack, so it is not imported.',
  ZIP_NOT_A_FILE: 'This archive holds something that is not a plain file, so it is not imported.',
  ZIP_ENCRYPTED: 'This archive is password-protected; a Klebb export never is.',
  ZIP_METHOD: 'This archive is packed in a way Klebb does not read; a Klebb export never is.',
  ZIP_DUPLICATE: BROKEN,
  ZIP_TOO_MANY: 'This archive holds too many files to be a Klebb export.',
  ZIP_TOO_LARGE: 'This archive unpacks to more than Klebb imports at once.',
  ZIP_RATIO: 'This archive unpacks to far more than its size, so it is not imported.',
  ZIP_CORRUPT: BROKEN,
  IMPORT_NO_MANIFEST: 'This zip archive is not a Klebb export (it lacks the list of its contents).',
  IMPORT_MANIFEST_TOO_LARGE: BROKEN,
  IMPORT_WRONG_FORMAT: 'This zip archive is not a Klebb export.',
  IMPORT_WRONG_VERSION: 'This export was made by a newer Klebb; update this one to import it.',
  IMPORT_BAD_MANIFEST: BROKEN,
  IMPORT_INVENTORY_MISMATCH: BROKEN,
  IMPORT_CHECKSUM: BROKEN,
  IMPORT_ROW_COUNT: BROKEN,
  IMPORT_BAD_ROW: BROKEN,
  IMPORT_BAD_CARD: BROKEN,
  SELECTION_EMPTY:
    'Nothing is chosen: tick at least one card, or health samples, conversations or reports, to import.',
});

/** The sentence to show for a refusal with `code` and the API's `message`. */
export function importProblemText(code: string | undefined, message: string): string {
  const plain = code ? PLAIN[code] : undefined;
  if (plain) return plain;
  const text = message.trim();
  return text ? text.charAt(0).toUpperCase() + text.slice(1) : 'The import did not complete.';
}

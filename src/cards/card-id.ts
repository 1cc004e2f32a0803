/**
 * Card id rules of the create path (docs/API.md "Create a card";
 * docs/MANIFEST-SCHEMA.md `meta.id`) and the id → file path mapping. Loading is lenient on id format and does
 * not call `checkCardId`.
 */
import path from 'node:path';
import { type FieldError, invalid } from '../errors.js';
import { MAX_CARD_ID_CHARS, RESERVED_CARD_IDS } from '../limits.js';
import { isManifestFileName } from './manifest-file.js';

/** The id pattern of the create path. */
export const CARD_ID_PATTERN = /^[a-z0-9][a-z0-9._-]*$/;

/**
 * Checks a would-be `meta.id` against docs/API.md rules, in this order: a non-empty
 * string; not a reserved name (`_archive`, `_virtual`, `_meta`, `auto-export`, `reports`,
 * `index`); at most 64 characters; matches `/^[a-z0-9][a-z0-9._-]*$/`; no `.json.` in it (the
 * file `<id>.json` would be named like a backup, `<name>.json.<stamp>.json`, which the loader
 * passes over, so the card would be gone at the next start).
 * Returns null when the id is acceptable, else one `FieldError` at path `meta.id` whose message
 * says which rule failed. A failure maps to HTTP 422 (docs/API.md status table).
 */
export function checkCardId(id: unknown): FieldError | null {
  const fail = (message: string): FieldError => ({ path: 'meta.id', message });
  if (typeof id !== 'string' || id === '') return fail('meta.id must be a non-empty string');
  if ((RESERVED_CARD_IDS as readonly string[]).includes(id)) {
    return fail(`meta.id "${id}" is a reserved name (reserved: ${RESERVED_CARD_IDS.join(', ')})`);
  }
  if (id.length > MAX_CARD_ID_CHARS) {
    return fail(`meta.id must be at most ${MAX_CARD_ID_CHARS} characters (got ${id.length})`);
  }
  if (!CARD_ID_PATTERN.test(id)) {
    return fail(
      'meta.id must match /^[a-z0-9][a-z0-9._-]*$/: lowercase letters, digits, ".", "_" and "-", ' +
        'starting with a letter or digit',
    );
  }
  if (!isManifestFileName(`${id}.json`)) {
    return fail(
      `meta.id "${id}" must not contain ".json.": its file would be named like a backup (<name>.json.<stamp>.json), which is not loaded`,
    );
  }
  return null;
}

/**
 * The absolute path of a card's manifest file, `<dataDir>/<id>.json` ("resolved
 * path must stay inside data dir"). `dataDir` may be relative; it is resolved first.
 * Throws a KlebbError 422 (`invalid`, detail at `meta.id`) when the id is empty, contains a NUL,
 * `/` or `\`, starts with "." (the loader skips dot-files, so such a card would vanish), or the
 * resolved file is not directly inside `dataDir`. It does not apply the create-path format rules:
 * call `checkCardId` for those.
 */
export function cardFilePath(dataDir: string, id: string): string {
  const reject = (why: string) => {
    const message = `meta.id ${why}`;
    return invalid(message, [{ path: 'meta.id', message }]);
  };
  if (typeof id !== 'string' || id === '') throw reject('must be a non-empty string');
  if (/[\0/\\]/.test(id)) throw reject('must not contain path separators or NUL');
  if (id.startsWith('.')) throw reject('must not start with "."');
  const dir = path.resolve(dataDir);
  const file = path.resolve(dir, `${id}.json`);
  if (path.dirname(file) !== dir || path.basename(file) !== `${id}.json`) {
    throw reject('resolves outside the data directory');
  }
  return file;
}

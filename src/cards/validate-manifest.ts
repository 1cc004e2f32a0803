/**
 * Manifest validation entry points: strict for create (POST /api/manifests, create_manifest) and
 * patch (patch_manifest, PATCH), lenient for load, and the dry run of the `validate_manifest`
 * tool. Rules: docs/MANIFEST-SCHEMA.md (format, every meta field) and docs/API.md (status codes,
 * `meta.id`). The rules themselves live in the `validate-*.ts` modules listed by manifest-rules.ts.
 */
import type { FieldError } from '../errors.js';
import { checkCardId } from './card-id.js';
import { describeValue, type Issue, isPlainObject, toFieldErrors } from './field-issues.js';
import { coreIssues, type ManifestRuleOptions, optionalFieldIssues } from './manifest-rules.js';
import { rendererShapeErrors } from './renderer-shape.js';
import { oneLineIssues } from './validate-one-line.js';
import { checkDataSchedules } from './validate-schedule.js';
import { textLengthIssues } from './validate-text-lengths.js';

export { isKnownCategory, KNOWN_CATEGORIES, type KnownCategory } from './categories.js';
export type { ManifestRuleOptions } from './manifest-rules.js';
export {
  CURRENT_MANIFEST_SCHEMA_ID,
  isManifestSchemaId,
  MANIFEST_SCHEMA_IDS,
  type ManifestSchemaId,
} from './manifest-schema-id.js';
export { COMBINATION_ROLES, rendererShapeErrors } from './renderer-shape.js';
export { loadNotes, type SanitizeResult, sanitizeAtLoad } from './sanitize-at-load.js';

/**
 * Result of a strict validation. `malformed` non-empty → HTTP 400 (bad JSON,
 * wrong `$schema`, missing `meta.id` / `meta.label`); else `invalid` non-empty → HTTP 422.
 */
export interface ManifestValidation {
  malformed: FieldError[];
  invalid: FieldError[];
}

/** Options of `validateForPatch`. */
export interface PatchValidateOptions extends ManifestRuleOptions {
  /**
   * The card's id before the patch. When given, `meta.id` must still equal it (a patch cannot
   * rename a card) and its format is not re-checked, so a card loaded leniently with an old-style
   * id stays patchable. When absent, the create-path id rules apply.
   */
  originalId?: string;
}

function malformedIssues(m: unknown): Issue[] {
  const issues = coreIssues(m);
  if (isPlainObject(m) && typeof m.data === 'string') {
    issues.push({
      path: ['data'],
      message: 'data must be JSON (an array, object, number ...), not a JSON-encoded string',
    });
  }
  return issues;
}

function validate(
  m: unknown,
  opts: PatchValidateOptions,
  idRule: (id: string) => Issue[],
): ManifestValidation {
  const malformed = toFieldErrors(malformedIssues(m));
  if (!isPlainObject(m) || !isPlainObject(m.meta)) return { malformed, invalid: [] };
  // a text over its length limit, or a name with a line break, is refused like a malformed
  // field (400), naming it
  malformed.push(...toFieldErrors([...textLengthIssues(m, m.meta), ...oneLineIssues(m.meta)]));
  const invalid: Issue[] = [];
  if (typeof m.meta.id === 'string' && m.meta.id !== '') invalid.push(...idRule(m.meta.id));
  invalid.push(...optionalFieldIssues(m, m.meta, opts), ...checkDataSchedules(m.data));
  return { malformed, invalid: toFieldErrors(invalid) };
}

function createIdRule(id: string): Issue[] {
  const e = checkCardId(id);
  return e ? [{ path: ['meta', 'id'], message: e.message }] : [];
}

/**
 * Strict check of a full manifest for creation. Input: the parsed request body (anything).
 * `malformed` (400): not an object; `$schema` missing or not in `MANIFEST_SCHEMA_IDS`; `meta` not
 * an object; `meta.id` / `meta.label` missing or empty; `data` a string; a label, description,
 * input label, placeholder or option longer than src/limits.ts allows; a label, input text or
 * reminder label/title with a line break or control character (validate-one-line.ts). `invalid`
 * (422): the id
 * rules of `checkCardId`, every optional field of docs/MANIFEST-SCHEMA.md (see
 * manifest-rules.ts) and `schedule.time_of_day` in `data.items[]` / `data.current[]`. Unknown
 * fields pass. Paths are dotted with indexes (`meta.notifications.items[2].title`).
 * Not checked here: id uniqueness (409, the registry's job) and the path escape (`cardFilePath`).
 */
export function validateForCreate(m: unknown, opts: ManifestRuleOptions = {}): ManifestValidation {
  return validate(m, opts, createIdRule);
}

/**
 * Strict check of a manifest after a merge patch has been applied (input: the merged manifest).
 * Same rules and result as `validateForCreate`, except for `meta.id` when `opts.originalId` is
 * given (see `PatchValidateOptions`).
 */
export function validateForPatch(merged: unknown, opts: PatchValidateOptions = {}): ManifestValidation {
  const { originalId } = opts;
  if (originalId === undefined) return validate(merged, opts, createIdRule);
  return validate(merged, opts, (id) =>
    id === originalId
      ? []
      : [
          {
            path: ['meta', 'id'],
            message: `meta.id cannot be changed by a patch (was "${originalId}", got ${describeValue(id)})`,
          },
        ],
  );
}

/**
 * The `validate_manifest` tool's dry run: the create validator plus
 * `rendererShapeErrors`, as `{ok: true}` or `{ok: false, errors}` (malformed first, one error per
 * path and message).
 */
export function dryRunValidate(
  m: unknown,
  opts: ManifestRuleOptions = {},
): { ok: true } | { ok: false; errors: FieldError[] } {
  const { malformed, invalid } = validateForCreate(m, opts);
  const errors = [...malformed, ...invalid];
  const seenPaths = new Set(errors.map((e) => e.path));
  for (const e of rendererShapeErrors(m)) if (!seenPaths.has(e.path)) errors.push(e);
  return errors.length === 0 ? { ok: true } : { ok: false, errors };
}

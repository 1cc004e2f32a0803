/**
 * Lenient loading of a manifest file ("Load path is lenient"; bad
 * `ingest` / `cadence` / notification items / category are dropped at load and the card still
 * renders). Pure: the caller reads the file and decides what to do with the result.
 */
import type { LoadError } from '../common/view-types.js';
import type { FieldError } from '../errors.js';
import { formatPath, type Issue, isPlainObject, type Segment } from './field-issues.js';
import { readHandSpellings } from './hand-spellings.js';
import { coreIssues, type ManifestRuleOptions, optionalFieldIssues } from './manifest-rules.js';
import { checkDataSchedules } from './validate-schedule.js';

/** The outcome of `sanitizeAtLoad`. */
export interface SanitizeResult {
  /** A deep copy of the input with each failing optional field removed. */
  manifest: Record<string, unknown>;
  /**
   * One entry per removed field: `path` is the removed field, `message` the reason(s). Also lists
   * core problems (`$schema`, `meta`, `meta.id`, `meta.label`) that were NOT fixed: the caller
   * must refuse to register such a manifest.
   */
  dropped: FieldError[];
  /**
   * Fields kept as written that cannot work as they stand (an input whose `min` is above its
   * `max`, a `select` without options, a key two inputs fill): the rules that report them drop
   * nothing, so a hand-written card still loads; the loader lists them (FIELD_UNUSABLE).
   */
  unusable: FieldError[];
  /**
   * Problems left in place on purpose: the `data` block (user rows) is never pruned. Also notes a
   * JSON-string `data` that held an array or object and was parsed ("rescued with a warning",
   * docs/MANIFEST-SCHEMA.md); any other string is a primitive `data` and stays as is.
   */
  warnings: FieldError[];
}

interface Removal {
  path: Segment[];
  reasons: string[];
}

function isPrefix(a: Segment[], b: Segment[]): boolean {
  return a.length < b.length && a.every((s, i) => s === b[i]);
}

function parentOf(root: unknown, path: Segment[]): unknown {
  let node = root;
  for (const seg of path.slice(0, -1)) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string | number, unknown>)[seg];
  }
  return node;
}

/** Merges issues into one removal per path, folding a removal inside another into the outer one. */
function planRemovals(issues: Issue[]): Removal[] {
  const byPath = new Map<string, Removal>();
  for (const issue of issues) {
    for (const drop of issue.drops ?? []) {
      const key = JSON.stringify(drop);
      const r = byPath.get(key) ?? { path: drop, reasons: [] };
      if (!r.reasons.includes(issue.message)) r.reasons.push(issue.message);
      byPath.set(key, r);
    }
  }
  const all = [...byPath.values()];
  return all.filter((r) => {
    const outer = all.find((o) => isPrefix(o.path, r.path));
    if (outer) outer.reasons.push(...r.reasons.filter((m) => !outer.reasons.includes(m)));
    return !outer;
  });
}

/** Removes each planned path from `root`; array indexes are the original ones. */
function applyRemovals(root: Record<string, unknown>, removals: Removal[]): Removal[] {
  const done: Removal[] = [];
  const arrayHits = new Map<unknown[], number[]>();
  const keyHits: Array<[Record<string, unknown>, string]> = [];
  for (const r of removals) {
    const parent = parentOf(root, r.path);
    const last = r.path[r.path.length - 1];
    if (Array.isArray(parent) && typeof last === 'number' && last < parent.length) {
      arrayHits.set(parent, [...(arrayHits.get(parent) ?? []), last]);
    } else if (isPlainObject(parent) && typeof last === 'string' && Object.hasOwn(parent, last)) {
      keyHits.push([parent, last]);
    } else continue;
    done.push(r);
  }
  for (const [obj, key] of keyHits) delete obj[key];
  for (const [arr, indexes] of arrayHits) {
    for (const i of [...new Set(indexes)].sort((a, b) => b - a)) arr.splice(i, 1);
  }
  return done;
}

/**
 * Lenient load check. Input: a parsed manifest object (the loader has already skipped files that
 * are not JSON objects). Output: a deep copy where every optional field failing its strict rule
 * is removed (the smallest enclosing field: one notification item, one input, one writeable flag;
 * `ingest` and `cadence` whole), with each removal listed in `dropped`.
 * Not checked at load: the `meta.id` format (load is lenient on format).
 * Reported but left as is: core problems (`$schema` missing or unknown, `meta` not an object,
 * `meta.id` / `meta.label` missing); whether to skip such a file is the caller's decision
 * (no `$schema` → skipped silently, unknown `$schema` → logged as an error).
 * `data` is never pruned; bad `schedule.time_of_day` there goes to `warnings`.
 * The copy is for memory: never write it back over the user's file.
 */
export function sanitizeAtLoad(m: Record<string, unknown>, opts: ManifestRuleOptions = {}): SanitizeResult {
  const manifest = structuredClone(m);
  readHandSpellings(manifest);
  const dropped: FieldError[] = coreIssues(manifest).map((i) => ({
    path: formatPath(i.path),
    message: i.message,
  }));
  const warnings: FieldError[] = [];
  const unusable: FieldError[] = [];
  if (isPlainObject(manifest.meta)) {
    const issues = optionalFieldIssues(manifest, manifest.meta, opts);
    const removals = applyRemovals(manifest, planRemovals(issues));
    for (const r of removals) dropped.push({ path: formatPath(r.path), message: r.reasons.join('; ') });
    // paths as in the file (indexes before any drop), where the person will look
    for (const i of issues)
      if (i.drops?.length === 0) unusable.push({ path: formatPath(i.path), message: i.message });
  }
  if (typeof manifest.data === 'string') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(manifest.data);
    } catch {
      parsed = undefined;
    }
    if (typeof parsed === 'object' && parsed !== null) {
      manifest.data = parsed;
      warnings.push({ path: 'data', message: 'data was a JSON string; it was parsed into JSON' });
    }
  }
  for (const i of checkDataSchedules(manifest.data))
    warnings.push({ path: formatPath(i.path), message: i.message });
  return { manifest, dropped, unusable, warnings };
}

/**
 * The entries of the load `errors` list a card's sanitize result gives, for its `file` (the name
 * inside the data folder) and `id`: each dropped field (FIELD_DROPPED), each field kept as written
 * that cannot work (FIELD_UNUSABLE).
 */
export function loadNotes(
  r: Pick<SanitizeResult, 'dropped' | 'unusable'>,
  file: string,
  id: string,
): LoadError[] {
  return [
    ...r.dropped.map((d) => ({ file, id, code: 'FIELD_DROPPED', path: d.path, message: d.message })),
    ...r.unusable.map((d) => ({ file, id, code: 'FIELD_UNUSABLE', path: d.path, message: d.message })),
  ];
}

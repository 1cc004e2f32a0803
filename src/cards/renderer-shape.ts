/**
 * The renderer-shape checks that the `validate_manifest` tool adds on top of the create/patch
 * validator (docs/MANIFEST-SCHEMA.md "Renderers" and `combination-card`). Create and patch
 * do not apply them: unknown or half-built renderer configs are an accepted escape hatch.
 */
import type { FieldError } from '../errors.js';
import { describeValue, formatPath, isNonEmptyString, isPlainObject, type Segment } from './field-issues.js';

/** Roles of a `combines[]` entry (docs/MANIFEST-SCHEMA.md; `bar-series` is reserved, so not accepted). */
export const COMBINATION_ROLES = ['primary', 'secondary', 'annotation', 'ring-segment'] as const;

/**
 * Input: any candidate manifest. Output: one FieldError per renderer-shape problem:
 * `meta.view.display` present but not an object; for `meta.view.component: "combination-card"`,
 * `meta.view.combines` a non-empty array whose entries are objects with a non-empty string
 * `sourceId` and a `role` in `COMBINATION_ROLES` (a `ring-segment` also needs a positive number
 * `goalDaily` or `goalWeekly`), and the card's own `data` absent or `[]` (a combination card owns
 * no data), unless one of its entries reads the card itself (a card drawing its own rows as rings).
 * Anything that is not a manifest-shaped object yields no errors here (the core validator
 * reports it).
 */
export function rendererShapeErrors(m: unknown): FieldError[] {
  if (!isPlainObject(m) || !isPlainObject(m.meta) || !isPlainObject(m.meta.view)) return [];
  const view = m.meta.view;
  const cardId = m.meta.id;
  const errors: FieldError[] = [];
  const err = (path: Segment[], detail: string) => {
    const p = formatPath(path);
    errors.push({ path: p, message: `${p} ${detail}` });
  };
  if (view.display !== undefined && !isPlainObject(view.display)) {
    err(['meta', 'view', 'display'], `must be an object, never a string; got ${describeValue(view.display)}`);
  }
  if (view.component !== 'combination-card') return errors;
  const combines = view.combines;
  const at: Segment[] = ['meta', 'view', 'combines'];
  if (!Array.isArray(combines) || combines.length === 0) {
    err(
      at,
      `must be a non-empty array of {sourceId, role} for a combination-card, got ${describeValue(combines)}`,
    );
  } else {
    for (const [i, entry] of combines.entries()) {
      const e = [...at, i];
      if (!isPlainObject(entry)) {
        err(e, `must be an object {sourceId, role}, got ${describeValue(entry)}`);
        continue;
      }
      if (!isNonEmptyString(entry.sourceId)) {
        err([...e, 'sourceId'], `must be the id of a source card, got ${describeValue(entry.sourceId)}`);
      }
      if (!(COMBINATION_ROLES as readonly unknown[]).includes(entry.role)) {
        err(
          [...e, 'role'],
          `must be one of ${COMBINATION_ROLES.join('|')}, got ${describeValue(entry.role)}`,
        );
      } else if (entry.role === 'ring-segment') {
        const positive = (g: unknown) => typeof g === 'number' && Number.isFinite(g) && g > 0;
        if (!positive(entry.goalDaily) && !positive(entry.goalWeekly)) {
          err(
            [...e, 'goalDaily'],
            `must be a positive number for a ring-segment (or give goalWeekly), got ${describeValue(entry.goalDaily)}`,
          );
        }
      }
    }
  }
  const readsItself =
    Array.isArray(combines) && combines.some((c) => isPlainObject(c) && c.sourceId === cardId);
  if (!readsItself && m.data !== undefined && !(Array.isArray(m.data) && m.data.length === 0)) {
    err(['data'], `must be [] or absent: a combination-card owns no data, got ${describeValue(m.data)}`);
  }
  return errors;
}

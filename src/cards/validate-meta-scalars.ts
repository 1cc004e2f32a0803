/**
 * The scalar optional fields of a manifest (docs/MANIFEST-SCHEMA.md "File structure" and meta table):
 * `meta.emoji` string, `meta.order` integer, `meta.enabled` boolean, top-level `description`
 * string. Each bad field is dropped alone at load.
 */
import { describeValue, formatPath, type Issue, type Segment } from './field-issues.js';

function rule(value: unknown, where: Segment[], ok: (v: unknown) => boolean, expected: string): Issue[] {
  if (value === undefined || ok(value)) return [];
  return [
    {
      path: where,
      drops: [where],
      message: `${formatPath(where)} must be ${expected}, got ${describeValue(value)}`,
    },
  ];
}

/**
 * Strict checks of `meta.emoji`, `meta.order` (a finite integer; negative allowed, the welcome
 * example uses -100), `meta.enabled` and the top-level `description`, each when present.
 */
export function checkScalarFields(manifest: Record<string, unknown>, meta: Record<string, unknown>): Issue[] {
  return [
    ...rule(meta.emoji, ['meta', 'emoji'], (v) => typeof v === 'string', 'a string'),
    ...rule(meta.order, ['meta', 'order'], (v) => typeof v === 'number' && Number.isInteger(v), 'an integer'),
    ...rule(meta.enabled, ['meta', 'enabled'], (v) => typeof v === 'boolean', 'a boolean'),
    ...rule(manifest.description, ['description'], (v) => typeof v === 'string', 'a string'),
  ];
}

/**
 * View configs `meta.view` / `trends` / `calendar` / `reports` / `dayDetail` (docs/MANIFEST-SCHEMA.md
 * "View config"). Only their container shape is checked: each is an object, and a `display`
 * inside one is an object, never a string; and a schedule's `checkOffForm` (validate-check-off.ts).
 * Other renderer-specific keys pass through (unknown renderer names are accepted on purpose).
 */
import { describeValue, formatPath, type Issue, isPlainObject, type Segment } from './field-issues.js';
import { checkOffFormIssues } from './validate-check-off.js';
import { checkInputs } from './validate-inputs.js';

/** The `meta` keys holding a view config. */
export const VIEW_CONFIG_KEYS = ['view', 'trends', 'calendar', 'reports', 'dayDetail'] as const;

/**
 * Strict checks of the view configs of `meta` (`at` is the path of `meta`), including the legacy
 * `meta.view.inputs[]`. Lenient drops: a non-object config whole; a non-object `display` alone;
 * each bad legacy input.
 */
export function checkViewConfigs(meta: Record<string, unknown>, at: Segment[]): Issue[] {
  const issues: Issue[] = [];
  for (const key of VIEW_CONFIG_KEYS) {
    const config = meta[key];
    if (config === undefined) continue;
    const where = [...at, key];
    if (!isPlainObject(config)) {
      issues.push({
        path: where,
        drops: [where],
        message: `${formatPath(where)} must be an object, got ${describeValue(config)}`,
      });
      continue;
    }
    if (config.display !== undefined && !isPlainObject(config.display)) {
      const d = [...where, 'display'];
      issues.push({
        path: d,
        drops: [d],
        message: `${formatPath(d)} must be an object (e.g. {"template": "{value}"}), never a string; got ${describeValue(config.display)}`,
      });
    }
    if (key === 'view') issues.push(...checkInputs(config.inputs, [...where, 'inputs']));
    issues.push(...checkOffFormIssues(config, where));
  }
  return issues;
}

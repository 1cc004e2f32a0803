/**
 * `meta.ingest` (docs/MANIFEST-SCHEMA.md "ingest"): `{source: "hae", metric}`.
 * Strict on create/patch (422 `invalid ingest: ...`); a bad block is dropped whole at load.
 */
import {
  describeValue,
  formatPath,
  type Issue,
  isNonEmptyString,
  isPlainObject,
  type Segment,
} from './field-issues.js';

/** Ingest sources the product supports (only Health Auto Export). */
export const INGEST_SOURCES = ['hae'] as const;

/**
 * Strict check of `meta.ingest` when present (`at` is its path). `isKnownMetric`, when given, is
 * the HAE catalogue lookup: a misspelt metric is rejected instead of silently never matching.
 * Every issue drops the whole block.
 */
export function checkIngest(
  value: unknown,
  at: Segment[],
  isKnownMetric?: (metric: string) => boolean,
): Issue[] {
  if (value === undefined) return [];
  const issue = (where: Segment[], detail: string): Issue[] => [
    { path: where, drops: [at], message: `invalid ingest: ${formatPath(where)} ${detail}` },
  ];
  if (!isPlainObject(value))
    return issue(at, `must be an object {source: "hae", metric}, got ${describeValue(value)}`);
  if (!(INGEST_SOURCES as readonly unknown[]).includes(value.source)) {
    return issue(
      [...at, 'source'],
      `must be "hae" (the only supported source), got ${describeValue(value.source)}`,
    );
  }
  if (!isNonEmptyString(value.metric)) {
    return issue([...at, 'metric'], `must be a non-empty string, got ${describeValue(value.metric)}`);
  }
  if (isKnownMetric && !isKnownMetric(value.metric)) {
    return issue([...at, 'metric'], `"${value.metric}" is not a metric of the Health Auto Export catalogue`);
  }
  return [];
}

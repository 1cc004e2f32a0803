/**
 * `meta.cadence`: `{expectDays}` with 1 ≤ expectDays ≤ 730.
 * Strict on create/patch (422 `invalid cadence: ...`); a bad block is dropped whole at load.
 */
import { CADENCE_MAX_DAYS } from '../limits.js';
import { describeValue, formatPath, type Issue, isPlainObject, type Segment } from './field-issues.js';

/**
 * Strict check of `meta.cadence` when present (`at` is its path): an object whose `expectDays` is
 * an integer from 1 to `CADENCE_MAX_DAYS`. Every issue drops the whole block.
 */
export function checkCadence(value: unknown, at: Segment[]): Issue[] {
  if (value === undefined) return [];
  const issue = (where: Segment[], detail: string): Issue[] => [
    { path: where, drops: [at], message: `invalid cadence: ${formatPath(where)} ${detail}` },
  ];
  if (!isPlainObject(value)) return issue(at, `must be an object {expectDays}, got ${describeValue(value)}`);
  const days = value.expectDays;
  if (typeof days !== 'number' || !Number.isInteger(days) || days < 1 || days > CADENCE_MAX_DAYS) {
    return issue(
      [...at, 'expectDays'],
      `must be an integer from 1 to ${CADENCE_MAX_DAYS}, got ${describeValue(days)}`,
    );
  }
  return [];
}

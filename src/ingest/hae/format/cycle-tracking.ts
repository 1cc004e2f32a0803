/**
 * Cycle tracking as the Health app logs it, one record each: a menstrual flow, spotting between
 * periods, the cervical mucus seen, an ovulation, pregnancy or progesterone test and its result,
 * sexual activity. Two places send them: the `cycleTracking` section of a Health Auto Export push
 * (`{start, end, name: "Menstrual Flow", value: "Medium"}`, also with `date`), and an Apple Health
 * export's records (`HKCategoryTypeIdentifierOvulationTestResult` with the value
 * `HKCategoryValueOvulationTestResultLuteinizingHormoneSurge`, records.ts). Both are read here,
 * each kind into its metric:
 *
 * - a menstrual flow is a day logged on `menstrual_flow`; a flow of `None` (a day of the period
 *   without bleeding) is not one;
 * - spotting (`Intermenstrual Bleeding`) a day logged on `intermenstrual_bleeding`;
 * - bleeding while pregnant or after a pregnancy (`Bleeding During Pregnancy`, `Bleeding After
 *   Pregnancy`, levels as a flow's) a day logged on `bleeding_during_pregnancy` or
 *   `bleeding_after_pregnancy`: no period, so never on `menstrual_flow`; after menopause (iOS 27)
 *   on `bleeding_after_menopause` likewise;
 * - a cycle deviation the Health app detected (irregular, infrequent or prolonged periods,
 *   persistent spotting) one on `cycle_deviation_notifications`;
 * - cervical mucus a `quality` on `cervical_mucus_quality`, in HealthKit's order: 1 dry, 2 sticky,
 *   3 creamy, 4 watery, 5 egg white (the day's highest, the most fertile);
 * - a test one `positive`, `negative` or `indeterminate` (an ovulation test also
 *   `estrogenSurge`, the Health app's "High") on `ovulation_test`, `pregnancy_test` or
 *   `progesterone_test`; an ovulation test's luteinizing hormone surge is its positive;
 * - sexual activity the day logged on `sexual_activity`, protection unspecified unless said.
 *
 * Names and values are read by their letters, in any case and spacing, as words (`Egg White`,
 * `LH Surge`, or in the phone's language as the app writes them: `Flujo Menstrual`, `Pesado`;
 * cycle-words.ts) or as HealthKit's constants. A value Klebb does not know is left out with a warning
 * naming it, never guessed; a record of another kind too.
 */

import { englishKind, englishValue } from './cycle-words.js';
import type { MetricBlock } from './payload.js';

/** The metric block name the section is read under (other-sections.ts) before it is split. */
export const CYCLE_TRACKING_BLOCK = 'cycle_tracking';

/** An entry left out: the metric its warning is under, why, and what was sent. */
export interface CycleLeftOut {
  metric: string;
  reason: string;
  example: unknown;
}

/** Letters only, lower case: `Menstrual Flow`, `menstrual_flow`, `HKCategoryTypeIdentifierMenstrualFlow` end alike. */
function letters(text: string): string {
  return text.toLowerCase().replace(/[^a-z]/g, '');
}

/** The metric each kind of record fills, by how its name ends (letters only). */
const KINDS: [string, string][] = [
  // the deviations the Health app detects, before the kinds their names end like
  ['irregularmenstrualcycles', 'cycle_deviation_notifications'],
  ['infrequentmenstrualcycles', 'cycle_deviation_notifications'],
  ['prolongedmenstrualperiods', 'cycle_deviation_notifications'],
  ['persistentintermenstrualbleeding', 'cycle_deviation_notifications'],
  ['intermenstrualbleeding', 'intermenstrual_bleeding'],
  ['bleedingduringpregnancy', 'bleeding_during_pregnancy'],
  ['bleedingafterpregnancy', 'bleeding_after_pregnancy'],
  ['bleedingaftermenopause', 'bleeding_after_menopause'],
  ['spotting', 'intermenstrual_bleeding'],
  ['menstrualflow', 'menstrual_flow'],
  ['vaginalbleeding', 'menstrual_flow'],
  ['cervicalmucusquality', 'cervical_mucus_quality'],
  ['cervicalmucus', 'cervical_mucus_quality'],
  ['ovulationtestresult', 'ovulation_test'],
  ['ovulationtest', 'ovulation_test'],
  ['pregnancytestresult', 'pregnancy_test'],
  ['pregnancytest', 'pregnancy_test'],
  ['progesteronetestresult', 'progesterone_test'],
  ['progesteronetest', 'progesterone_test'],
  ['sexualactivity', 'sexual_activity'],
];

/** The metric a cycle-tracking record named `name` fills (a word or a HealthKit identifier), or undefined. */
export function cycleMetric(name: unknown): string | undefined {
  if (typeof name !== 'string') return undefined;
  const l = letters(name);
  for (const [end, metric] of KINDS) if (l.endsWith(end)) return metric;
  return undefined;
}

/** A value's letters without HealthKit's prefix (`HKCategoryValueCervicalMucusQualityEggWhite` → `eggwhite`). */
function level(value: string, prefix: RegExp): string {
  return letters(value)
    .replace(/^hkcategoryvalue/, '')
    .replace(prefix, '');
}

/** Cervical mucus in HealthKit's order. */
const MUCUS = new Map([
  ['dry', 1],
  ['sticky', 2],
  ['creamy', 3],
  ['watery', 4],
  ['eggwhite', 5],
]);

/** A test's result → the field it counts in. */
const OUTCOMES = new Map([
  ['positive', 'positive'],
  ['luteinizinghormonesurge', 'positive'],
  ['lhsurge', 'positive'],
  ['peak', 'positive'],
  ['estrogensurge', 'estrogenSurge'],
  ['high', 'estrogenSurge'],
  ['negative', 'negative'],
  ['low', 'negative'],
  ['indeterminate', 'indeterminate'],
]);

/**
 * Whether a flow value says there was bleeding: true for a level (`Light`, `Medium`, `Heavy`,
 * `Unspecified`, in words or as HealthKit's constant), or no value at all; false for `None`;
 * undefined for a value Klebb does not know.
 */
export function flowLogged(value: unknown): boolean | undefined {
  if (value === undefined || value === null || value === '') return true;
  if (typeof value !== 'string') return undefined;
  const l = level(value, /^(menstrualflow|vaginalbleeding)/);
  if (l === 'none' || l === 'noflow') return false;
  if (['unspecified', 'light', 'medium', 'heavy'].includes(l)) return true;
  return undefined;
}

/** One record read: the point for its metric's block (counted in `units`), or why it is left out. */
export type CyclePoint =
  | { metric: string; units: string; point: Record<string, unknown> }
  | { metric: string; leftOut: string; example: unknown };

/**
 * The point of one cycle-tracking record of `metric` (cycleMetric) with `value`, at `start`: one
 * event, never a day's total (`partOfDay`). Each kind's values as the module comment says.
 */
export function cyclePoint(metric: string, value: unknown, start: unknown): CyclePoint {
  const point: Record<string, unknown> = { date: start, partOfDay: true };
  const text = typeof value === 'string' ? value : '';
  switch (metric) {
    case 'menstrual_flow':
    case 'bleeding_during_pregnancy':
    case 'bleeding_after_pregnancy':
    case 'bleeding_after_menopause': {
      const logged = flowLogged(value);
      const what = metric === 'menstrual_flow' ? 'menstrual flow' : 'bleeding';
      if (logged === undefined) return { metric, leftOut: `unknown ${what}, left out`, example: value };
      if (!logged) return { metric, leftOut: `no ${what}, not counted`, example: value };
      point.qty = 1;
      return { metric, units: 'count', point };
    }
    case 'intermenstrual_bleeding':
    case 'cycle_deviation_notifications':
      point.qty = 1;
      return { metric, units: 'count', point };
    case 'cervical_mucus_quality': {
      const quality = MUCUS.get(level(text, /^cervicalmucusquality/));
      if (quality === undefined)
        return { metric, leftOut: 'unknown cervical mucus, left out', example: value };
      point.qty = quality;
      return { metric, units: 'count', point };
    }
    case 'sexual_activity': {
      const l = level(text, /^sexualactivity/);
      const field =
        l === 'protectionused'
          ? 'Protection Used'
          : l === 'protectionnotused'
            ? 'Protection Not Used'
            : 'Unspecified';
      point[field] = 1;
      return { metric, units: 'count', point };
    }
    default: {
      const outcome = OUTCOMES.get(level(text, /^(ovulation|pregnancy|progesterone)testresult/));
      if (outcome === undefined || (outcome === 'estrogenSurge' && metric !== 'ovulation_test'))
        return { metric, leftOut: 'unknown test result, left out', example: value ?? null };
      point.outcome = outcome;
      return { metric, units: 'count', point };
    }
  }
}

/**
 * The section's entries (the points of the block CYCLE_TRACKING_BLOCK) as one block per metric
 * filled, and the entries left out (a value Klebb does not know, no flow, a record of another
 * kind), each to be named in the push's warnings.
 */
export function cycleBlocks(block: MetricBlock): { blocks: MetricBlock[]; leftOut: CycleLeftOut[] } {
  const byMetric = new Map<string, MetricBlock>();
  const leftOut: CycleLeftOut[] = [];
  for (const entry of block.data) {
    // the app writes names and values in the phone's language: read as their English words
    const name = entry.name ?? entry.type;
    const metric = cycleMetric(englishKind(name));
    if (metric === undefined) {
      leftOut.push({ metric: 'cycleTracking', reason: 'kind of record not read, left out', example: name });
      continue;
    }
    const value = entry.value ?? entry.flow ?? entry.result;
    const read = cyclePoint(metric, englishValue(value), entry.start ?? entry.date ?? entry.startDate);
    if ('leftOut' in read) {
      // the warning names the value as it was sent
      leftOut.push({ metric, reason: read.leftOut, example: value ?? read.example });
      continue;
    }
    // a source sent as an object (`{name, bundleIdentifier}`) is read as the points' are
    if (entry.source !== undefined) read.point.source = entry.source;
    let out = byMetric.get(metric);
    if (!out) {
      out = { name: metric, units: read.units, data: [] };
      byMetric.set(metric, out);
    }
    out.data.push(read.point);
  }
  return { blocks: [...byMetric.values()], leftOut };
}

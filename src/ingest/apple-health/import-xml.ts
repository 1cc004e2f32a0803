/**
 * Importing Apple Health's `export.xml` into the samples store (docs/HEALTH-AUTO-EXPORT.md
 * "Loading your history from Apple Health"): the file is stream-parsed with saxes (files reach gigabytes), records are
 * mapped to HAE-shaped points (records.ts), extracted in batches by the same code as webhook
 * payloads and stored once each; then the subscribed cards are filled, as after a push.
 *
 * Apple has shipped malformed exports (attribute names with spaces, `\x0b` characters, truncated
 * files): saxes reports each problem and goes on, so everything well-formed is imported and the
 * problems are listed as warnings. Every record is one real sample (never a daily total), so its
 * samples are stored with span `sample`.
 */

import fs from 'node:fs';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { SaxesParser, type SaxesTagPlain } from 'saxes';
import { invalid } from '../../errors.js';
import { OccurrenceCounter } from '../hae/format/occurrences.js';
import type { MetricBlock } from '../hae/format/payload.js';
import type { Sample } from '../hae/format/sample.js';
import { dedupKeyOf } from '../hae/format/sample.js';
import { extractSamples } from '../hae/format/samples.js';
import { parseHaeTimestamp } from '../hae/format/timestamps.js';
import type { HaeIngest, PushSummary } from '../hae/service.js';
import { ImportProgress } from './progress.js';
import { BloodPressurePairs, type MappedPoint, mapRecord, mapWorkout, metricOfType } from './records.js';

/** Characters read from the file per parse step (the event loop gets a turn after each). */
const READ_CHUNK = 256 * 1024;
/**
 * Samples stored per transaction: small enough that one transaction keeps the event loop for
 * ~10 ms, large enough that the commits (one fsync each) stay a small share of the time.
 */
const INSERT_BATCH = 2500;
/** XML problems listed by name in the warnings (the rest are counted). */
const MAX_XML_ERRORS_LISTED = 10;

/** What an import did. */
export interface AppleHealthImport extends PushSummary {
  /** `<Record>` elements read (top level; records inside a `<Correlation>` are duplicates and skipped). */
  records: number;
  /** `<Workout>` elements read. */
  workouts: number;
  /** Records of types without a catalogue metric, per type (not stored). */
  unmappedTypes: Record<string, number>;
  /** XML well-formedness problems saxes reported (parsing went on after each). */
  xmlErrors: number;
  /** `{cardId: rowsWritten}` of the subscribed cards filled. */
  ingested: Record<string, number>;
  /** The export's `<ExportDate value>`, when present. */
  exportDate: string | null;
}

/** Forces span `sample` (a record is one sample; see the module comment), recomputing the dedup key. */
function asRawSample(s: Sample): Sample {
  if (s.span === 'sample') return s;
  const time = parseHaeTimestamp(s.at);
  if (!time) return s;
  return { ...s, span: 'sample', dedupKey: dedupKeyOf(s.metric, time, 'sample', s.values, s.source) };
}

/**
 * Stream-parses an export.xml file and stores its samples as one push of origin `apple-health`,
 * then fills the subscribed cards. The work is done in steps of one read chunk or one batch,
 * with a turn of the event loop between them, so a server goes on answering during a long import.
 * @param file path of `export.xml` (UTF-8).
 * @param progress updated as the file is read (bytes, records, phase); ended by the caller.
 * @throws when the file cannot be read; XML problems are warnings, not errors.
 * @returns the push summary plus the import's own counts.
 */
export async function importAppleHealthFile(
  svc: HaeIngest,
  file: string,
  progress: ImportProgress = new ImportProgress(fs.statSync(file).size),
): Promise<AppleHealthImport> {
  const bytes = progress.totalBytes;
  const run = svc.startPush('apple-health', bytes);
  const parser = new SaxesParser({ xmlns: false, position: true });
  const stack: string[] = [];
  const blocks = new Map<string, MetricBlock>();
  let buffered = 0;
  let workouts: Record<string, unknown>[] = [];
  let workout: { attrs: Record<string, string>; stats: Record<string, string>[] } | undefined;
  const pairs = new BloodPressurePairs();
  const unmapped: Record<string, number> = {};
  let records = 0;
  let workoutCount = 0;
  let xmlErrors = 0;
  let exportDate: string | null = null;
  let sawHealthData = false;

  const addPoint = (m: MappedPoint) => {
    const key = `${m.metric}\u0000${m.units}`;
    let block = blocks.get(key);
    if (!block) {
      block = { name: m.metric, units: m.units, data: [] };
      blocks.set(key, block);
    }
    block.data.push(m.point);
    buffered++;
  };

  // identical records are counted over the whole file: a copy's key (its `seq`) never depends on
  // where the file puts it (docs/HEALTH-AUTO-EXPORT.md "Same-instant samples")
  const occurrences = new OccurrenceCounter();
  /** Extracts and stores what the last chunk brought. */
  const flush = async () => {
    if (buffered === 0 && workouts.length === 0) return;
    const payload = { metrics: [...blocks.values()], workouts, warnings: [] };
    blocks.clear();
    workouts = [];
    buffered = 0;
    const extract = extractSamples(payload, occurrences);
    await run.addInBatches({ ...extract, samples: extract.samples.map(asRawSample) }, INSERT_BATCH);
  };

  parser.on('error', (err) => {
    xmlErrors++;
    if (xmlErrors <= MAX_XML_ERRORS_LISTED) run.warn(`XML problem (parsing went on): ${err.message}`);
  });
  parser.on('opentag', (tag: SaxesTagPlain) => {
    const parent = stack[stack.length - 1];
    if (!tag.isSelfClosing) stack.push(tag.name);
    const a = tag.attributes as Record<string, string>;
    switch (tag.name) {
      case 'HealthData':
        sawHealthData = true;
        break;
      case 'ExportDate':
        if (parent === 'HealthData' && typeof a.value === 'string') exportDate = a.value;
        break;
      case 'Record': {
        if (parent !== 'HealthData') break;
        records++;
        const type = a.type ?? '';
        if (metricOfType(type) === 'blood_pressure') {
          const joined = pairs.add(a);
          if (joined) addPoint(joined);
          break;
        }
        const m = mapRecord(a);
        if ('skip' in m) {
          if (m.skip.startsWith('unmapped type')) unmapped[type] = (unmapped[type] ?? 0) + 1;
        } else addPoint(m);
        break;
      }
      case 'Workout':
        if (parent !== 'HealthData') break;
        workoutCount++;
        workout = { attrs: a, stats: [] };
        if (tag.isSelfClosing) {
          workouts.push(mapWorkout(a, []));
          workout = undefined;
        }
        break;
      case 'WorkoutStatistics':
        if (workout && parent === 'Workout') workout.stats.push(a);
        break;
    }
  });
  parser.on('closetag', (tag: SaxesTagPlain) => {
    if (!tag.isSelfClosing) stack.pop();
    if (tag.name === 'Workout' && workout && !tag.isSelfClosing) {
      workouts.push(mapWorkout(workout.attrs, workout.stats));
      workout = undefined;
    }
  });

  const input = fs.createReadStream(file, { encoding: 'utf8', highWaterMark: READ_CHUNK });
  for await (const chunk of input) {
    parser.write(chunk as string);
    progress.read(input.bytesRead, records);
    await flush();
    await yieldToLoop();
  }
  parser.close();
  for (const p of pairs.flush()) addPoint(p);
  await flush();
  progress.read(bytes, records);

  // refused before the push is recorded: a file that is not an export leaves no trace
  if (!sawHealthData && records === 0 && workoutCount === 0) {
    throw invalid(
      'this is not an Apple Health export.xml (no <HealthData> element)',
      undefined,
      'NOT_AN_EXPORT',
    );
  }
  if (!sawHealthData) run.warn('no <HealthData> element: this does not look like an Apple Health export.xml');
  const unmappedTotal = Object.values(unmapped).reduce((a, b) => a + b, 0);
  if (unmappedTotal) {
    const top = Object.entries(unmapped)
      .sort((x, y) => y[1] - x[1])
      .slice(0, 8)
      .map(([t, n]) => `${t} (${n})`)
      .join(', ');
    run.warn(`${unmappedTotal} record(s) of types with no catalogue metric were not stored: ${top}`);
  }
  if (xmlErrors > MAX_XML_ERRORS_LISTED)
    run.warn(`... ${xmlErrors - MAX_XML_ERRORS_LISTED} more XML problem(s)`);
  progress.filling();
  const summary = await run.finishInSteps();
  return { ...summary, records, workouts: workoutCount, unmappedTypes: unmapped, xmlErrors, exportDate };
}

/**
 * Reading Apple Health's `export.xml` into the samples store, the part of an import that scales
 * with the file (import-xml.ts runs it in a worker thread): the file is stream-parsed with saxes
 * (files reach gigabytes), records are mapped to HAE-shaped points (records.ts), extracted in
 * batches by the same code as webhook payloads and stored once each.
 *
 * Apple has shipped malformed exports (attribute names with spaces, `\x0b` characters, truncated
 * files): saxes reports each problem and goes on, so everything well-formed is imported and the
 * problems are listed as warnings. Every record is one real sample (never a daily total), so its
 * samples are stored with span `sample`.
 */

import fs from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { SaxesParser, type SaxesTagPlain } from 'saxes';
import { emptyTable } from '../../common/lookup-table.js';
import type { MetricBlock } from '../hae/format/payload.js';
import { type Sample, SkipCounter, withSpan } from '../hae/format/sample.js';
import { extractSamples } from '../hae/format/samples.js';
import { parseHaeTimestamp } from '../hae/format/timestamps.js';
import type { RowsAhead } from '../hae/rows-ahead.js';
import type { PushRun } from '../hae/service.js';
import { ExportClock } from './export-clock.js';
import { metadataKey } from './metadata-keys.js';
import { OccurrenceWindows } from './occurrence-windows.js';
import {
  BloodPressurePairs,
  inRecordZone,
  type MappedPoint,
  mapRecord,
  mapWorkout,
  metricOfType,
} from './records.js';
import { decoderFor, type PieceDecoder } from './text-decoding.js';
import { BareAmpersands, notXml, TagWatch } from './xml-repair.js';

/**
 * Bytes read from the file per parse step, into one buffer reused for every step. A read stream
 * hands out a fresh buffer per chunk: past the malloc mmap threshold `npm start` sets, each is
 * fresh memory for the kernel to map and zero, and one that outlives a young-generation
 * collection waits for a full one to be freed. Reading into one buffer cut the import's CPU time
 * by about a tenth, measured.
 */
const READ_CHUNK = 256 * 1024;
/**
 * Bytes of a read chunk decoded and handed to the parser at a time. A string of more than 128 KiB
 * is not made in V8's young generation but in its large-object space, which only a full (mark-
 * compact) collection frees: a whole 256 KiB chunk decoded at once (UTF-16 as soon as one `’` is in
 * it, as in every source name of an iPhone or Watch, so 512 KiB) made the worker's heap grow by
 * half a megabyte per chunk and start a full collection every few dozen chunks. Decoded in pieces
 * of 32 KiB (64 KiB of string at most) each dies young; measured, the import's CPU time fell by
 * about a seventh and its peak memory by some 20 MB.
 */
const PARSE_PIECE = 32 * 1024;
/**
 * Samples stored per transaction, gathered over several chunks: a commit per chunk (a few hundred
 * records) would cost more than the inserts. The write lock is held that long (a few tens of ms),
 * which the server's own writes wait for.
 */
const INSERT_BATCH = 4096;
/** XML problems listed by name in the warnings (the rest are counted). */
const MAX_XML_ERRORS_LISTED = 10;

/** What reading an export found, beside the samples its push run stored. */
export interface ExportRead {
  /** `<Record>` elements read (top level; records inside a `<Correlation>` are duplicates and skipped). */
  records: number;
  /** `<Workout>` elements read. */
  workouts: number;
  /** Records of types without a catalogue metric, per type (not stored). */
  unmappedTypes: Record<string, number>;
  /** XML well-formedness problems saxes reported (parsing went on after each). */
  xmlErrors: number;
  /** The first MAX_XML_ERRORS_LISTED of those problems, as saxes words them. */
  xmlProblems: string[];
  /** More problems than were listed in `xmlProblems`. */
  xmlErrorsUnlisted: number;
  /**
   * Points that could not be read, one line per metric and reason over the whole file, the
   * causes that cost the most points first (`active_energy: no value (4512 points, e.g. ...)`).
   */
  skipLines: string[];
  /**
   * True when the file ends before `</HealthData>` closes: it was cut short (a download or copy
   * that stopped), so the records after the cut are missing. What was read is kept.
   */
  truncated: boolean;
  /**
   * The line of the last tag read before the file turned out damaged (a tag that never ends,
   * bytes that are not XML: xml-repair.ts): reading stopped there, the records before it were
   * imported. Null when the file was read to its end.
   */
  damagedAtLine: number | null;
  /** Bare `&` characters read as `&` (xml-repair.ts). */
  bareAmpersands: number;
  /** The export's `<ExportDate value>`, when present. */
  exportDate: string | null;
  /** Whether a `<HealthData>` element was seen. */
  sawHealthData: boolean;
  /** The name of the file's first element (`HealthData`; `ClinicalDocument`, `gpx`: another file), or null. */
  rootElement: string | null;
}

/** Forces span `sample` (a record is one sample; see the module comment), recomputing the dedup key. */
function asRawSample(s: Sample): Sample {
  if (s.span === 'sample') return s;
  const time = parseHaeTimestamp(s.at);
  if (!time) return s;
  return withSpan(s, time, 'sample');
}

/**
 * Stream-parses an export.xml file and stores its samples through `run` (each batch its own
 * transaction), one read chunk at a time with a turn of the event loop between chunks.
 * @param countsFile where the identical-sample counts not in use wait (created when needed,
 *   removed before returning; a path of the import's own, see occurrence-windows.ts).
 * @param onRead called after each chunk with the bytes read so far and the records read.
 * @param ahead given the samples as they are stored, to make card rows from them (hae/rows-ahead.ts);
 *   finished when the file is read.
 * @param extraBlocks points read from beside the file (the zip's electrocardiograms), stored
 *   with its last batch.
 * @throws when the file cannot be read or a write fails; XML problems are warnings, not errors.
 */
export async function readAppleHealthExport(
  run: PushRun,
  file: string,
  countsFile: string,
  onRead: (bytesRead: number, records: number) => void = () => {},
  ahead?: RowsAhead,
  extraBlocks: readonly MetricBlock[] = [],
): Promise<ExportRead> {
  const parser = new SaxesParser({ xmlns: false, position: true });
  const stack: string[] = [];
  const blocks = new Map<string, MetricBlock>();
  let buffered = 0;
  let workouts: Record<string, unknown>[] = [];
  let workout:
    | {
        attrs: Record<string, string>;
        stats: Record<string, string>[];
        meta: Record<string, string>;
        /** `HKElevationAscended` of its `<WorkoutActivity>` children (records.ts mapWorkout). */
        activityAscents: string[];
      }
    | undefined;
  const pairs = new BloodPressurePairs();
  // a blood pressure half inside a <Correlation> is, says the DTD, also a top-level record; a
  // trimmed or hand-made export may hold it only there, so those without a top-level twin are read
  // at the end (the readings of a life fit in memory)
  const bpTopLevel = new Set<string>();
  const bpInCorrelation = new Map<string, Record<string, string>>();
  const bpKey = (a: Record<string, string>) =>
    [a.type, a.startDate, a.endDate, a.sourceName ?? a.source, a.value].join('\u0000');
  const unmapped = emptyTable<number>();
  let records = 0;
  let workoutCount = 0;
  let xmlErrors = 0;
  let exportDate: string | null = null;
  let sawHealthData = false;
  let rootElement: string | null = null;
  let closedHealthData = false;
  const xmlProblems: string[] = [];
  /** Tags opened so far (TagWatch tells a tag that never ends by the count not moving). */
  let tags = 0;
  let damagedAtLine: number | null = null;
  /** The line of the last tag read: where the damage starts, when the file turns out damaged. */
  let lastTagLine = 1;
  let bareAmpersands = 0;

  /** The block of the last point: Apple writes a type's records together, so mostly the next one's. */
  let last: MetricBlock | undefined;
  const addPoint = (m: MappedPoint) => {
    let block = last;
    if (block === undefined || block.name !== m.metric || block.units !== m.units) {
      const key = `${m.metric}\u0000${m.units}`;
      block = blocks.get(key);
      if (!block) {
        block = { name: m.metric, units: m.units, data: [] };
        blocks.set(key, block);
      }
      last = block;
    }
    block.data.push(m.point);
    buffered++;
  };

  // identical records are counted over the whole file: a copy's key (its `seq`) never depends on
  // where the file puts it (docs/HEALTH-AUTO-EXPORT.md "Same-instant samples"); the counts of the
  // (metric, date)s not in use wait in a file of the import's own (occurrence-windows.ts)
  const occurrences = new OccurrenceWindows(countsFile);
  // and unreadable points over the whole file: one warning line per metric and reason, not per batch
  const skips = new SkipCounter();
  /** Samples extracted and noted, not stored yet. */
  let pending: Sample[] = [];
  /** Extracts what the last chunk brought; stores once a batch is complete (or at the `end`). */
  const flush = async (end = false) => {
    if (buffered > 0 || workouts.length > 0) {
      const payload = { metrics: [...blocks.values()], workouts, warnings: [] };
      blocks.clear();
      last = undefined;
      workouts = [];
      buffered = 0;
      const extract = extractSamples(payload, occurrences, skips);
      const samples = extract.samples.map(asRawSample);
      run.note(extract, samples);
      for (const s of samples) pending.push(s);
    }
    if (pending.length >= INSERT_BATCH || (end && pending.length > 0)) {
      const batch = pending;
      pending = [];
      const before = run.newSamples;
      await run.storeInBatches(batch, INSERT_BATCH);
      ahead?.stored(batch, run.newSamples - before === batch.length);
    }
  };

  /** A top-level `<Record>` with children, read when it closes (its metadata read by then). */
  let record: { attrs: Record<string, string>; zone: string | undefined; reason?: string } | undefined;
  /** The home zone's clock, for records that name no zone (export-clock.ts); set at <ExportDate>. */
  let clock: ExportClock | undefined;
  /**
   * One top-level record, read in the zone its metadata names (records.ts inRecordZone), else on
   * the home zone's clock where the export's offset is not that zone's.
   */
  const readRecord = (a: Record<string, string>, named: string | undefined) => {
    records++;
    const zone = named ?? clock?.zoneFor(a.startDate, a.endDate);
    const type = a.type ?? '';
    const metric = metricOfType(type);
    if (metric === 'blood_pressure') {
      bpTopLevel.add(bpKey(a));
      const joined = pairs.add(zone === undefined ? a : inRecordZone(a, zone));
      if (joined) addPoint(joined);
      return;
    }
    const m = mapRecord(a, metric, zone, clock?.zone);
    if ('skip' in m) {
      if (m.damaged || m.unknownValue)
        skips.add(metric ?? type, m.skip, { startDate: a.startDate, endDate: a.endDate });
      else if (m.skip.startsWith('unmapped type')) unmapped[type] = (unmapped[type] ?? 0) + 1;
    } else {
      addPoint(m);
      if (m.next) addPoint(m.next);
    }
  };

  /** A workout's metadata, with the home zone as its HKTimeZone when it names none and needs it. */
  const workoutMeta = (meta: Record<string, string>, a: Record<string, string>) => {
    if (meta.HKTimeZone !== undefined) return meta;
    const zone = clock?.zoneFor(a.startDate, a.endDate);
    return zone === undefined ? meta : { ...meta, HKTimeZone: zone };
  };

  parser.on('error', (err) => {
    xmlErrors++;
    if (xmlErrors <= MAX_XML_ERRORS_LISTED) xmlProblems.push(`XML problem (parsing went on): ${err.message}`);
  });
  parser.on('opentag', (tag: SaxesTagPlain) => {
    tags++;
    lastTagLine = parser.line;
    const parent = stack[stack.length - 1];
    if (parent === undefined) rootElement ??= tag.name;
    if (!tag.isSelfClosing) stack.push(tag.name);
    const a = tag.attributes as Record<string, string>;
    switch (tag.name) {
      case 'HealthData':
        sawHealthData = true;
        break;
      case 'ExportDate':
        if (parent === 'HealthData' && typeof a.value === 'string') {
          exportDate = a.value;
          clock = ExportClock.of(exportDate, run.zone);
        }
        break;
      case 'Record': {
        if (parent === 'Correlation' && metricOfType(a.type ?? '') === 'blood_pressure') {
          bpInCorrelation.set(bpKey(a), a);
          break;
        }
        if (parent !== 'HealthData') break;
        // its metadata (the zone it was recorded in) comes in its children: read at its end
        if (tag.isSelfClosing) readRecord(a, undefined);
        else record = { attrs: a, zone: undefined };
        break;
      }
      case 'Workout':
        if (parent !== 'HealthData') break;
        workoutCount++;
        workout = { attrs: a, stats: [], meta: {}, activityAscents: [] };
        if (tag.isSelfClosing) {
          workouts.push(mapWorkout(a, [], workoutMeta({}, a)));
          workout = undefined;
        }
        break;
      case 'WorkoutStatistics':
        if (workout && parent === 'Workout') workout.stats.push(a);
        break;
      case 'MetadataEntry': {
        // the key as the Health app writes it, also when written as HealthKit's constant's name
        const key = typeof a.key === 'string' ? metadataKey(a.key) : undefined;
        if (record && parent === 'Record') {
          if (key === 'HKTimeZone' && typeof a.value === 'string') record.zone = a.value;
          // a basal and a bolus given at one instant are two doses: the reason tells them apart
          else if (key === 'HKInsulinDeliveryReason' && typeof a.value === 'string') record.reason = a.value;
        } else if (workout && parent === 'Workout' && key !== undefined && typeof a.value === 'string')
          workout.meta[key] = a.value;
        else if (
          workout &&
          parent === 'WorkoutActivity' &&
          key === 'HKElevationAscended' &&
          typeof a.value === 'string'
        )
          workout.activityAscents.push(a.value);
        break;
      }
    }
  });
  parser.on('closetag', (tag: SaxesTagPlain) => {
    if (!tag.isSelfClosing) stack.pop();
    if (tag.name === 'HealthData' && stack.length === 0) closedHealthData = true;
    if (tag.name === 'Record' && record && stack.length === 1) {
      readRecord(
        record.reason === undefined
          ? record.attrs
          : { ...record.attrs, HKInsulinDeliveryReason: record.reason },
        record.zone,
      );
      record = undefined;
    }
    if (tag.name === 'Workout' && workout && !tag.isSelfClosing) {
      const meta = workoutMeta(workout.meta, workout.attrs);
      workouts.push(mapWorkout(workout.attrs, workout.stats, meta, workout.activityAscents));
      workout = undefined;
    }
  });

  let input: FileHandle | undefined;
  try {
    input = await fs.promises.open(file, 'r');
    const buffer = Buffer.allocUnsafeSlow(READ_CHUNK);
    let bytesRead = 0;
    // a character cut between two pieces (or chunks) is kept by the decoder for the next one;
    // the encoding is told by the first bytes (text-decoding.ts)
    let decoder: PieceDecoder | undefined;
    const ampersands = new BareAmpersands();
    const watch = new TagWatch();
    for (;;) {
      const got = (await input.read(buffer, 0, READ_CHUNK, null)).bytesRead;
      if (got === 0) break;
      bytesRead += got;
      const bytes = buffer.subarray(0, got);
      decoder ??= decoderFor(bytes);
      const decode = decoder;
      let chars = 0;
      let junk = false;
      for (let at = 0; at < bytes.length && !junk; at += PARSE_PIECE) {
        const text = decode.write(bytes.subarray(at, at + PARSE_PIECE));
        chars += text.length;
        const errorsBefore = xmlErrors;
        parser.write(ampersands.fix(text));
        junk = notXml(text.length, xmlErrors - errorsBefore);
      }
      onRead(bytesRead, records);
      if (junk || watch.read(chars, tags)) {
        damagedAtLine = lastTagLine;
        break;
      }
      await flush();
      await yieldToLoop();
    }
    if (damagedAtLine === null) {
      const rest = decoder?.end();
      if (rest) parser.write(ampersands.fix(rest));
      parser.write(ampersands.end());
      parser.close();
    }
    // a file cut inside a record's children: the record is read as far as it came
    if (record) readRecord(record.attrs, record.zone);
    record = undefined;
    bareAmpersands = ampersands.count;
    for (const [key, a] of bpInCorrelation) {
      if (bpTopLevel.has(key)) continue;
      const zone = clock?.zoneFor(a.startDate, a.endDate);
      const joined = pairs.add(zone === undefined ? a : inRecordZone(a, zone));
      if (joined) addPoint(joined);
    }
    for (const p of pairs.flush()) addPoint(p);
    for (const b of extraBlocks)
      for (const point of b.data) addPoint({ metric: b.name, units: b.units, point });
    await flush(true);
    ahead?.finish();
  } finally {
    await input?.close();
    occurrences.close();
  }
  return {
    records,
    workouts: workoutCount,
    unmappedTypes: unmapped,
    xmlErrors,
    xmlProblems,
    xmlErrorsUnlisted: Math.max(0, xmlErrors - MAX_XML_ERRORS_LISTED),
    skipLines: skips.lines(true),
    truncated: sawHealthData && !closedHealthData && damagedAtLine === null,
    damagedAtLine,
    bareAmpersands,
    exportDate,
    sawHealthData,
    rootElement,
  };
}

/**
 * One webhook body → samples → card rows, for a body held in memory
 * (one JSON.parse) or spooled to disk (walked block by block with stream-json). A body that does
 * not parse is quarantined and answered `{ok: false, warning}` (still HTTP 200: the phone must
 * not retry it forever).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { headGraphemes } from '../../../common/graphemes.js';
import { storageFault } from '../../../store/storage-faults.js';
import { HAE_QUARANTINE_KEEP } from '../env.js';
import { csvPayload, isCsvBody } from '../format/csv-payload.js';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../format/nesting.js';
import { otherSectionWarnings } from '../format/other-sections.js';
import { normalisePayload } from '../format/payload.js';
import { extractSamples } from '../format/samples.js';
import { csvGrouping, type TimeGrouping } from '../format/time-grouping.js';
import { withPatientTierUp } from '../patient-tier-up.js';
import { bodyMemoKey, fileMemoKey, type HaeIngest, type PushRun } from '../service.js';
import { quarantine } from './quarantine.js';
import { decodeUtf8 } from './receive.js';
import { isBodyParseError, type PayloadVisitor, walkHaePayload } from './stream-payload.js';
import { StreamedBlock } from './streamed-block.js';
import { utf8Body, utf8FileStream } from './utf8-body.js';

/** The webhook's 200 answer. */
export interface WebhookAnswer {
  ok: boolean;
  /** `{cardId: rowsWritten}` for each subscribed card whose metric was in the body. */
  ingested: Record<string, number>;
  /** Metrics of the body with samples that no card subscribes to. */
  availableUnsubscribed: string[];
  /** Why the body was not (fully) ingested, when ok is false. */
  warning?: string;
  /** Points or sections that were skipped, when any. */
  warnings?: string[];
  /** Samples read from the body and how many of them were new. */
  samples?: { received: number; new: number };
}

/** Workouts extracted together when a body is streamed. */
const WORKOUT_BATCH = 500;

/**
 * Finishes a streamed push: its cards' rows are made a group of dates at a time with a turn of
 * the event loop between groups (finishInSteps), so filling the cards from a body of months of
 * minute samples does not hold the server; they are written, with the push record, in one
 * transaction at the end.
 */
async function answer(run: PushRun, ok: boolean, warning?: string, bodyKey?: Buffer): Promise<WebhookAnswer> {
  return shape(await run.finishInSteps(undefined, bodyKey), ok, warning);
}

function shape(s: ReturnType<PushRun['finish']>, ok: boolean, warning?: string): WebhookAnswer {
  return {
    ok,
    ingested: s.ingested,
    availableUnsubscribed: s.availableUnsubscribed,
    ...(warning ? { warning } : {}),
    ...(s.warnings.length ? { warnings: s.warnings } : {}),
    samples: { received: s.samples, new: s.newSamples },
  };
}

/**
 * What a body that is not JSON probably is, from its first bytes and Content-Type, as advice
 * for the person setting up the app ('' when nothing recognisable): the automation set to CSV
 * (HAE sends CSV as multipart/form-data), an Apple Health export.xml or its zip posted to the
 * webhook instead of the import, a gzip-compressed body sent without saying so (a proxy or a
 * script that compressed it, whose `Content-Encoding: gzip` would have it read as JSON).
 */
export function notJsonHint(head: Buffer, contentType?: string): string {
  const type = (contentType ?? '').toLowerCase();
  const start = head.subarray(0, 64).toString('latin1').trimStart();
  if (start.startsWith('PK\u0003\u0004'))
    return ' It is a zip archive: an Apple Health export (export.zip or its export.xml) goes to Settings › Data › Import from Apple Health… in Klebb.';
  if (head[0] === 0x1f && head[1] === 0x8b)
    return ' It is gzip-compressed: send it with the header Content-Encoding: gzip, or uncompressed.';
  if (start.startsWith('<'))
    return ' It looks like XML: an Apple Health export.xml goes to Settings › Data › Import from Apple Health… in Klebb.';
  // tab-separated text not read as CSV (over 4 MB, or not the app's columns): a spreadsheet's save
  if (/^[^{[\n,;]*\t[^\n]*\n/.test(start))
    return " It looks like tab-separated text, as a spreadsheet saves it: send the app's own export (its Export Format JSON, or CSV with commas).";
  if (type.includes('multipart/form-data') || type.includes('text/csv') || /^[^{[\n]*,[^\n]*\n/.test(start))
    return " It looks like CSV: set the automation's Export Format to JSON.";
  return '';
}

/** The answer's warning for a body nested deeper than MAX_JSON_DEPTH (hae/nesting.ts). */
function tooDeepWarning(): string {
  return `the body nests deeper than ${MAX_JSON_DEPTH} levels (an HAE body nests about 8); nothing was ingested`;
}

function shortMessage(err: unknown): string {
  const m = err instanceof Error ? err.message : String(err);
  return m.length > 200 ? `${headGraphemes(m, 197)}...` : m;
}

/** A body received in memory (receiveBody's inline outcome): its chunks, and them joined on first read. */
export interface InlineBody {
  bytes: number;
  chunks: readonly Buffer[];
  readonly body: Buffer;
}

/**
 * A body held in memory: decoded once, parsed once, normalised, extracted, stored, cards filled.
 * `received`: the bytes, or the chunks they arrived in (a re-send answered from its memo then
 * never joins them).
 * @returns the answer; a body that is not JSON is quarantined (nothing ingested).
 */
export function ingestInline(
  svc: HaeIngest,
  received: Buffer | InlineBody,
  opts: { contentType?: string; grouping?: TimeGrouping } = {},
): WebhookAnswer {
  const bytes = Buffer.isBuffer(received) ? received.length : received.bytes;
  if (bytes === 0) {
    return {
      ok: false,
      ingested: {},
      availableUnsubscribed: [],
      warning: 'the body is empty; nothing was ingested',
    };
  }
  const bodyKey = bodyMemoKey(
    Buffer.isBuffer(received) ? received : received.chunks,
    svc.samples.timeZone(),
    opts.grouping,
  );
  const replayed = svc.startPush('hae', bytes, opts.grouping).replayAndFinish(bodyKey);
  if (replayed) return shape(replayed, true);
  // not seen before: the chunks are joined only now
  const body = Buffer.isBuffer(received) ? received : received.body;
  // read, stored and put on the cards with the optimising compiler held back (patient-tier-up.ts)
  return withPatientTierUp(() => parseAndIngest(svc, body, bodyKey, opts));
}

/** A body not seen before (its memo key `bodyKey`), bytes whole: parsed, stored, cards filled. */
function parseAndIngest(
  svc: HaeIngest,
  body: Buffer,
  bodyKey: Buffer,
  opts: { contentType?: string; grouping?: TimeGrouping },
): WebhookAnswer {
  const contentType = opts.contentType;
  // a UTF-16 file (Excel's Unicode Text, PowerShell's Out-File, with or without its mark) is read as its text
  const text = utf8Body(body, contentType);
  const csv = isCsvBody(text, contentType) ? ingestCsv(svc, text, bodyKey, opts) : undefined;
  if (csv) return csv;
  let parsed: unknown;
  try {
    parsed = JSON.parse(decodeUtf8(text));
  } catch (err) {
    // the bytes as they came are kept
    const name = quarantine(svc.dirs.quarantine, body, HAE_QUARANTINE_KEEP);
    svc.log.warn(
      { quarantined: name, bytes: body.length, err: shortMessage(err) },
      'HAE body is not valid JSON; quarantined',
    );
    return {
      ok: false,
      ingested: {},
      availableUnsubscribed: [],
      warning: `the body is not valid JSON (${shortMessage(err)}); nothing was ingested; it is kept as ingest/quarantine/${name}.${notJsonHint(text, contentType)}`,
    };
  }
  if (nestsDeeperThan(parsed)) {
    svc.log.warn({ bytes: body.length, limit: MAX_JSON_DEPTH }, 'HAE body nests too deeply; refused');
    return { ok: false, ingested: {}, availableUnsubscribed: [], warning: tooDeepWarning() };
  }
  const run = svc.startPush('hae', body.length, opts.grouping);
  const payload = normalisePayload(parsed);
  parsed = undefined;
  return shape(run.addPayloadAndFinish(payload, bodyKey), true);
}

/**
 * A body the automation sent as CSV (format/csv-payload.ts): read as the payload its JSON export
 * would be, stored and put on the cards the same way. Undefined when it holds neither a metrics
 * nor a workouts file: it is then answered as a body that is not JSON (quarantined, with advice).
 * Such a file with no value in it (nothing measured in the period) is a push of nothing, ok.
 */
function ingestCsv(
  svc: HaeIngest,
  body: Buffer,
  bodyKey: Buffer,
  opts: { contentType?: string; grouping?: TimeGrouping },
): WebhookAnswer | undefined {
  const csv = csvPayload(body, opts.contentType);
  if (!csv.recognised) return undefined;
  const run = svc.startPush('hae', body.length, csvGrouping(opts.grouping));
  const payload = normalisePayload(csv.payload);
  payload.warnings.unshift(...csv.warnings);
  return shape(run.addPayloadAndFinish(payload, bodyKey), true);
}

/** Sizes of the streamed path (tests make them small to cross chunk boundaries). */
export interface StreamOptions {
  /** Points of one metric block extracted (and stored) together (default 1000: less garbage promoted, lower peak memory, and each turn of the event loop spent on them stays short). */
  chunkPoints?: number;
  /** Points held in memory while a block's name or units are unknown, before spilling to disk (default 20 000). */
  pendingInMemory?: number;
  /** The request's Content-Type (for advice when the body is not JSON). */
  contentType?: string;
  /** The automation's time grouping (its automation-aggregation header, time-grouping.ts). */
  grouping?: TimeGrouping;
}

/**
 * A body spooled to `file` (over HAE_INLINE_MAX_BYTES): walked point by point with stream-json,
 * each metric block extracted a chunk of points at a time (StreamedBlock: the same samples as the
 * whole-body path), workouts in batches. The file is removed afterwards, or moved into the
 * quarantine when the body stops parsing part way (what came before is kept). When storing fails
 * instead (failedPush), what the push stored so far is removed: it leaves nothing. A body read to
 * its end leaves its memo (bodyMemoKey): the same bytes sent again are answered from it.
 */
export async function ingestSpooled(
  svc: HaeIngest,
  file: string,
  bytes: number,
  opts: StreamOptions = {},
): Promise<WebhookAnswer> {
  // the same bytes read whole before (the phone retrying a push it gave up waiting for): answered
  // from the body's memo, without being parsed again
  const bodyKey = await fileMemoKey(file, svc.samples.timeZone(), opts.grouping);
  const replayed = svc.startPush('hae', bytes, opts.grouping).replayAndFinish(bodyKey);
  if (replayed) {
    fs.rmSync(file, { force: true });
    return shape(replayed, true);
  }
  // its cards' rows are read back at the end (no makeRowsAhead): holding the open days of months
  // of minute samples raised a 100 MB push's peak memory by about 50 MB, and cost CPU besides
  const run = svc.startPush('hae', bytes, opts.grouping);
  const blockOpts = {
    chunkPoints: opts.chunkPoints ?? 1000,
    pendingInMemory: opts.pendingInMemory ?? 20_000,
    spillPath: () => `${file}.spill-${randomBytes(4).toString('hex')}`,
  };
  let workouts: unknown[] = [];
  const flushWorkouts = async () => {
    if (workouts.length === 0) return;
    const payload = normalisePayload({ workouts });
    workouts = [];
    for (const w of payload.warnings) run.warn(w);
    await run.addInBatches(extractSamples(payload, undefined, undefined, run.zone));
  };
  let block: StreamedBlock | undefined;
  let blocks = 0;
  const visitor: PayloadVisitor = {
    blockStart: () => {
      block = new StreamedBlock(run, blockOpts);
    },
    blockField: (key, value) => block?.field(key, value),
    point: (value) => block?.point(value),
    blockEnd: async () => {
      const b = block;
      block = undefined;
      await b?.end();
      blocks++;
    },
    badBlock: (value) => {
      for (const w of normalisePayload({ metrics: [value] }).warnings) run.warn(w);
    },
    workout: async (value) => {
      workouts.push(value);
      if (workouts.length >= WORKOUT_BATCH) await flushWorkouts();
    },
  };
  try {
    const walk = await walkHaePayload(utf8FileStream(file, readHead(file), opts.contentType), visitor);
    await flushWorkouts();
    for (const w of otherSectionWarnings(walk.otherSections)) run.warn(w);
    if (!walk.rootIsObject) run.warn('body is not an HAE object; nothing ingested');
    else if (walk.blocks + walk.workouts === 0) run.warn('body has neither "metrics" nor "workouts"');
    fs.rmSync(file, { force: true });
    // read to its end: its memo is kept, so the same bytes sent again are not read again
    return await answer(run, true, undefined, bodyKey);
  } catch (err) {
    if (!isBodyParseError(err)) return failedPush(svc, run, file, err);
    // what was read before the error is kept: the blocks read whole, the points of the block in
    // progress up to the break, and the workouts so far
    const cut = block !== undefined;
    await block?.end().catch(() => {});
    await flushWorkouts().catch(() => {});
    const hint = notJsonHint(readHead(file), opts.contentType);
    let where = 'ingest/quarantine/';
    try {
      where += quarantine(svc.dirs.quarantine, { file }, HAE_QUARANTINE_KEEP);
    } catch (qErr) {
      where = `nowhere (quarantine failed: ${shortMessage(qErr)})`;
      fs.rmSync(file, { force: true });
    }
    svc.log.warn(
      { quarantined: where, bytes, blocks, err: shortMessage(err) },
      'HAE body stopped parsing; quarantined',
    );
    const done = await run.finishInSteps();
    return shape(
      done,
      false,
      `the body is not valid JSON (${shortMessage(err)}); what was read before the error was ingested: ${readBeforeBreak(done.samples, blocks, cut)}; the body is kept as ${where}.${hint}`,
    );
  }
}

/**
 * What a push cut short by a parse error kept, in words that agree with its `samples.received`:
 * `samples` read (the same count), from `whole` metric blocks read to their end and, when `cut`,
 * the block the error broke off (its points up to the break are kept too).
 */
export function readBeforeBreak(samples: number, whole: number, cut: boolean): string {
  const from = cut
    ? `${whole} whole metric block(s) and the block cut short by the error, up to the break`
    : `${whole} whole metric block(s)`;
  return `${samples} sample(s) from ${from}`;
}

/**
 * A streamed push that failed while its samples were stored (the database refused a write, the
 * spool file could not be read), not because of its body: the samples it stored so far are
 * removed (PushRun.discard), so it leaves nothing and the phone's next send of it is stored whole.
 * When another push ran meanwhile they are kept instead (it may count on them) and their cards'
 * rows are recomputed, now or, should that fail too, at the next start.
 * @returns the answer `{ok: false, warning}`.
 * @throws a full disk or a busy database again (the route answers 507 / 503: retry later), and
 *   the original error when the samples could not be removed.
 */
function failedPush(svc: HaeIngest, run: PushRun, file: string, err: unknown): WebhookAnswer {
  fs.rmSync(file, { force: true });
  let undone: { removed: number; kept: number };
  try {
    undone = run.discard();
  } catch (undoErr) {
    svc.log.warn(
      { err: shortMessage(err), undo: shortMessage(undoErr) },
      'HAE push failed; the samples it stored so far could not be removed',
    );
    // they stay: their cards are filled once the database takes writes again (the same body
    // sent again finds them stored and would not fill them)
    const opened = run.opened;
    if (opened) svc.settleFailedPush(opened.pushId, opened.afterId);
    throw err;
  }
  if (undone.kept > 0) {
    svc.log.warn(
      { err: shortMessage(err), kept: undone.kept },
      'HAE push failed while another push ran; the samples it stored are kept',
    );
    try {
      svc.recomputePending();
    } catch (fillErr) {
      svc.log.warn({ err: shortMessage(fillErr) }, 'cards of the kept samples are filled at the next start');
    }
  } else {
    svc.log.warn(
      { err: shortMessage(err), removed: undone.removed },
      'HAE push failed; the samples it stored were removed',
    );
  }
  if (storageFault(err)) throw err;
  const stored =
    undone.kept > 0
      ? `the ${undone.kept} new sample(s) stored before the failure are kept (another push was being stored at the same time)`
      : 'nothing of this body was stored';
  return {
    ok: false,
    ingested: {},
    availableUnsubscribed: [],
    warning: `ingestion failed: ${shortMessage(err)}; ${stored} (send it again)`,
  };
}

/** The first 64 bytes of a file (empty when it cannot be read). */
function readHead(file: string): Buffer {
  try {
    const fd = fs.openSync(file, 'r');
    try {
      const buf = Buffer.alloc(64);
      return buf.subarray(0, fs.readSync(fd, buf, 0, 64, 0));
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return Buffer.alloc(0);
  }
}

/**
 * One webhook body → samples → card rows (REFERENCE section 7 "Flow"), for a body held in memory
 * (one JSON.parse) or spooled to disk (walked block by block with stream-json). A body that does
 * not parse is quarantined and answered `{ok: false, warning}` (still HTTP 200: the phone must
 * not retry it forever).
 */
import fs from 'node:fs';
import { normalisePayload } from '../hae/payload.js';
import { extractSamples } from '../hae/samples.js';
import { HAE_QUARANTINE_KEEP } from '../hae-env.js';
import type { HaeIngest, PushRun } from '../hae-service.js';
import { quarantine } from './quarantine.js';
import { decodeUtf8 } from './receive.js';
import { walkHaePayload } from './stream-payload.js';

/** The webhook's 200 answer (REFERENCE section 4). */
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

function answer(run: PushRun, ok: boolean, warning?: string): WebhookAnswer {
  const s = run.finish();
  return {
    ok,
    ingested: s.ingested,
    availableUnsubscribed: s.availableUnsubscribed,
    ...(warning ? { warning } : {}),
    ...(s.warnings.length ? { warnings: s.warnings } : {}),
    samples: { received: s.samples, new: s.newSamples },
  };
}

function shortMessage(err: unknown): string {
  const m = err instanceof Error ? err.message : String(err);
  return m.length > 200 ? `${m.slice(0, 197)}...` : m;
}

/**
 * A body held in memory: decoded once, parsed once, normalised, extracted, stored, cards filled.
 * @returns the answer; a body that is not JSON is quarantined (nothing ingested).
 */
export function ingestInline(svc: HaeIngest, body: Buffer): WebhookAnswer {
  if (body.length === 0) {
    return { ok: false, ingested: {}, availableUnsubscribed: [], warning: 'the body is empty; nothing was ingested' };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(decodeUtf8(body));
  } catch (err) {
    const name = quarantine(svc.dirs.quarantine, body, HAE_QUARANTINE_KEEP);
    svc.log.warn({ quarantined: name, bytes: body.length, err: shortMessage(err) }, 'HAE body is not valid JSON; quarantined');
    return {
      ok: false,
      ingested: {},
      availableUnsubscribed: [],
      warning: `the body is not valid JSON (${shortMessage(err)}); nothing was ingested; it is kept as ingest/quarantine/${name}`,
    };
  }
  const run = svc.startPush('hae', body.length);
  const payload = normalisePayload(parsed);
  parsed = undefined;
  for (const w of payload.warnings) run.warn(w);
  run.add(extractSamples(payload));
  return answer(run, true);
}

/**
 * A body spooled to `file` (over HAE_INLINE_MAX_BYTES): walked element by element, each metric
 * block extracted and stored on its own, workouts in batches. The file is removed afterwards, or
 * moved into the quarantine when the body stops parsing part way (what came before is kept).
 */
export async function ingestSpooled(svc: HaeIngest, file: string, bytes: number): Promise<WebhookAnswer> {
  const run = svc.startPush('hae', bytes);
  let workouts: unknown[] = [];
  const flushWorkouts = async () => {
    if (workouts.length === 0) return;
    const payload = normalisePayload({ workouts });
    workouts = [];
    for (const w of payload.warnings) run.warn(w);
    await run.addInBatches(extractSamples(payload));
  };
  let blocks = 0;
  try {
    const walk = await walkHaePayload(fs.createReadStream(file, { highWaterMark: 256 * 1024 }), async (section, value) => {
      if (section === 'workouts') {
        workouts.push(value);
        if (workouts.length >= WORKOUT_BATCH) await flushWorkouts();
        return;
      }
      blocks++;
      const payload = normalisePayload({ metrics: [value] });
      for (const w of payload.warnings) run.warn(w);
      await run.addInBatches(extractSamples(payload));
    });
    await flushWorkouts();
    if (!walk.rootIsObject) run.warn('body is not an HAE object; nothing ingested');
    else if (walk.elements.metrics + walk.elements.workouts === 0) run.warn('body has neither "metrics" nor "workouts"');
    fs.rmSync(file, { force: true });
    return answer(run, true);
  } catch (err) {
    await flushWorkouts().catch(() => {});
    let where = 'ingest/quarantine/';
    try {
      where += quarantine(svc.dirs.quarantine, { file }, HAE_QUARANTINE_KEEP);
    } catch (qErr) {
      where = `nowhere (quarantine failed: ${shortMessage(qErr)})`;
      fs.rmSync(file, { force: true });
    }
    svc.log.warn({ quarantined: where, bytes, blocks, err: shortMessage(err) }, 'HAE body stopped parsing; quarantined');
    return answer(
      run,
      false,
      `the body is not valid JSON (${shortMessage(err)}); the ${blocks} metric block(s) before the error were ingested; the body is kept as ${where}`,
    );
  }
}

/**
 * Every generated HAE payload (test/fixtures/hae-payloads.ts) posted to the real server: 200, cards
 * for steps, sleep, weight, heart rate and workouts filled with exactly the rows the pure pipeline
 * computes from the payload; posting it twice gives the same rows and no new samples; a payload
 * split across two posts gives the same rows as one post; and the rows of chosen days, from the
 * formulas the generator writes. The real payloads run the same checks in the cases suite.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { aggregateRows } from '../../src/ingest/hae/format/aggregate.js';
import { normalisePayload } from '../../src/ingest/hae/format/payload.js';
import { extractSamples } from '../../src/ingest/hae/format/samples.js';
import { kgOn, stepsOn, walkingHrOn } from '../fixtures/hae-payloads.js';
import { halvePayload } from '../helpers/hae-halves.js';
import { FAMILY_CARDS, HAE_FILES, haeBytes, type IngestServer, startIngestServer } from './helpers.js';

/** The rows the pure pipeline (normalise → extract → aggregate) gives for `metric` over `bodies` in order. */
function expectedRows(metric: string, ...bodies: Buffer[]) {
  const samples = bodies.flatMap(
    (b) => extractSamples(normalisePayload(JSON.parse(b.toString('utf8')))).samples,
  );
  return aggregateRows(metric, samples);
}

/** A body cut in two (halvePayload), each half as JSON bytes. */
function halves(bytes: Buffer): [Buffer, Buffer] {
  const [a, b] = halvePayload(JSON.parse(bytes.toString('utf8')));
  return [Buffer.from(JSON.stringify(a)), Buffer.from(JSON.stringify(b))];
}

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

describe.each(HAE_FILES)('generated payload %s through the webhook', (file) => {
  const bytes = haeBytes(file);

  it('posts with 200, fills every subscribed card with the pipeline rows, and a re-send changes nothing', async () => {
    srv = await startIngestServer({ cards: FAMILY_CARDS });
    const first = await srv.push(bytes);
    expect(first.status).toBe(200);
    expect(first.body.ok).toBe(true);
    expect(first.body.warning).toBeUndefined();
    expect(first.body.warnings).toBeUndefined();
    let filled = 0;
    for (const [id, metric] of FAMILY_CARDS) {
      const want = expectedRows(metric, bytes);
      expect(await srv.rows(id), `${id} (${metric})`).toEqual(want);
      if (want.length) {
        expect(first.body.ingested[id], id).toBe(want.length);
        filled++;
      }
    }
    expect(filled).toBeGreaterThan(0);
    const stored = srv.inst.hae.samples.count();
    expect(stored).toBe(first.body.samples.new);

    const before = await Promise.all(FAMILY_CARDS.map(([id]) => srv?.rows(id)));
    const again = await srv.push(bytes);
    expect(again.status).toBe(200);
    expect(again.body.ok).toBe(true);
    expect(again.body.samples).toEqual({ received: first.body.samples.received, new: 0 });
    for (const n of Object.values(again.body.ingested)) expect(n).toBe(0);
    expect(srv.inst.hae.samples.count()).toBe(stored);
    expect(await Promise.all(FAMILY_CARDS.map(([id]) => srv?.rows(id)))).toEqual(before);
  });

  it('gives the same rows when split across two posts as in one', async () => {
    srv = await startIngestServer({ cards: FAMILY_CARDS });
    const [a, b] = halves(bytes);
    for (const half of [a, b]) {
      const r = await srv.push(half);
      expect(r.status).toBe(200);
      expect(r.body.ok).toBe(true);
    }
    for (const [id, metric] of FAMILY_CARDS) {
      expect(await srv.rows(id), `${id} (${metric})`).toEqual(expectedRows(metric, bytes));
    }
  });
});

describe('hand-checked rows after a generated post', () => {
  it('generated-2025-v2-dst.json: steps across the daylight-saving change, pounds as kg, walking heart rate', async () => {
    srv = await startIngestServer({ cards: FAMILY_CARDS });
    expect((await srv.push(haeBytes('generated-2025-v2-dst.json'))).status).toBe(200);
    const on = async (id: string, date: string) => (await srv?.rows(id))?.find((r) => r.date === date);
    // "2025-11-01 00:00:00 -0400" (day 7) and "2025-11-02 00:00:00 -0500" (day 8): each on its own date
    expect(await on('steps', '2025-11-01')).toEqual({ date: '2025-11-01', count: stepsOn(7) });
    expect(await on('steps', '2025-11-02')).toEqual({ date: '2025-11-02', count: stepsOn(8) });
    expect((await on('weight', '2025-10-28'))?.kg).toBeCloseTo(kgOn(3), 2);
    expect(await on('walking-heart', '2025-10-30')).toMatchObject({ bpm: walkingHrOn(5) });
    expect((await srv.rows('workouts')).length).toBe(7);
  });
});

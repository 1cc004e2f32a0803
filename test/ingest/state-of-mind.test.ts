/**
 * Moods and emotions logged in the Health app (iOS 18's State of Mind), as Health Auto Export
 * sends them in its `stateOfMind` section, fill the `state_of_mind` metric: the day's average
 * valence, from -1 (very unpleasant) to 1 (very pleasant). The section was only counted.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { HAE_INLINE_MAX_BYTES } from '../../src/ingest/hae/env.js';
import { type IngestServer, startIngestServer } from './helpers.js';

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

function mood(id: string, start: string, kind: string, valence: unknown) {
  return {
    id,
    start,
    end: start,
    kind,
    valence,
    valenceClassification: 'slightly_pleasant',
    labels: ['calm'],
    associations: ['work'],
  };
}

const entries = [
  mood('A', '2026-08-20 09:00:00 +0200', 'momentaryEmotion', 0.4),
  // a daily mood logged at the same instant is another entry
  mood('B', '2026-08-20 09:00:00 +0200', 'dailyMood', -0.2),
  mood('C', '2026-08-21 21:00:00 +0200', 'dailyMood', -0.75),
  // no valence goes beyond -1 and 1
  mood('D', '2026-08-22 21:00:00 +0200', 'dailyMood', 7),
];
const rows = [
  { date: '2026-08-20', valence: 0.1 },
  { date: '2026-08-21', valence: -0.75 },
];

describe('states of mind pushed by Health Auto Export', () => {
  it("fill state_of_mind with the day's average valence", async () => {
    const s = await startIngestServer({ cards: [['mood', 'state_of_mind']] });
    srv = s;
    const r = await s.push(JSON.stringify({ data: { metrics: [], stateOfMind: entries } }));
    expect(r.status, r.text).toBe(200);
    expect(r.body.samples).toEqual({ received: 3, new: 3 });
    expect(r.body.warnings.join('\n')).toMatch(/state_of_mind: state of mind valence above 1/);
    expect(await s.rows('mood')).toEqual(rows);
    // one entry sent as an object, not a list
    const one = await s.push(
      JSON.stringify({ stateOfMind: mood('E', '2026-08-23 08:00:00 +0200', 'dailyMood', 0.5) }),
    );
    expect(one.body.samples).toEqual({ received: 1, new: 1 });
    expect((await s.rows('mood')).at(-1)).toEqual({ date: '2026-08-23', valence: 0.5 });
  });

  it('fill it the same from a body streamed for its size, a list or one object', async () => {
    const s = await startIngestServer({ cards: [['mood', 'state_of_mind']] });
    srv = s;
    const steps = Array.from({ length: 70_000 }, (_, i) => ({
      date: `2026-08-20 ${String(Math.floor(i / 3600) % 24).padStart(2, '0')}:${String(Math.floor(i / 60) % 60).padStart(2, '0')}:${String(i % 60).padStart(2, '0')} +0200`,
      qty: 1,
      source: `Watch ${Math.floor(i / 86400)}`,
    }));
    const metrics = [{ name: 'step_count', units: 'count', data: steps }];
    const body = JSON.stringify({ data: { stateOfMind: entries, metrics } });
    expect(body.length).toBeGreaterThan(HAE_INLINE_MAX_BYTES);
    const r = await s.push(body);
    expect(r.status, r.text).toBe(200);
    expect(r.body.ok).toBe(true);
    expect(await s.rows('mood')).toEqual(rows);
    const one = JSON.stringify({
      data: { metrics, stateOfMind: mood('E', '2026-08-23 08:00:00 +0200', 'dailyMood', 0.5) },
    });
    expect((await s.push(one)).status).toBe(200);
    expect((await s.rows('mood')).at(-1)).toEqual({ date: '2026-08-23', valence: 0.5 });
  });
});

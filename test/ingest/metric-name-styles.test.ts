/**
 * Metric names as other exporters and scripts write them, pushed through the real webhook:
 * display style (`Step Count`, `Weight & Body Mass`, `Walking + Running Distance`) and camelCase
 * (`stepCount`, `restingHeartRate`). Each fills the card of the catalogue metric it names, is
 * offered under that metric's key, and a card may subscribe with such a name too. A name that
 * matches no metric stays an unknown one, kept under its own name.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { haeCard, type IngestServer, startIngestServer } from './helpers.js';

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

const DAY = '2026-05-19';
const AT = `${DAY} 00:00:00 -0700`;

function block(name: string, units: string, point: Record<string, unknown>) {
  return { name, units, data: [{ date: AT, source: 'iPhone', ...point }] };
}

describe('metric names in another style', () => {
  it('fills the cards of the metrics they name', async () => {
    srv = await startIngestServer({
      cards: [
        ['steps', 'step_count'],
        ['resting', 'resting_heart_rate'],
        ['weight', 'weight_body_mass'],
        ['distance', 'walking_running_distance'],
        ['heart', 'heart_rate'],
      ],
    });
    const body = {
      data: {
        metrics: [
          block('stepCount', 'count', { qty: 8421 }),
          block('restingHeartRate', 'count/min', { qty: 54 }),
          block('Weight & Body Mass', 'kg', { qty: 71.2 }),
          block('Walking + Running Distance', 'km', { qty: 6.4 }),
          block('Heart Rate', 'count/min', { Min: 50, Avg: 70, Max: 140 }),
          block('activeEnergy', 'kcal', { qty: 512 }),
          block('dietaryWater', 'mL', { qty: 1500 }),
          block('Blood Oxygen Saturation', '%', { qty: 97 }),
        ],
      },
    };
    const r = await srv.push(JSON.stringify(body));
    expect(r.status).toBe(200);
    expect(r.body.warnings ?? []).toEqual([]);
    expect(await srv.rows('steps')).toEqual([{ date: DAY, count: 8421 }]);
    expect(await srv.rows('resting')).toEqual([{ date: DAY, bpm: 54 }]);
    expect(await srv.rows('weight')).toEqual([{ date: DAY, kg: 71.2 }]);
    expect(await srv.rows('distance')).toEqual([{ date: DAY, km: 6.4 }]);
    expect(await srv.rows('heart')).toEqual([{ date: DAY, min: 50, avg: 70, max: 140 }]);
    // offered by the catalogue's key, not as unknown names
    expect([...r.body.availableUnsubscribed].sort()).toEqual([
      'active_energy',
      'blood_oxygen_saturation',
      'dietary_water',
    ]);
    const d = await srv.api('/api/health-auto-export/discoveries');
    const names = JSON.stringify(d.body);
    expect(names).not.toContain('activeenergy');
    expect(names).not.toContain('dietarywater');
  });

  it('the same sample under either name is stored once', async () => {
    srv = await startIngestServer({ cards: [['steps', 'step_count']] });
    const first = await srv.push(JSON.stringify({ metrics: [block('step_count', 'count', { qty: 900 })] }));
    expect(first.body.samples).toEqual({ received: 1, new: 1 });
    const again = await srv.push(JSON.stringify({ metrics: [block('stepCount', 'count', { qty: 900 })] }));
    expect(again.body.samples).toEqual({ received: 1, new: 0 });
    expect(await srv.rows('steps')).toEqual([{ date: DAY, count: 900 }]);
  });

  it('a card may subscribe with such a name; one that names no metric is still refused', async () => {
    srv = await startIngestServer();
    await srv.createCard(haeCard('steps', 'stepCount'));
    const r = await srv.push(JSON.stringify({ metrics: [block('Step Count', 'count', { qty: 1200 })] }));
    expect(r.body.ingested).toEqual({ steps: 1 });
    expect(await srv.rows('steps')).toEqual([{ date: DAY, count: 1200 }]);
    const bad = await srv.api('/api/manifests', { json: haeCard('walks', 'stepsTaken') });
    expect(bad.status).toBe(422);
  });

  it('a name that matches no metric is kept under its own name', async () => {
    srv = await startIngestServer();
    const r = await srv.push(JSON.stringify({ metrics: [block('moodScore', '', { qty: 4 })] }));
    expect(r.status).toBe(200);
    expect(r.body.availableUnsubscribed).toEqual(['moodscore']);
  });

  it('HealthKit identifiers written as words and Apple’s Resting Energy fill their metrics’ cards', async () => {
    srv = await startIngestServer({
      cards: [
        ['resting', 'basal_energy_burned'],
        ['strokes', 'swim_stroke_count'],
        ['pushes', 'wheelchair_push_count'],
        ['steadiness', 'walking_steadiness'],
      ],
    });
    const r = await srv.push(
      JSON.stringify({
        data: {
          metrics: [
            block('Resting Energy', 'kcal', { qty: 1650 }),
            block('Swimming Stroke Count', 'count', { qty: 420 }),
            block('Push Count', 'count', { qty: 900 }),
            block('Apple Walking Steadiness', '%', { qty: 88 }),
          ],
        },
      }),
    );
    expect(r.status, r.text).toBe(200);
    expect(r.body.availableUnsubscribed).toEqual([]);
    expect(await srv.rows('resting')).toEqual([{ date: DAY, kcal: 1650 }]);
    expect(await srv.rows('strokes')).toEqual([{ date: DAY, count: 420 }]);
    expect(await srv.rows('pushes')).toEqual([{ date: DAY, count: 900 }]);
    expect(await srv.rows('steadiness')).toEqual([{ date: DAY, pct: 88 }]);
  });
});

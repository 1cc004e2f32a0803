/**
 * A day's total is a function of the stored samples only (docs/HEALTH-AUTO-EXPORT.md, the `sum`
 * row of "Per day", and "Same-instant samples"): the same samples sent in one push, in two, or in
 * the other order, and a card created afterwards and filled from the store, give the same row.
 * - device samples and the combined figure Apple Health reports: the combined figure;
 * - only device samples: the largest device's total (its midnight-hour bucket included);
 * - each device's daily total next to the same day's minute samples: the largest daily total,
 *   never a daily total plus minute samples;
 * - the same sample twice in one push or one export.xml counts twice; the same push or file sent
 *   again adds nothing.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { haeCard, type IngestServer, startIngestServer } from './helpers.js';

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

type Point = { date: string; qty: number; source: string };
const DAY = '2026-07-06';
const at = (hhmm: string) => `${DAY} ${hhmm}:00 -0400`;
const pt = (hhmm: string, qty: number, source: string): Point => ({ date: at(hhmm), qty, source });

/** One push body of `metric` (unit `units`) holding `points`. */
function body(points: Point[], metric = 'step_count', units = 'count'): string {
  return JSON.stringify({ data: { metrics: [{ name: metric, units, data: points }] } });
}

/** The ways one set of samples can be sent: one push, two pushes, both the other way round. */
function batchings(first: Point[], second: Point[]): [string, Point[][]][] {
  return [
    ['one push', [[...first, ...second]]],
    ['one push, other order', [[...second, ...first].reverse()]],
    ['two pushes', [first, second]],
    ['two pushes, other order', [second, first]],
  ];
}

/** The steps row of DAY after sending `pushes` with a steps card, and on a card created afterwards. */
async function stepsAfter(pushes: Point[][]): Promise<{ pushed: unknown; filled: unknown }> {
  srv = await startIngestServer({ cards: [['steps', 'step_count']] });
  for (const p of pushes) {
    const r = await srv.push(body(p));
    expect(r.status, r.text).toBe(200);
  }
  const pushed = (await srv.rows('steps')).find((r) => r.date === DAY);
  await srv.createCard(haeCard('later', 'step_count'));
  const filled = (await srv.rows('later')).find((r) => r.date === DAY);
  return { pushed, filled };
}

const CASES: { name: string; first: Point[]; second: Point[]; count: number }[] = [
  {
    name: 'device samples and the combined total: the combined total',
    first: [pt('09:00', 5000, 'iPhone'), pt('10:00', 1000, 'Apple Watch')],
    second: [pt('00:00', 6000, 'iPhone|Apple Watch')],
    count: 6000,
  },
  {
    name: 'only device samples: the largest device total, its midnight bucket included',
    first: [pt('00:00', 400, 'iPhone'), pt('00:00', 100, 'Apple Watch')],
    second: [
      pt('09:00', 3000, 'iPhone'),
      pt('11:00', 2000, 'iPhone'),
      pt('10:00', 1000, 'Apple Watch'),
      pt('12:00', 500, 'Apple Watch'),
    ],
    count: 5400,
  },
  {
    name: 'daily totals of each device and minute samples: the largest daily total',
    first: [pt('00:00', 5200, 'iPhone'), pt('00:00', 4100, 'Apple Watch')],
    second: [pt('09:00', 100, 'iPhone'), pt('09:01', 200, 'iPhone'), pt('09:00', 150, 'Apple Watch')],
    count: 5200,
  },
];

describe('a day total does not depend on how its samples were batched', () => {
  for (const c of CASES) {
    describe(c.name, () => {
      for (const [how, pushes] of batchings(c.first, c.second)) {
        it(how, async () => {
          const { pushed, filled } = await stepsAfter(pushes);
          expect(pushed).toEqual({ date: DAY, count: c.count });
          expect(filled).toEqual({ date: DAY, count: c.count });
        });
      }
    });
  }
});

describe('the same sample twice counts twice', () => {
  it('in one push: water and steps; the same push again adds nothing', async () => {
    const s = await startIngestServer({
      cards: [
        ['water', 'dietary_water'],
        ['steps', 'step_count'],
      ],
    });
    srv = s;
    const water = {
      name: 'dietary_water',
      units: 'mL',
      data: [pt('09:00', 250, 'WaterMinder'), pt('09:00', 250, 'WaterMinder')],
    };
    const steps = {
      name: 'step_count',
      units: 'count',
      data: [pt('09:00', 300, 'iPhone'), pt('09:00', 300, 'iPhone'), pt('11:00', 50, 'iPhone')],
    };
    const payload = JSON.stringify({ data: { metrics: [water, steps] } });
    const first = await s.push(payload);
    expect(first.status, first.text).toBe(200);
    expect(first.body.samples).toEqual({ received: 5, new: 5 });
    const expected = async () => {
      expect((await s.rows('water')).find((r) => r.date === DAY)).toEqual({ date: DAY, ml: 500 });
      expect((await s.rows('steps')).find((r) => r.date === DAY)).toEqual({ date: DAY, count: 650 });
    };
    await expected();
    const again = await s.push(payload);
    expect(again.body.samples).toEqual({ received: 5, new: 0 });
    await expected();
    await s.createCard(haeCard('later-water', 'dietary_water'));
    expect((await s.rows('later-water')).find((r) => r.date === DAY)).toEqual({ date: DAY, ml: 500 });
  });

  it('in one export.xml: water and steps; the same file again adds nothing', async () => {
    const s = await startIngestServer({
      cards: [
        ['water', 'dietary_water'],
        ['steps', 'step_count'],
      ],
    });
    srv = s;
    const rec = (type: string, source: string, unit: string, start: string, end: string, value: number) =>
      ` <Record type="HKQuantityTypeIdentifier${type}" sourceName="${source}" unit="${unit}" creationDate="${end}" startDate="${start}" endDate="${end}" value="${value}"/>`;
    const water = rec('DietaryWater', 'WaterMinder', 'mL', at('09:00'), at('09:00'), 250);
    const steps = rec('StepCount', 'iPhone', 'count', at('09:00'), at('09:10'), 300);
    const xml = [
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<HealthData locale="en_US">',
      ` <ExportDate value="${at('23:00')}"/>`,
      water,
      water,
      steps,
      steps,
      '</HealthData>',
      '',
    ].join('\n');
    const upload = () =>
      s.api('/api/apple-health/import', {
        method: 'POST',
        body: Buffer.from(xml),
        headers: { 'content-type': 'application/xml' },
      });
    const expected = async () => {
      expect((await s.rows('water')).find((r) => r.date === DAY)).toEqual({ date: DAY, ml: 500 });
      expect((await s.rows('steps')).find((r) => r.date === DAY)).toEqual({ date: DAY, count: 600 });
    };
    const first = await upload();
    expect(first.status, first.text).toBe(200);
    expect(first.body.newSamples).toBe(4);
    await expected();
    const again = await upload();
    expect(again.status, again.text).toBe(200);
    expect(again.body.newSamples).toBe(0);
    await expected();
  });
});

/**
 * GET /api/summary on the real server: the averages a doctor reads carry no float tails. Each
 * average is given to one decimal more than the most precise reading of its field (the chart's
 * rule), so 85.3, 85.5, 85.1, 0.1 and 0.2 average to 51.24, not 51.239999999999995. A range
 * bound that is not a calendar date (30 February) is refused 400 naming it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

const T = 'summary-numbers-token';
let s: TestServer;
const api = (p: string, init: Parameters<TestServer['api']>[1] = {}) => s.api(p, { token: T, ...init });

const card = (id: string, field: string, values: number[]) => ({
  $schema: 'klebb.datafile.v1',
  meta: { id, label: id },
  data: values.map((v, i) => ({ date: `2026-04-0${i + 1}`, [field]: v })),
});

beforeAll(async () => {
  s = await startServer({ env: { AGENT_API_TOKEN: T } });
  for (const c of [
    card('weight', 'kg', [85.3, 85.5, 85.1, 0.1, 0.2]),
    card('water', 'l', [0.1, 0.2]),
    card('pulse', 'bpm', [120, 131, 125]),
  ]) {
    expect((await api('/api/manifests', { json: c })).status).toBe(201);
  }
});
afterAll(() => s.close());

describe('GET /api/summary statistics', () => {
  it('averages without float artefacts, to one decimal more than the readings', async () => {
    const res = await api('/api/summary?from=2026-04-01&to=2026-04-30');
    expect(res.status).toBe(200);
    const avg = (id: string) =>
      (res.body.cards as { id: string; stats: { avg: number }[] }[]).find((c) => c.id === id)?.stats[0]?.avg;
    expect(avg('weight')).toBe(51.24);
    expect(avg('water')).toBe(0.15);
    expect(avg('pulse')).toBe(125.3);
    // readings stay exactly as stored
    const weight = res.body.cards.find((c: { id: string }) => c.id === 'weight');
    expect(weight.stats[0]).toMatchObject({ min: 0.1, max: 85.5, count: 5 });
  });
});

describe('GET /api/summary readings written as text', () => {
  it("counts a number written as text in a field of numbers, as the card's chart does", async () => {
    const c = {
      $schema: 'klebb.datafile.v1',
      meta: {
        id: 'texted',
        label: 'Texted',
        writeable: {
          fromWebapp: true,
          inputs: [
            { key: 'date', type: 'date' },
            { key: 'glucose', type: 'number', unit: 'mmol/L' },
            { key: 'note', type: 'text' },
          ],
        },
      },
      data: [
        // a hand-edited file or a script may leave numbers as text, with spaces around
        { date: '2026-05-01', kg: '72.4', glucose: ' 5.4 ', note: '3' },
        { date: '2026-05-02', kg: 73, glucose: '6.1', note: 'fine' },
        { date: '2026-05-03', kg: 74, pulse: '61' },
      ],
    };
    expect((await api('/api/manifests', { json: c })).status).toBe(201);
    const res = await api('/api/summary?from=2026-05-01&to=2026-05-31&cards=texted');
    expect(res.status, res.text).toBe(200);
    const stats = Object.fromEntries(res.body.cards[0].stats.map((x: { field: string }) => [x.field, x]));
    // kg: a number in other readings; glucose: a number input (no reading holds a JSON number)
    expect(stats.kg).toMatchObject({ count: 3, avg: 73.13, min: 72.4, max: 74 });
    expect(stats.glucose).toEqual({
      field: 'glucose',
      unit: 'mmol/L',
      count: 2,
      avg: 5.75,
      min: 5.4,
      max: 6.1,
    });
    // a text input, and a field that only ever holds text, are no numbers to average
    expect(stats.note).toBeUndefined();
    expect(stats.pulse).toBeUndefined();
    // the readings themselves are listed as stored
    expect(res.body.cards[0].rows[0]).toEqual({
      date: '2026-05-01',
      kg: '72.4',
      glucose: ' 5.4 ',
      note: '3',
    });
  });
});

describe('GET /api/summary range', () => {
  it('refuses a date that is not on the calendar, naming the field', async () => {
    for (const [q, field] of [
      ['from=2026-02-30&to=2026-03-31', 'query.from'],
      ['from=2026-04-01&to=2026-13-01', 'query.to'],
      ['from=2025-02-29&to=2025-03-01', 'query.from'],
    ]) {
      const res = await api(`/api/summary?${q}`);
      expect(res.status, q).toBe(400);
      expect(res.body.details.map((d: { path: string }) => d.path)).toContain(field);
    }
    expect((await api('/api/summary?from=2024-02-29&to=2024-03-01')).status).toBe(200);
  });
});

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

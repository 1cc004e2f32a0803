/**
 * GET /api/summary on the real server reads a card's rows by the field the card dates them in
 * (`meta.view.dateField`), as its entries, calendar and chart do: a card dated in `day` or
 * `when` is summarised by that field's day, not left empty because its rows hold no `date`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

const T = 'summary-date-field-token';
let s: TestServer;
const api = (p: string, init: Parameters<TestServer['api']>[1] = {}) => s.api(p, { token: T, ...init });

beforeAll(async () => {
  s = await startServer({ env: { AGENT_API_TOKEN: T } });
});
afterAll(() => s.close());

describe('GET /api/summary on a card dated in another field', () => {
  it("reads the rows by the card's view.dateField", async () => {
    const c = {
      $schema: 'klebb.datafile.v1',
      meta: {
        id: 'steps-day',
        label: 'Steps',
        view: { renderer: 'generic', dateField: 'day' },
        writeable: {
          fromWebapp: true,
          inputs: [
            { key: 'day', type: 'date' },
            { key: 'steps', type: 'number' },
          ],
        },
      },
      data: [
        { day: '2026-03-31', steps: 1 },
        { day: '2026-04-01', steps: 1000 },
        { day: '2026-04-02', steps: 3000 },
        { day: '2026-04-03T23:30:00Z', steps: 5000 },
        { day: '2026-05-01', steps: 9 },
      ],
    };
    const made = await api('/api/manifests', { json: c });
    expect(made.status, made.text).toBe(201);
    const res = await api('/api/summary?from=2026-04-01&to=2026-04-30&cards=steps-day');
    expect(res.status, res.text).toBe(200);
    const card = res.body.cards[0];
    expect(card.total).toBe(3);
    expect(card.rows.map((r: { steps: number }) => r.steps)).toEqual([1000, 3000, 5000]);
    expect(card.columns[0].field).toBe('day');
    expect(card.stats.find((x: { field: string }) => x.field === 'steps')).toMatchObject({
      count: 3,
      min: 1000,
      max: 5000,
    });
  });

  it('reads a date field whose key has spaces, dots or quotes, hand-written dates too', async () => {
    for (const key of ['Day (local).v2', 'the "day"']) {
      const id = key.startsWith('Day') ? 'dotted-day' : 'quoted-day';
      const made = await api('/api/manifests', {
        json: {
          $schema: 'klebb.datafile.v1',
          meta: { id, label: id, view: { renderer: 'generic', dateField: key } },
          data: [
            { [key]: '2026-03-30', kg: 1 },
            { [key]: '2026/04/05', kg: 70 },
            { [key]: '2026-04-02', kg: 71 },
            { kg: 2 },
          ],
        },
      });
      expect(made.status, made.text).toBe(201);
      const res = await api(`/api/summary?from=2026-04-01&to=2026-04-30&cards=${id}`);
      expect(res.status, res.text).toBe(200);
      const card = res.body.cards[0];
      expect(card.total, key).toBe(2);
      expect(
        card.rows.map((r: { kg: number }) => r.kg),
        key,
      ).toEqual([71, 70]);
      expect(card.columns[0].field).toBe(key);
    }
  });
});

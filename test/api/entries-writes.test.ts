import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CardEvent } from '../../src/cards/card-loader.js';
import { addDays, todayIn } from '../../src/common/dates.js';
import { type ApiInit, startServer, type TestServer } from '../helpers/server.js';
import { readTemplate } from '../helpers/templates.js';

const T = 'entries-token';
const TZ = 'America/Los_Angeles';
let s: TestServer;

const person = (p: string, init: ApiInit = {}) => s.api(p, init);
const agent = (p: string, init: ApiInit = {}) => s.api(p, { token: T, ...init });
const example = (id: string) => readTemplate(id);
const dataOf = async (id: string) => (await agent(`/api/manifests/${id}/data`)).body.data;
const today = () => todayIn(TZ);
const day = (n: number) => addDays(today(), n);

async function recreate(manifest: Record<string, unknown>, data?: unknown) {
  const id = (manifest.meta as { id: string }).id;
  await agent(`/api/manifests/${id}`, { method: 'DELETE' });
  const r = await agent('/api/manifests', { json: data === undefined ? manifest : { ...manifest, data } });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
}

beforeAll(async () => {
  s = await startServer({ env: { AGENT_API_TOKEN: T } });
  await person('/api/user/tz', { json: { tz: TZ } });
});
afterAll(async () => {
  await s?.close();
});

describe('maxReadingsPerDay 1 (weight): one row a day, saved again it is replaced', () => {
  beforeEach(() => recreate(example('weight')));

  it('adds, then replaces the day’s row as a whole', async () => {
    const a = await person('/api/manifests/weight/entries', {
      json: { entry: { date: today(), kg: 85.5, note: 'after run' } },
    });
    expect(a.status).toBe(201);
    expect(a.body).toMatchObject({ ok: true, id: 'weight', index: 0, replaced: false, dropped: 0 });
    expect(a.body.etag).toMatch(/^"v\d+"$/);
    const b = await person('/api/manifests/weight/entries', { json: { entry: { date: today(), kg: 85.3 } } });
    expect(b.body).toMatchObject({ index: 0, replaced: true, dropped: 0 });
    // the note is gone: the entry replaced the row, it was not merged into it
    expect(await dataOf('weight')).toEqual([{ date: today(), kg: 85.3 }]);
  });

  it('places a past day in date order', async () => {
    await agent('/api/manifests/weight/data', {
      json: {
        data: [
          { date: day(-5), kg: 80 },
          { date: day(-1), kg: 81 },
        ],
      },
    });
    const r = await person('/api/manifests/weight/entries', { json: { entry: { date: day(-3), kg: 80.5 } } });
    expect(r.body).toMatchObject({ index: 1, replaced: false });
    expect((await dataOf('weight')).map((x: { date: string }) => x.date)).toEqual([
      day(-5),
      day(-3),
      day(-1),
    ]);
    const t = await person('/api/manifests/weight/entries', { json: { entry: { date: today(), kg: 82 } } });
    expect(t.body.index).toBe(3);
  });

  it('a past day rewrites only the rows from its place on, the rows before it are kept as stored', async () => {
    const seeded = [-9, -8, -7, -6, -5, -1].map((n, i) => ({ date: day(n), kg: 80 + i }));
    await agent('/api/manifests/weight/data', { json: { data: seeded } });
    // rows stored after the card's, so a rewritten row gets a new store id (never one it had)
    const other = structuredClone(example('weight')) as { meta: { id: string } };
    other.meta.id = 'weight-other';
    await recreate(other, [{ date: day(-1), kg: 70 }]);
    const ids = () =>
      s.inst.db.prepare('SELECT id FROM card_rows WHERE card_id = ? ORDER BY pos').pluck().all('weight');
    const before = ids();
    const r = await person('/api/manifests/weight/entries', { json: { entry: { date: day(-3), kg: 79 } } });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ index: 5, replaced: false, dropped: 0 });
    expect(r.body).not.toHaveProperty('version');
    const after = ids();
    expect(after.slice(0, 5)).toEqual(before.slice(0, 5));
    expect(after).toHaveLength(7);
    expect(await dataOf('weight')).toEqual([...seeded.slice(0, 5), { date: day(-3), kg: 79 }, seeded[5]]);
    // the change is one whole-card change that undo can put back
    const change = s.inst.cards.store.changes.recent('weight', 1)[0];
    expect(change).toMatchObject({ op: 'entry-add', before: JSON.stringify(seeded) });
    expect(JSON.parse(change.after ?? 'null')).toEqual(await dataOf('weight'));
  });

  it('each write is one change set by the person, and open pages hear of it', async () => {
    const events: CardEvent[] = [];
    const listener = (e: CardEvent) => events.push(e);
    s.inst.events.on('card', listener);
    const before = s.inst.cards.store.changes.recent('weight', 100).length;
    await person('/api/manifests/weight/entries', { json: { entry: { date: today(), kg: 85 } } });
    await person('/api/manifests/weight/entries', { json: { entry: { date: day(-2), kg: 84 } } });
    await person('/api/manifests/weight/entries', { json: { entry: { date: today(), kg: 86 } } });
    s.inst.events.off('card', listener);
    const recent = s.inst.cards.store.changes.recent('weight', 100);
    expect(recent.length - before).toBe(3);
    expect(recent.slice(0, 3).every((c) => c.actor === 'local')).toBe(true);
    expect(events.filter((e) => e.type === 'data-changed' && e.id === 'weight')).toHaveLength(3);
  });
});

describe('maxReadingsPerDay 3 (body temperature): added, the oldest beyond 3 dropped', () => {
  beforeEach(() => {
    const m = example('body-temperature');
    (m.meta.writeable as Record<string, unknown>).maxReadingsPerDay = 3;
    return recreate(m);
  });

  it('keeps the newest three of a day, in the day’s place', async () => {
    await agent('/api/manifests/body-temperature/data', { json: { data: [{ date: day(1), celsius: 36 }] } });
    const readings = [36.5, 36.9, 37.4, 38.1];
    const answers = [];
    for (const c of readings) {
      answers.push(
        (
          await person('/api/manifests/body-temperature/entries', {
            json: { entry: { date: today(), celsius: c } },
          })
        ).body,
      );
    }
    expect(answers.map((a) => [a.index, a.replaced, a.dropped])).toEqual([
      [0, false, 0],
      [1, false, 0],
      [2, false, 0],
      [2, false, 1],
    ]);
    expect(await dataOf('body-temperature')).toEqual([
      { date: today(), celsius: 36.9 },
      { date: today(), celsius: 37.4 },
      { date: today(), celsius: 38.1 },
      { date: day(1), celsius: 36 },
    ]);
  });
});

describe('a list card (symptoms): entries without a date are appended, no date rule', () => {
  beforeEach(() => recreate(example('symptoms')));

  it('appends, edits, removes', async () => {
    const a = await person('/api/manifests/symptoms/entries', {
      json: { entry: { symptom: 'Headache', severity: 'moderate', added: '2026-04-20T08:00:00Z' } },
    });
    expect(a.body).toMatchObject({ index: 0, replaced: false });
    await person('/api/manifests/symptoms/entries', {
      json: { entry: { symptom: 'Sore knee', note: 'left' } },
    });
    const e = await person('/api/manifests/symptoms/entries/0', {
      method: 'PUT',
      json: { entry: { symptom: 'Headache', severity: 'mild', added: '2026-04-20T08:00:00Z' } },
    });
    expect(e.status).toBe(200);
    expect(e.body).toMatchObject({ ok: true, id: 'symptoms', index: 0 });
    const d = await person('/api/manifests/symptoms/entries/1', { method: 'DELETE' });
    expect(d.body).toMatchObject({ ok: true, removed: 1, row: { symptom: 'Sore knee', note: 'left' } });
    expect(await dataOf('symptoms')).toEqual([
      { symptom: 'Headache', severity: 'mild', added: '2026-04-20T08:00:00Z' },
    ]);
    const long = await person('/api/manifests/symptoms/entries', {
      json: { entry: { symptom: 'x'.repeat(81) } },
    });
    expect(long.body).toMatchObject({
      code: 'INVALID_ENTRY',
      error: 'Symptom must be at most 80 characters long.',
    });
  });
});

describe('edits', () => {
  beforeEach(() =>
    recreate(example('weight'), [
      { date: day(-4), kg: 80, note: 'a' },
      { date: day(-2), kg: 81 },
      { date: today(), kg: 82 },
    ]),
  );

  it('PUT replaces the whole row and keeps its date when the entry has none', async () => {
    const r = await person('/api/manifests/weight/entries/1', {
      method: 'PUT',
      json: { entry: { kg: 81.5, note: 'fixed' } },
    });
    expect(r.body).toMatchObject({ ok: true, index: 1 });
    expect(r.headers.get('etag')).toBe(r.body.etag);
    const rows = await dataOf('weight');
    expect(rows[1]).toEqual({ date: day(-2), kg: 81.5, note: 'fixed' });
    const clear = await person('/api/manifests/weight/entries/0', {
      method: 'PUT',
      json: { entry: { date: day(-4), kg: 80, note: '' } },
    });
    expect(clear.status).toBe(200);
    expect((await dataOf('weight'))[0]).toEqual({ date: day(-4), kg: 80 });
  });

  it('moving a row to another day: to its date order place; onto a day that has its row is 409 DAY_FULL', async () => {
    const full = await person('/api/manifests/weight/entries/0', {
      method: 'PUT',
      json: { entry: { date: day(-2), kg: 80 } },
    });
    expect(full.status).toBe(409);
    expect(full.body).toEqual({
      error: `There is already an entry for ${day(-2)}; change that one instead.`,
      code: 'DAY_FULL',
    });
    const moved = await person('/api/manifests/weight/entries/0', {
      method: 'PUT',
      json: { entry: { date: day(-1), kg: 80 } },
    });
    expect(moved.body).toMatchObject({ index: 1 });
    expect((await dataOf('weight')).map((x: { date: string }) => x.date)).toEqual([
      day(-2),
      day(-1),
      today(),
    ]);
    // a future day is not allowed for a person
    const future = await person('/api/manifests/weight/entries/0', {
      method: 'PUT',
      json: { entry: { date: day(2), kg: 80 } },
    });
    expect(future.body.code).toBe('DATE_NOT_ALLOWED');
  });

  it('DELETE removes the row at the index, with or without a matching If-Match', async () => {
    const etag = (await agent('/api/manifests/weight/data')).headers.get('etag') as string;
    const r = await person('/api/manifests/weight/entries/2', {
      method: 'DELETE',
      headers: { 'if-match': etag },
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ ok: true, id: 'weight', removed: 1, row: { date: today(), kg: 82 } });
    expect((await dataOf('weight')).length).toBe(2);
  });
});

describe('expect: the row as the client saw it guards PUT and DELETE by content, not only position', () => {
  beforeEach(() =>
    recreate(example('weight'), [
      { date: day(-2), kg: 81 },
      { date: today(), kg: 82 },
    ]),
  );

  it('rows shifted (an earlier day was added): PUT and DELETE at the old index are 412 ENTRY_CHANGED, nothing written', async () => {
    const seen = { date: today(), kg: 82 };
    await person('/api/manifests/weight/entries', { json: { entry: { date: day(-1), kg: 90 } }, token: T });
    const put = await person('/api/manifests/weight/entries/1', {
      method: 'PUT',
      json: { entry: { kg: 83 }, expect: seen },
    });
    expect(put.status).toBe(412);
    expect(put.body).toMatchObject({
      code: 'ENTRY_CHANGED',
      error: 'This entry changed elsewhere. Reload it to see the current entry.',
    });
    const del = await person('/api/manifests/weight/entries/1', { method: 'DELETE', json: { expect: seen } });
    expect(del.status).toBe(412);
    expect(await dataOf('weight')).toEqual([{ date: day(-2), kg: 81 }, { date: day(-1), kg: 90 }, seen]);
    const ok = await person('/api/manifests/weight/entries/2', {
      method: 'PUT',
      json: { entry: { kg: 83 }, expect: seen },
    });
    expect(ok.status).toBe(200);
    expect((await dataOf('weight'))[2]).toEqual({ date: today(), kg: 83 });
  });
});

describe('an entry without a date on a dated card is the person’s today’s', () => {
  it('generic-card: dated today, and a card that refuses today refuses it; a list card still appends undated', async () => {
    await recreate(example('weight'), [{ date: day(-1), kg: 81 }]);
    const a = await person('/api/manifests/weight/entries', { json: { entry: { kg: 82 } } });
    expect(a.status, JSON.stringify(a.body)).toBe(201);
    expect(await dataOf('weight')).toEqual([
      { date: day(-1), kg: 81 },
      { date: today(), kg: 82 },
    ]);
    const noToday = example('weight');
    noToday.meta.id = 'no-today';
    (noToday.meta.writeable as Record<string, unknown>).todayAllowed = false;
    await recreate(noToday, []);
    const r = await person('/api/manifests/no-today/entries', { json: { entry: { kg: 82 } } });
    expect(r.status).toBe(422);
    expect(r.body).toMatchObject({
      code: 'DATE_NOT_ALLOWED',
      error: "This card doesn't take entries for today.",
    });
    expect(await dataOf('no-today')).toEqual([]);
  });

  it('a card whose inputs include its date field (no generic-card) is dated too', async () => {
    await recreate({
      $schema: 'klebb.datafile.v1',
      meta: {
        id: 'dated-list',
        label: 'Dated',
        view: { enabled: true, component: 'list-card', dateField: 'day' },
        writeable: {
          fromWebapp: true,
          inputs: [
            { key: 'day', type: 'date', label: 'Day' },
            { key: 'n', type: 'number', label: 'N' },
          ],
        },
      },
      data: [],
    });
    expect((await person('/api/manifests/dated-list/entries', { json: { entry: { n: 1 } } })).status).toBe(
      201,
    );
    expect(await dataOf('dated-list')).toEqual([{ n: 1, day: today() }]);
  });
});

describe('older manifests', () => {
  it('inputs under view.inputs keyed by name are the checked inputs', async () => {
    await recreate({
      $schema: 'eddzhealth.datafile.v1',
      meta: {
        id: 'bp',
        label: 'Blood pressure (older card)',
        view: {
          enabled: true,
          component: 'metric-card',
          inputs: [
            { name: 'systolic', type: 'number', label: 'Systolic', min: 50, max: 250, required: true },
            { name: 'diastolic', type: 'number', label: 'Diastolic', min: 30, max: 150, required: true },
          ],
        },
        writeable: { fromWebapp: true, pastAllowed: true },
      },
      data: [],
    });
    const high = await person('/api/manifests/bp/entries', {
      json: { entry: { date: today(), systolic: 300, diastolic: 80 } },
    });
    expect(high.body).toMatchObject({ code: 'INVALID_ENTRY', error: 'Systolic must be at most 250.' });
    const missing = await person('/api/manifests/bp/entries', {
      json: { entry: { date: today(), systolic: 120 } },
    });
    expect(missing.body).toMatchObject({ code: 'INVALID_ENTRY', error: 'Diastolic is required.' });
    const ok = await person('/api/manifests/bp/entries', {
      json: { entry: { date: today(), systolic: 120, diastolic: 80 } },
    });
    expect(ok.status).toBe(201);
  });

  it('a card that has never held data starts its list; null data too', async () => {
    await agent('/api/manifests/fresh', { method: 'DELETE' });
    await agent('/api/manifests', {
      json: {
        $schema: 'klebb.datafile.v1',
        meta: { id: 'fresh', label: 'Fresh', writeable: { fromWebapp: true } },
      },
    });
    const r = await person('/api/manifests/fresh/entries', { json: { entry: { date: today(), n: 1 } } });
    expect(r.status).toBe(201);
    expect(await dataOf('fresh')).toEqual([{ date: today(), n: 1 }]);
    // Once it keeps rows, null in place of the list is refused and the rows stay.
    expect((await agent('/api/manifests/fresh/data', { json: { data: null } })).status).toBe(400);
    expect(await dataOf('fresh')).toEqual([{ date: today(), n: 1 }]);
    // A card created with null data starts its list at the first entry.
    await agent('/api/manifests/fresh', { method: 'DELETE' });
    await agent('/api/manifests', {
      json: {
        $schema: 'klebb.datafile.v1',
        meta: { id: 'fresh', label: 'Fresh', writeable: { fromWebapp: true } },
        data: null,
      },
    });
    expect((await person('/api/manifests/fresh/entries', { json: { entry: { n: 2 } } })).body.index).toBe(0);
    expect(await dataOf('fresh')).toEqual([{ n: 2 }]);
  });
});

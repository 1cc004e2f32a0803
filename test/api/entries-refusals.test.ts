import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { addDays, todayIn } from '../../src/common/dates.js';
import { type ApiInit, startServer, type TestServer } from '../helpers/server.js';
import { readTemplate } from '../helpers/templates.js';

const T = 'entries-token';
const TZ = 'Europe/Berlin';
let s: TestServer;

/** A person: no credentials, from this machine. */
const person = (p: string, init: ApiInit = {}) => s.api(p, init);
/** An agent with the bearer token. */
const agent = (p: string, init: ApiInit = {}) => s.api(p, { token: T, ...init });

const example = (id: string) => readTemplate(id);

async function recreate(manifest: Record<string, unknown>) {
  const id = (manifest.meta as { id: string }).id;
  await agent(`/api/manifests/${id}`, { method: 'DELETE' });
  const r = await agent('/api/manifests', { json: manifest });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
}

const dataOf = async (id: string) => (await agent(`/api/manifests/${id}/data`)).body.data;
const today = () => todayIn(TZ);

beforeAll(async () => {
  s = await startServer({ env: { AGENT_API_TOKEN: T } });
  expect((await person('/api/user/tz', { json: { tz: TZ } })).status).toBe(200);
});
afterAll(async () => {
  await s?.close();
});

describe('refusals, each shown to the person as it comes', () => {
  beforeEach(async () => {
    for (const id of ['weight', 'steps', 'medication-schedule', 'body-temperature'])
      await recreate(example(id));
    await recreate({
      $schema: 'klebb.datafile.v1',
      meta: {
        id: 'bp2',
        label: 'BP',
        writeable: {
          fromWebapp: true,
          requireAny: ['systolic', 'pulse'],
          inputs: [
            { key: 'systolic', type: 'number', label: 'Systolic', min: 50, max: 250 },
            { key: 'pulse', type: 'number', label: 'Pulse' },
            { key: 'note', type: 'text', label: 'Note' },
          ],
        },
      },
      data: [],
    });
    await recreate({
      $schema: 'klebb.datafile.v1',
      meta: {
        id: 'no-today',
        label: 'No today',
        writeable: { fromWebapp: true, todayAllowed: false, pastAllowed: true },
      },
      data: [],
    });
  });

  it('403 NOT_WRITEABLE: a read-only card (steps)', async () => {
    const r = await person('/api/manifests/steps/entries', {
      json: { entry: { date: today(), count: 100 } },
    });
    expect(r.status).toBe(403);
    expect(r.body).toEqual({
      error: 'card "steps" is read-only: meta.writeable.fromWebapp is not true',
      code: 'NOT_WRITEABLE',
    });
    expect(await dataOf('steps')).toEqual([]);
  });

  it('422 REQUIRE_ANY: none of the keys has a value', async () => {
    const r = await person('/api/manifests/bp2/entries', {
      json: { entry: { date: today(), note: 'felt dizzy', pulse: '' } },
    });
    expect(r.status).toBe(422);
    expect(r.body).toMatchObject({ code: 'REQUIRE_ANY', error: 'Fill in at least one of: Systolic, Pulse.' });
    expect(r.body.details).toEqual([
      { path: 'body.entry.systolic', message: 'one of these needs a value' },
      { path: 'body.entry.pulse', message: 'one of these needs a value' },
    ]);
    expect(await dataOf('bp2')).toEqual([]);
    // one of them is enough
    expect(
      (await person('/api/manifests/bp2/entries', { json: { entry: { date: today(), pulse: 61 } } })).status,
    ).toBe(201);
  });

  it('422 INVALID_ENTRY: an out-of-range number, a missing required value, a wrong type', async () => {
    const high = await person('/api/manifests/weight/entries', {
      json: { entry: { date: today(), kg: 301 } },
    });
    expect(high.status).toBe(422);
    expect(high.body).toEqual({
      error: 'Weight (kg) must be at most 300.',
      code: 'INVALID_ENTRY',
      details: [{ path: 'body.entry.kg', message: 'Weight (kg) must be at most 300' }],
    });
    const missing = await person('/api/manifests/weight/entries', {
      json: { entry: { date: today(), note: 'x' } },
    });
    expect(missing.body).toMatchObject({ code: 'INVALID_ENTRY', error: 'Weight (kg) is required.' });
    const text = await person('/api/manifests/weight/entries', {
      json: { entry: { date: today(), kg: '85' } },
    });
    expect(text.body).toMatchObject({ code: 'INVALID_ENTRY', error: 'Weight (kg) must be a number.' });
    const badDate = await person('/api/manifests/weight/entries', {
      json: { entry: { date: '2026-02-30', kg: 80 } },
    });
    expect(badDate.body).toEqual({
      code: 'INVALID_ENTRY',
      error: '2026-02-30 is not a date in the calendar.',
      details: [{ path: 'body.entry.date', message: '2026-02-30 is not a date in the calendar' }],
    });
    const badShape = await person('/api/manifests/weight/entries', {
      json: { entry: { date: '30/02/2026', kg: 80 } },
    });
    expect(badShape.body).toMatchObject({
      code: 'INVALID_ENTRY',
      error: 'The date must be written YYYY-MM-DD.',
    });
    expect(await dataOf('weight')).toEqual([]);
  });

  it('422 INVALID_ENTRY: a date with text after it or a time no clock shows is not filed under its first ten characters', async () => {
    for (const date of [`${today()} `, `${today()}abc`, `${today()}T25:00`, `${today()}T07:60:00+02:00`]) {
      const r = await person('/api/manifests/weight/entries', { json: { entry: { date, kg: 80 } } });
      expect(r.status, date).toBe(422);
      expect(r.body).toEqual({
        code: 'INVALID_ENTRY',
        error: 'The date must be written YYYY-MM-DD.',
        details: [{ path: 'body.entry.date', message: 'must be a date written YYYY-MM-DD' }],
      });
    }
    expect(await dataOf('weight')).toEqual([]);
    // a real date and time with the person's offset is still taken, under its own day
    const stamp = `${today()}T07:12:00+02:00`;
    const ok = await person('/api/manifests/weight/entries', { json: { entry: { date: stamp, kg: 80 } } });
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    expect(await dataOf('weight')).toEqual([{ date: stamp, kg: 80 }]);
  });

  it('422 DATE_NOT_ALLOWED: a past day (pastAllowed false), a future day, today (todayAllowed false)', async () => {
    await recreate({
      $schema: 'klebb.datafile.v1',
      meta: { id: 'no-past', label: 'No past', writeable: { fromWebapp: true } },
      data: [],
    });
    const past = await person('/api/manifests/no-past/entries', {
      json: { entry: { date: addDays(today(), -1), n: 1 } },
    });
    expect(past.status).toBe(422);
    expect(past.body).toEqual({
      error: "This card doesn't take entries for past days.",
      code: 'DATE_NOT_ALLOWED',
      details: [{ path: 'body.entry.date', message: `${addDays(today(), -1)} is not allowed` }],
    });
    const future = await person('/api/manifests/weight/entries', {
      json: { entry: { date: addDays(today(), 1), kg: 80 } },
    });
    expect(future.status).toBe(422);
    expect(future.body).toMatchObject({
      code: 'DATE_NOT_ALLOWED',
      error: "This card doesn't take entries for future days.",
    });
    const t = await person('/api/manifests/no-today/entries', { json: { entry: { date: today(), n: 1 } } });
    expect(t.body).toMatchObject({
      code: 'DATE_NOT_ALLOWED',
      error: "This card doesn't take entries for today.",
    });
    expect(await dataOf('no-past')).toEqual([]);
    expect(await dataOf('weight')).toEqual([]);
    expect(await dataOf('no-today')).toEqual([]);
    // the same past day is fine where pastAllowed is true
    const ok = await person('/api/manifests/weight/entries', {
      json: { entry: { date: addDays(today(), -1), kg: 80 } },
    });
    expect(ok.status).toBe(201);
  });

  it('the date allowance is only for days without rows: a past day that has one can be updated', async () => {
    await agent('/api/manifests/no-today/data', { json: { data: [{ date: today(), n: 1 }] } });
    const again = await person('/api/manifests/no-today/entries', {
      json: { entry: { date: today(), n: 2 } },
    });
    expect(again.status).toBe(201);
    expect(again.body).toMatchObject({ replaced: true, index: 0 });
    expect(await dataOf('no-today')).toEqual([{ date: today(), n: 2 }]);
  });

  it('agents with the bearer token are not bound by the date allowance', async () => {
    const future = addDays(today(), 3);
    const r = await agent('/api/manifests/weight/entries', { json: { entry: { date: future, kg: 80 } } });
    expect(r.status).toBe(201);
    expect(await dataOf('weight')).toEqual([{ date: future, kg: 80 }]);
    // the value rules still hold for them
    const bad = await agent('/api/manifests/weight/entries', { json: { entry: { date: future, kg: 10 } } });
    expect(bad.body).toMatchObject({ code: 'INVALID_ENTRY', error: 'Weight (kg) must be at least 25.' });
  });

  it('409 NOT_A_LIST: a card whose data is one document', async () => {
    const r = await person('/api/manifests/medication-schedule/entries', {
      json: { entry: { date: today() } },
    });
    expect(r.status).toBe(409);
    expect(r.body).toEqual({
      error:
        'card "medication-schedule" keeps one document (an object), not a list of entries; change it with the rows API',
      code: 'NOT_A_LIST',
    });
    const put = await person('/api/manifests/medication-schedule/entries/0', {
      method: 'PUT',
      json: { entry: {} },
    });
    expect(put.body.code).toBe('NOT_A_LIST');
  });

  it('404 NO_ENTRY and 400 for a bad index; 404 for an unknown card', async () => {
    await agent('/api/manifests/weight/data', { json: { data: [{ date: today(), kg: 80 }] } });
    const put = await person('/api/manifests/weight/entries/1', {
      method: 'PUT',
      json: { entry: { kg: 81 } },
    });
    expect(put.status).toBe(404);
    expect(put.body).toMatchObject({
      code: 'NO_ENTRY',
      error: 'card "weight" has no entry at index 1 (it has 1, from 0)',
    });
    const del = await person('/api/manifests/weight/entries/7', { method: 'DELETE' });
    expect(del.body.code).toBe('NO_ENTRY');
    const bad = await person('/api/manifests/weight/entries/-1', { method: 'DELETE' });
    expect(bad.status).toBe(400);
    expect(bad.body.details).toEqual([{ path: 'params.index', message: 'must be at least 0' }]);
    const none = await person('/api/manifests/nope/entries', { json: { entry: {} } });
    expect(none.status).toBe(404);
    expect(none.body.code).toBe('CARD_NOT_FOUND');
    expect(await dataOf('weight')).toEqual([{ date: today(), kg: 80 }]);
  });

  it('400 for a body without an entry object', async () => {
    for (const json of [{}, { entry: [1] }, { entry: 'kg=80' }]) {
      const r = await person('/api/manifests/weight/entries', { json });
      expect(r.status).toBe(400);
      expect(r.body.code).toBe('BAD_REQUEST');
      expect(r.body.details[0].path).toBe('body.entry');
    }
  });

  it('412 on a stale If-Match, nothing written', async () => {
    const first = await person('/api/manifests/weight/entries', {
      json: { entry: { date: today(), kg: 80 } },
    });
    const etag = first.headers.get('etag') as string;
    expect(etag).toBe(first.body.etag);
    await agent('/api/manifests/weight/rows', { json: { value: { date: addDays(today(), -2), kg: 79 } } });
    const stale = await person('/api/manifests/weight/entries/0', {
      method: 'PUT',
      json: { entry: { kg: 81 } },
      headers: { 'if-match': etag },
    });
    expect(stale.status).toBe(412);
    expect(stale.body.code).toBe('PRECONDITION_FAILED');
    const del = await person('/api/manifests/weight/entries/0', {
      method: 'DELETE',
      headers: { 'if-match': etag },
    });
    expect(del.status).toBe(412);
    // nothing written: the two rows as they were (the agent's earlier day in its place)
    expect((await dataOf('weight')).map((r: { kg: number }) => r.kg)).toEqual([79, 80]);
  });
});

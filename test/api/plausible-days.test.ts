/**
 * One rule for the days entered for a person, the one the Health Auto Export webhook already kept
 * for samples: 1900-01-01 to 2099-12-31. An entry on a card that allows past days took
 * 0000-01-01 (a year typed wrong), a row written in the person's name too, and a `date` input
 * took any day; each is now 422 INVALID_ENTRY naming the field, nothing stored, for a person and
 * an agent alike.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiInit, startServer, type TestServer } from '../helpers/server.js';

const T = 'plausible-days-token';
let s: TestServer;
const person = (p: string, init: ApiInit = {}) => s.api(p, { ...init, headers: { origin: s.url } });
const agent = (p: string, init: ApiInit = {}) => s.api(p, { token: T, ...init });
const rows = async () => (await agent('/api/manifests/log/data')).body.data;
const paths = (r: { body: { details?: { path: string }[] } }) => (r.body.details ?? []).map((d) => d.path);

beforeAll(async () => {
  s = await startServer({ env: { AGENT_API_TOKEN: T } });
  const card = {
    $schema: 'klebb.datafile.v1',
    meta: {
      id: 'log',
      label: 'Log',
      view: { component: 'generic-card' },
      writeable: {
        fromWebapp: true,
        pastAllowed: true,
        futureAllowed: true,
        maxReadingsPerDay: 5,
        inputs: [
          { key: 'n', type: 'number', label: 'N' },
          { key: 'born', type: 'date', label: 'Born' },
        ],
      },
    },
    data: [],
  };
  expect((await agent('/api/manifests', { json: card })).status).toBe(201);
});
afterAll(async () => {
  await s?.close();
});

describe('days outside 1900-01-01 to 2099-12-31', () => {
  it.each(['0000-01-01', '1899-12-31', '2100-01-01', '9999-12-31', '0050-03-01T10:00:00Z'])(
    'an entry dated %s is 422 naming body.entry.date, from a person and from an agent',
    async (date) => {
      const before = await rows();
      for (const who of [person, agent]) {
        const r = await who('/api/manifests/log/entries', { json: { entry: { date, n: 1 } } });
        expect(r.status, date).toBe(422);
        expect(r.body.code).toBe('INVALID_ENTRY');
        expect(paths(r)).toEqual(['body.entry.date']);
      }
      expect(await rows()).toEqual(before);
    },
  );

  it('a row a person writes dated 0000-01-01 is 422 naming body.value.date', async () => {
    const r = await person('/api/manifests/log/rows', { json: { value: { date: '0000-01-01', n: 1 } } });
    expect(r.status).toBe(422);
    expect(paths(r)).toEqual(['body.value.date']);
  });

  it('a date input of 0000-01-01 is 422 naming it', async () => {
    const r = await person('/api/manifests/log/entries', {
      json: { entry: { date: '2026-01-01', born: '0000-01-01' } },
    });
    expect(r.status).toBe(422);
    expect(r.body.details).toEqual([
      { path: 'body.entry.born', message: 'Born must be a date from 1900-01-01 to 2099-12-31' },
    ]);
  });

  it('the first and last day are taken', async () => {
    for (const date of ['1900-01-01', '2099-12-31']) {
      const r = await person('/api/manifests/log/entries', {
        json: { entry: { date, n: 1, born: '1900-01-01' } },
      });
      expect(r.status, date).toBe(201);
    }
  });
});

/**
 * A write sent again after its answer was lost (a phone that dropped its connection) carries the
 * same Idempotency-Key and must not be stored twice: the second send gets the first answer, marked
 * Idempotent-Replayed, and nothing is written. On a card keeping two readings a day, a second copy
 * of the evening reading would otherwise push the morning reading out. The same key with another
 * body is refused; a malformed key is 400 naming the header; a refused write keeps no key.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BLOOD_PRESSURE_CARD } from '../helpers/blood-pressure-card.js';
import { type ApiInit, startServer, type TestServer } from '../helpers/server.js';

const T = 'idempotency-token';
let s: TestServer;

/** A person in the web app (no credentials, from this machine). */
const person = (p: string, init: ApiInit = {}) => s.api(p, init);
const rows = async (id: string) => (await s.api(`/api/manifests/${id}/data`, { token: T })).body.data;
const keyed = (key: string) => ({ 'idempotency-key': key });
const changeSets = async () => (await s.api('/api/changes?limit=100', { token: T })).body.changeSets.length;

beforeAll(async () => {
  s = await startServer({ env: { AGENT_API_TOKEN: T } });
});
afterAll(async () => {
  await s?.close();
});

beforeEach(async () => {
  await s.api('/api/manifests/bp', { method: 'DELETE', token: T });
  const r = await s.api('/api/manifests', {
    token: T,
    json: BLOOD_PRESSURE_CARD,
  });
  expect(r.status, r.text).toBe(201);
});

describe('POST /api/manifests/:id/entries sent again with its key', () => {
  it('answers the first answer again and stores the reading once; the morning reading stays', async () => {
    const init = { json: { entry: { date: '2026-04-20', sys: 135 } }, headers: keyed('3b1f6c1e-entry-1') };
    const setsBefore = await changeSets();
    const first = await person('/api/manifests/bp/entries', init);
    expect(first.status, first.text).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const again = await person('/api/manifests/bp/entries', init);
    expect(again.status, again.text).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('etag')).toBe(first.headers.get('etag'));
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await rows('bp')).toEqual([
      { date: '2026-04-20', sys: 121 },
      { date: '2026-04-20', sys: 135 },
    ]);
    // one change in History, not two
    expect(await changeSets()).toBe(setsBefore + 1);
  });

  it('a quoted key is the same key', async () => {
    const entry = { entry: { date: '2026-04-19', sys: 128 } };
    expect((await person('/api/manifests/bp/entries', { json: entry, headers: keyed('k-19') })).status).toBe(
      201,
    );
    const again = await person('/api/manifests/bp/entries', { json: entry, headers: keyed('"k-19"') });
    expect(again.status, again.text).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect((await rows('bp')).filter((r: { date: string }) => r.date === '2026-04-19')).toHaveLength(1);
  });

  it('the same key with another body is 422 IDEMPOTENCY_KEY_REUSED naming the header, nothing written', async () => {
    const headers = keyed('k-reused');
    expect(
      (
        await person('/api/manifests/bp/entries', {
          json: { entry: { date: '2026-04-20', sys: 130 } },
          headers,
        })
      ).status,
    ).toBe(201);
    const before = await rows('bp');
    const other = await person('/api/manifests/bp/entries', {
      json: { entry: { date: '2026-04-20', sys: 140 } },
      headers,
    });
    expect(other.status, other.text).toBe(422);
    expect(other.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(other.body.details).toEqual([{ path: 'headers.idempotency-key', message: expect.any(String) }]);
    expect(await rows('bp')).toEqual(before);
  });

  it('a refused write keeps no key: the corrected write with that key is stored', async () => {
    const headers = keyed('k-refused');
    const bad = await person('/api/manifests/bp/entries', {
      json: { entry: { date: '2026-04-21', sys: 900 } },
      headers,
    });
    expect(bad.status, bad.text).toBe(422);
    const good = await person('/api/manifests/bp/entries', {
      json: { entry: { date: '2026-04-21', sys: 119 } },
      headers,
    });
    expect(good.status, good.text).toBe(201);
    expect(good.headers.get('idempotent-replayed')).toBeNull();
    expect((await rows('bp')).at(-1)).toEqual({ date: '2026-04-21', sys: 119 });
  });

  it('a malformed key is 400 naming headers.idempotency-key, nothing written', async () => {
    const before = await rows('bp');
    for (const key of ['', 'with space', 'x'.repeat(256), 'schlüssel']) {
      const r = await person('/api/manifests/bp/entries', {
        json: { entry: { date: '2026-04-18', sys: 120 } },
        headers: { 'idempotency-key': key },
      });
      expect(r.status, `${JSON.stringify(key)}: ${r.text}`).toBe(400);
      expect(r.body.details?.[0]?.path).toBe('headers.idempotency-key');
    }
    expect(await rows('bp')).toEqual(before);
  });

  it('without a key two sends are two readings (nothing tells a retry from a second reading)', async () => {
    const init = { json: { entry: { date: '2026-04-17', sys: 122 } } };
    expect((await person('/api/manifests/bp/entries', init)).status).toBe(201);
    expect((await person('/api/manifests/bp/entries', init)).status).toBe(201);
    expect((await rows('bp')).filter((r: { date: string }) => r.date === '2026-04-17')).toHaveLength(2);
  });
});

describe('POST /api/manifests/:id/rows sent again with its key', () => {
  it('appends once, also for an agent; the key of another sender is its own', async () => {
    const init = {
      token: T,
      json: { value: { date: '2026-04-22', sys: 124 } },
      headers: keyed('rows-k1'),
    };
    const first = await s.api('/api/manifests/bp/rows', init);
    expect(first.status, first.text).toBe(201);
    const again = await s.api('/api/manifests/bp/rows', init);
    expect(again.status, again.text).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect((await rows('bp')).filter((r: { date: string }) => r.date === '2026-04-22')).toHaveLength(1);
    // the same key from the person in the browser is another write
    const theirs = await person('/api/manifests/bp/rows', { json: init.json, headers: init.headers });
    expect(theirs.status, theirs.text).toBe(201);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    expect((await rows('bp')).filter((r: { date: string }) => r.date === '2026-04-22')).toHaveLength(2);
  });
});

describe('a retry spelt another way is the same write', () => {
  const sevens = async () => (await rows('bp')).filter((r: { date: string }) => r.date === '2026-04-16');

  it('query parameters in another order, body keys in another order, the card id percent-encoded', async () => {
    const headers = keyed('k-spelt');
    const first = await person('/api/manifests/bp/entries?source=phone&v=2', {
      body: '{"entry":{"date":"2026-04-16","sys":131}}',
      headers: { ...headers, 'content-type': 'application/json' },
    });
    expect(first.status, first.text).toBe(201);
    for (const [url, body] of [
      ['/api/manifests/bp/entries?v=2&source=phone', '{"entry":{"date":"2026-04-16","sys":131}}'],
      ['/api/manifests/bp/entries?source=phone&v=2', '{"entry":{"sys":131,"date":"2026-04-16"}}'],
      ['/api/manifests/%62p/entries?source=phone&v=2', '{"entry":{"date":"2026-04-16","sys":131}}'],
    ]) {
      const again = await person(url, { body, headers: { ...headers, 'content-type': 'application/json' } });
      expect(again.status, `${url} ${body}: ${again.text}`).toBe(201);
      expect(again.headers.get('idempotent-replayed'), url).toBe('true');
      expect(again.body).toEqual(first.body);
    }
    expect(await sevens()).toHaveLength(1);
  });

  it('other query parameters with the same key are another write: 422 IDEMPOTENCY_KEY_REUSED', async () => {
    const headers = keyed('k-query');
    const json = { entry: { date: '2026-04-16', sys: 132 } };
    expect((await person('/api/manifests/bp/entries?v=1', { json, headers })).status).toBe(201);
    const other = await person('/api/manifests/bp/entries?v=2', { json, headers });
    expect(other.status, other.text).toBe(422);
    expect(other.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(await sevens()).toHaveLength(1);
  });
});

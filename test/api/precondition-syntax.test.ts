/**
 * A precondition that is malformed is the client's mistake, a 400 naming the field, and nothing
 * is written; only a well-formed precondition that does not hold is a 412. For an entry's
 * `expect` (the row as read: always an object) and for `If-Match` (`*` or this server's data
 * ETags, `"v42"`), on the entry, row and data writes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

const T = 'precondition-syntax-token';
let s: TestServer;
const row = { date: '2026-04-01', kg: 80 };

const api = (p: string, init: Parameters<TestServer['api']>[1] = {}) => s.api(p, { token: T, ...init });
const rows = async () => (await api('/api/manifests/w/data')).body.data;
const etag = async () => (await api('/api/manifests/w/data')).headers.get('etag') as string;

beforeAll(async () => {
  s = await startServer({ env: { AGENT_API_TOKEN: T } });
  const r = await api('/api/manifests', {
    json: {
      $schema: 'klebb.datafile.v1',
      meta: {
        id: 'w',
        label: 'W',
        writeable: { fromWebapp: true },
        inputs: [
          { key: 'date', type: 'date', label: 'Date' },
          { key: 'kg', type: 'number', label: 'kg' },
        ],
      },
      data: [row],
    },
  });
  expect(r.status, r.text).toBe(201);
});
afterAll(async () => {
  await s.close();
});

describe('expect, the row as the client read it', () => {
  const malformed: [string, unknown][] = [
    ['a string', 'x'],
    ['a number', 42],
    ['null', null],
    ['a list', [row]],
    ['true', true],
  ];
  for (const [what, value] of malformed) {
    it(`${what} is 400 naming body.expect, on PUT and DELETE, and nothing changes`, async () => {
      const put = await api('/api/manifests/w/entries/0', {
        method: 'PUT',
        json: { entry: { date: '2026-04-01', kg: 81 }, expect: value },
      });
      expect(put.status, put.text).toBe(400);
      expect(put.body.details.map((d: { path: string }) => d.path)).toContain('body.expect');
      const del = await api('/api/manifests/w/entries/0', { method: 'DELETE', json: { expect: value } });
      expect(del.status, del.text).toBe(400);
      expect(del.body.details.map((d: { path: string }) => d.path)).toContain('body.expect');
      expect(await rows()).toEqual([row]);
    });
  }

  it('an object that is not the stored row is 412 ENTRY_CHANGED; the row itself goes through', async () => {
    const stale = await api('/api/manifests/w/entries/0', {
      method: 'PUT',
      json: { entry: { date: '2026-04-01', kg: 81 }, expect: { date: '2026-04-01', kg: 79 } },
    });
    expect(stale.status, stale.text).toBe(412);
    expect(stale.body.code).toBe('ENTRY_CHANGED');
    const ok = await api('/api/manifests/w/entries/0', {
      method: 'PUT',
      json: { entry: { date: '2026-04-01', kg: 80 }, expect: row },
    });
    expect(ok.status, ok.text).toBe(200);
  });
});

describe('If-Match', () => {
  const garbage = [
    '"garbage"',
    '""',
    '"v"',
    '"v12x"',
    '"v-1"',
    '"V1"',
    // a number written with a leading zero, or past 2^53 - 1: never a version this server sends
    '"v01"',
    '"v00"',
    '"v99999999999999999999"',
    'W/"x"',
    'v1',
    '"v1", "zz"',
    '',
    ',',
    ' , ,',
  ];
  const writes = (ifMatch: string) => [
    api('/api/manifests/w/entries/0', {
      method: 'PUT',
      json: { entry: { date: '2026-04-01', kg: 82 } },
      headers: { 'if-match': ifMatch },
    }),
    api('/api/manifests/w/rows', {
      json: { value: { date: '2026-04-02', kg: 82 } },
      headers: { 'if-match': ifMatch },
    }),
    api('/api/manifests/w/data', { json: { data: [] }, headers: { 'if-match': ifMatch } }),
  ];

  for (const value of garbage) {
    it(`${JSON.stringify(value)} is 400 BAD_IF_MATCH naming headers.if-match, and nothing changes`, async () => {
      const before = await rows();
      for (const r of await Promise.all(writes(value))) {
        expect(r.status, r.text).toBe(400);
        expect(r.body.code).toBe('BAD_IF_MATCH');
        expect(r.body.details[0].path).toBe('headers.if-match');
      }
      expect(await rows()).toEqual(before);
    });
  }

  it('a tag of this server that is not the current one is 412; weak tags never match', async () => {
    const current = await etag();
    for (const value of ['"v999999"', `W/${current}`, '"v999999", "v999998"']) {
      for (const r of await Promise.all(writes(value))) {
        expect(r.status, `${value}: ${r.text}`).toBe(412);
        expect(r.body.code).toBe('PRECONDITION_FAILED');
      }
    }
    const ok = await api('/api/manifests/w/rows', {
      json: { value: { date: '2026-04-03', kg: 83 } },
      headers: { 'if-match': `"v999999", ${current}` },
    });
    expect(ok.status, ok.text).toBe(201);
  });

  it('empty elements of the list are ignored: "vN", is the tag it holds', async () => {
    for (const [i, list] of [(t: string) => `${t},`, (t: string) => `, ${t} ,,`].entries()) {
      const current = await etag();
      const ok = await api('/api/manifests/w/rows', {
        json: { value: { date: `2026-04-0${4 + i}`, kg: 84 } },
        headers: { 'if-match': list(current) },
      });
      expect(ok.status, ok.text).toBe(201);
    }
    const stale = await api('/api/manifests/w/rows', {
      json: { value: { date: '2026-04-09', kg: 85 } },
      headers: { 'if-match': '"v999999",' },
    });
    expect(stale.status, stale.text).toBe(412);
  });
});

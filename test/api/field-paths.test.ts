/**
 * Every refusal of a request body names its field the same way (docs/API.md "Errors"): `body.`
 * then dotted keys with array indexes in brackets, whatever check found it: the schema, a
 * number that would not be kept, a lone surrogate, a prototype key.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { readTemplate } from '../helpers/templates.js';

let s: TestServer;
const T = 'paths-token';

beforeAll(async () => {
  s = await startServer({ env: { AGENT_API_TOKEN: T } });
  expect((await s.api('/api/manifests', { token: T, json: readTemplate('weight') })).status).toBe(201);
});
afterAll(async () => {
  await s?.close();
});

const entry = (text: string) =>
  s.api('/api/manifests/weight/entries', { body: text, headers: { 'content-type': 'application/json' } });

describe('field paths in details', () => {
  it('name the field under body. for every kind of body refusal', async () => {
    const cases: [string, string, string][] = [
      ['{"entry":{"date":"2026-01-02","kg":1e309}}', 'NUMBER_OUT_OF_RANGE', 'body.entry.kg'],
      ['{"entry":{"date":"2026-01-02","kg":80,"note":"\\ud83d"}}', 'INVALID_JSON', 'body.entry.note'],
      ['{"entry":{"date":"2026-01-02","kg":80,"__proto__":{"x":1}}}', 'INVALID_JSON', 'body.entry.__proto__'],
      [
        '{"entry":{"date":"2026-01-02","kg":80,"constructor":{"prototype":{}}}}',
        'INVALID_JSON',
        'body.entry.constructor',
      ],
      ['{"entry":{"items":[{"a":"\\udc00"}]}}', 'INVALID_JSON', 'body.entry.items[0].a'],
      ['{}', 'BAD_REQUEST', 'body.entry'],
    ];
    for (const [text, code, path] of cases) {
      const r = await entry(text);
      expect(r.status, text).toBe(400);
      expect(r.body.code, text).toBe(code);
      expect(r.body.details?.[0]?.path, text).toBe(path);
      if (code !== 'BAD_REQUEST') expect(r.body.error, text).toContain(path);
    }
    expect((await s.api('/api/manifests/weight/data', { token: T })).body.data).toEqual([]);
  });
});

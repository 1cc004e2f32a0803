/**
 * A JSON body sent without its Content-Type (curl -d alone labels it
 * application/x-www-form-urlencoded, a script may send text/plain) is 415 with a message that says
 * which header to send, not a bare "Unsupported Media Type". Nothing is written.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
  await s.api('/api/manifests', {
    json: { $schema: 'klebb.datafile.v1', meta: { id: 'w', label: 'W' }, data: [] },
  });
});
afterAll(async () => {
  await s.close();
});

describe('a JSON body labelled as another type', () => {
  for (const type of ['application/x-www-form-urlencoded', 'text/plain', 'application/xml']) {
    it(`${type}: 415 naming the header to send`, async () => {
      const r = await s.api('/api/manifests/w/rows', {
        method: 'POST',
        body: '{"value":{"date":"2026-04-20","kg":80}}',
        headers: { 'content-type': type },
      });
      expect(r.status).toBe(415);
      expect(r.body.code).toBe('UNSUPPORTED_MEDIA_TYPE');
      expect(r.body.error).toContain('Content-Type: application/json');
      expect((await s.api('/api/manifests/w/data')).body.data).toEqual([]);
    });
  }
});

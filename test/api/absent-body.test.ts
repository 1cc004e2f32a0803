/**
 * A request sent with no body at all (curl -X POST, no Content-Type): a route whose fields are
 * all optional reads it as `{}`; a route that needs fields says the body is missing and names
 * them, instead of "body must be object". Nothing is written by a refused one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(async () => {
  await s.close();
});

describe('a request without a body', () => {
  it('POST /api/conversations (title and messages optional) makes an empty conversation', async () => {
    const r = await s.api('/api/conversations', { method: 'POST' });
    expect(r.status).toBe(201);
    expect(r.body.conversation.messages).toEqual([]);
  });

  it('a route that needs fields names them and says the body is missing', async () => {
    await s.api('/api/manifests', {
      json: { $schema: 'klebb.datafile.v1', meta: { id: 'w', label: 'W' }, data: [] },
    });
    for (const [method, url, field] of [
      ['POST', '/api/manifests/w/rows', 'value'],
      ['PATCH', '/api/manifests/w/rows', 'changes'],
      ['POST', '/api/import/apply', 'nonce'],
    ] as const) {
      const r = await s.api(url, { method });
      expect(r.status, url).toBe(400);
      expect(r.body.code, url).toBe('BAD_REQUEST');
      expect(r.body.error, url).toMatch(/body is missing/);
      expect(r.body.error, url).toContain(field);
      expect(r.body.error, url).toContain('application/json');
    }
    expect((await s.api('/api/manifests/w/data')).body.data).toEqual([]);
  });

  it('a JSON null or a list is still "must be an object"', async () => {
    const r = await s.api('/api/manifests/w/rows', {
      body: 'null',
      headers: { 'content-type': 'application/json' },
    });
    expect(r.status).toBe(400);
    expect(r.body.error).not.toMatch(/missing/);
  });
});

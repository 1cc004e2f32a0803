/**
 * A text or list outside the length a route takes is refused in plain words naming the limit
 * ("must not be empty", "must be at most 100 characters"), not the schema checker's
 * "must NOT have fewer than 1 characters". Nothing changes.
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

describe('length limits', () => {
  it('an empty text where one is needed: "must not be empty"', async () => {
    const r = await s.api('/api/import/apply', { json: { nonce: '' } });
    expect(r.status).toBe(400);
    expect(r.body.details).toEqual([{ path: 'body.nonce', message: 'must not be empty' }]);
    expect(r.body.error).toBe('body.nonce must not be empty');
  });

  it('a text over its limit names the limit in characters', async () => {
    const r = await s.api(`/api/backups/${'a'.repeat(100)}/restore`, { json: { confirm: 'x'.repeat(21) } });
    expect(r.status).toBe(400);
    expect(r.body.details).toContainEqual({ path: 'body.confirm', message: 'must be at most 20 characters' });
    expect(JSON.stringify(r.body)).not.toMatch(/NOT have/);
  });

  it('no schema message in the answers says "NOT have"', async () => {
    const r = await s.api('/api/import/apply', { json: { nonce: '', confirm: 'y'.repeat(30) } });
    expect(JSON.stringify(r.body)).not.toMatch(/NOT have/);
  });
});

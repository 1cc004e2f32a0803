// The search needle's limit counts what a person sees as characters, as every other text limit
// does: 500 emoji (1000 UTF-16 units) or 500 flags are searched; one more is refused, naming q.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
beforeAll(async () => {
  s = await startServer({ watch: false });
});
afterAll(async () => {
  await s.close();
});

describe('limits in characters', () => {
  it('a search of 500 emoji is searched; 501 is refused', async () => {
    const ok = await s.api('/api/conversations/search', { json: { q: '🏃'.repeat(500) } });
    expect(ok.status, ok.text).toBe(200);
    const flags = await s.api('/api/conversations/search', { json: { q: '🇩🇪'.repeat(500) } });
    expect(flags.status, flags.text).toBe(200);
    const over = await s.api('/api/conversations/search', { json: { q: '🏃'.repeat(501) } });
    expect(over.status).toBe(400);
    expect(over.body.details[0].path).toBe('body.q');
  });
});

/**
 * Demo mode (`KLEBB_DEMO=1`) keeps each visitor's changes from reaching the next one (
 * attack report, item 3): deleting or creating cards, setting
 * the time zone and the Health Auto Export token are 403 DEMO_MODE, and conversations are not
 * kept, so one visitor never reads another's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { demoVisitor } from './flows.js';

let s: TestServer;

beforeAll(async () => {
  s = await startServer({ env: { KLEBB_DEMO: '1' } });
});
afterAll(async () => {
  await s?.close();
});

describe('demo mode writes', () => {
  it('refuses deleting and creating cards, the time zone and the HAE token with 403 DEMO_MODE', async () => {
    const h = await demoVisitor(s);
    const card = { meta: { id: 'mine', label: 'Mine' }, data: [] };
    const refused: [string, string, unknown?][] = [
      ['DELETE', '/api/manifests/welcome'],
      ['POST', '/api/manifests', card],
      ['POST', '/api/user/tz', { tz: 'Europe/Berlin' }],
      ['POST', '/api/health-auto-export/token'],
      ['POST', '/api/health-auto-export/token/regenerate'],
      ['DELETE', '/api/health-auto-export/token'],
      ['GET', '/api/health-auto-export/token'],
      ['POST', '/api/health-auto-export/cards', { metric: 'step_count' }],
    ];
    for (const [method, path, json] of refused) {
      const r = await s.api(path, { method, headers: h, ...(json ? { json } : {}) });
      expect([method, path, r.status, r.body?.code]).toEqual([method, path, 403, 'DEMO_MODE']);
    }
    expect((await s.api('/api/manifests/welcome', { headers: h })).status).toBe(200);
    expect((await s.api('/api/manifests/mine', { headers: h })).status).toBe(404);
  });

  it('keeps no conversations: a visitor never sees another visitor’s', async () => {
    const a = await demoVisitor(s);
    const made = await s.api('/api/conversations', { json: { title: 'my secret' }, headers: a });
    expect(made.status).toBe(403);
    expect(
      (await s.api('/api/chat/history', { method: 'PUT', json: { messages: [] }, headers: a })).status,
    ).toBe(403);
    const b = await demoVisitor(s);
    expect((await s.api('/api/conversations', { headers: b })).body).toEqual({ conversations: [] });
    expect((await s.api('/api/conversations/search', { json: { q: 'secret' }, headers: b })).body).toEqual({
      conversations: [],
    });
    expect(s.inst.conversations.list()).toHaveLength(0);
  });
});

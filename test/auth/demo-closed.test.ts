/**
 * Demo mode is closed by default: a demo visitor may log (entries, check-off rows) and read, and every other write route
 * in the route table is refused, so no visitor can upload data into the shared demo or hide or
 * deface the cards the next visitor sees. Walked over the real route table, not a list.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_WRITE_ALLOWED } from '../../src/auth/demo-policy.js';
import { export2016 } from '../fixtures/apple-health-export.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { templateText } from '../helpers/templates.js';
import { demoVisitor } from './flows.js';

let s: TestServer;
const weight = templateText('weight');
const exportXml = Buffer.from(export2016());

beforeAll(async () => {
  s = await startServer({
    env: { KLEBB_DEMO: '1' },
    before: (_home, dataDir) => {
      fs.mkdirSync(dataDir, { recursive: true });
      fs.writeFileSync(path.join(dataDir, 'weight.json'), weight);
    },
  });
});
afterAll(async () => {
  await s?.close();
});

function concrete(url: string): string {
  return url.replace(/:[A-Za-z]+/g, 'welcome').replace(/\*$/, 'x');
}

describe('demo mode is closed by default', () => {
  it('refuses an Apple Health upload with 403 DEMO_MODE and stores nothing', async () => {
    const h = await demoVisitor(s);
    const before = (await s.api('/api/health-auto-export/discoveries', { headers: h })).body;
    const r = await s.api('/api/apple-health/import', {
      method: 'POST',
      body: exportXml,
      headers: { ...h, 'content-type': 'application/xml' },
    });
    expect([r.status, r.body?.code]).toEqual([403, 'DEMO_MODE']);
    expect((await s.api('/api/health-auto-export/discoveries', { headers: h })).body).toEqual(before);
    expect(s.inst.hae.lastPush('apple-health')).toBeNull();
  });

  it('refuses manifest changes: PATCH of meta.view.enabled or the label, and reorder', async () => {
    const h = await demoVisitor(s);
    const was = (await s.api('/api/manifests/welcome', { headers: h })).body;
    const patch = await s.api('/api/manifests/welcome', {
      method: 'PATCH',
      json: { meta: { view: { enabled: false }, label: 'Defaced by visitor' } },
      headers: h,
    });
    expect([patch.status, patch.body?.code]).toEqual([403, 'DEMO_MODE']);
    const rename = await s.api('/api/manifests/welcome', {
      method: 'PATCH',
      json: { meta: { label: 'x' } },
      headers: h,
    });
    expect([rename.status, rename.body?.code]).toEqual([403, 'DEMO_MODE']);
    const reorder = await s.api('/api/manifests/reorder', {
      json: { order: ['weight', 'welcome'] },
      headers: h,
    });
    expect([reorder.status, reorder.body?.code]).toEqual([403, 'DEMO_MODE']);
    expect((await s.api('/api/manifests/welcome', { headers: h })).body).toEqual(was);
  });

  it('every write route of the route table off the allow-list is refused (403 DEMO_MODE, or 410/503 where the demo says gone)', async () => {
    const h = await demoVisitor(s);
    // (the admin routes take the operator's admin token, never a demo session)
    const writes = s.app.routeTable.filter(
      (r) => !['GET', 'HEAD', 'OPTIONS'].includes(r.method) && r.auth !== 'admin',
    );
    expect(writes.length).toBeGreaterThan(20);
    for (const r of writes) {
      const key = `${r.method} ${r.url}`;
      if (DEMO_WRITE_ALLOWED.has(key)) continue;
      const url = concrete(r.url);
      const res = await s.api(url, {
        method: r.method,
        headers: r.url === '/api/health-auto-export' ? { ...h, authorization: 'Bearer x' } : h,
        ...(r.method === 'DELETE' ? {} : { json: {} }),
      });
      // the conversation routes answer empty lists instead (nothing is stored)
      if (key === 'POST /api/conversations/search' || key === 'POST /api/chat/history/fold') {
        expect(res.status, key).toBe(200);
        continue;
      }
      if (key === 'POST /api/chat') continue; // the canned reply (demo-mode.test.ts)
      // /mcp answers as MCP clients read it: the code is the JSON-RPC error's data.code
      const code = res.body?.code ?? res.body?.error?.data?.code;
      const outcome = res.status === 403 ? code : [410, 503].includes(res.status) ? 'gone' : res.status;
      expect(['DEMO_MODE', 'gone'], `${key} answered ${res.status} ${res.text.slice(0, 200)}`).toContain(
        outcome,
      );
    }
    // the allow-list is short and deliberate: logging, chat turn stop, feedback, demo sign-in/out
    expect([...DEMO_WRITE_ALLOWED].sort()).toEqual([
      'DELETE /api/chat/turn/:conversationId',
      'DELETE /api/manifests/:id/entries/:index',
      'DELETE /api/manifests/:id/rows',
      'PATCH /api/manifests/:id/rows',
      'POST /api/feedback',
      'POST /api/manifests/:id/entries',
      'POST /api/manifests/:id/rows',
      'POST /auth/demo-login',
      'POST /auth/logout',
      'PUT /api/manifests/:id/entries/:index',
    ]);
  });

  it('logging still works: a visitor adds, edits and removes a weight entry', async () => {
    const h = await demoVisitor(s);
    const date = new Date().toISOString().slice(0, 10);
    const add = await s.api('/api/manifests/weight/entries', {
      json: { entry: { date, kg: 80 } },
      headers: h,
    });
    expect(add.status).toBe(201);
    const edit = await s.api(`/api/manifests/weight/entries/${add.body.index}`, {
      method: 'PUT',
      json: { entry: { date, kg: 81 } },
      headers: h,
    });
    expect(edit.status).toBe(200);
    const del = await s.api(`/api/manifests/weight/entries/${add.body.index}`, {
      method: 'DELETE',
      headers: h,
    });
    expect(del.status).toBe(200);
  });
});

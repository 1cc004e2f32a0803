/**
 * `POST /api/feedback` and `GET /api/admin/feedback?since=` (docs/API.md "Settings /
 * content / suggestions / hygiene / feedback" and "Admin / control plane"; docs/CHAT-AGENT.md
 * note_feedback): anonymised lines in `<home>/data/_meta/feedback.jsonl`, collected by the
 * operator with the KLEBB_ADMIN_TOKEN bearer.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

const AGENT = 'agent-token-for-feedback';
const ADMIN = 'admin-token-for-feedback';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function readLog(s: TestServer): any[] {
  const f = path.join(s.home, 'data', '_meta', 'feedback.jsonl');
  if (!fs.existsSync(f)) return [];
  return fs
    .readFileSync(f, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l));
}

describe('POST /api/feedback and GET /api/admin/feedback (admin token set)', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer({ env: { AGENT_API_TOKEN: AGENT, KLEBB_ADMIN_TOKEN: ADMIN } });
  });
  afterAll(async () => {
    await s.close();
  });

  it('appends an anonymised line (local caller and agent bearer)', async () => {
    const r = await s.api('/api/feedback', {
      json: { kind: 'bug', intent: 'chart does not load', context: 'trends view' },
    });
    expect(r.status).toBe(201);
    expect(r.body).toEqual({ ok: true });
    const r2 = await s.api('/api/feedback', {
      token: AGENT,
      json: { intent: 'export to csv', toolsConsidered: ['read_manifest_rows'] },
    });
    expect(r2.status).toBe(201);
    const log = readLog(s);
    expect(log.slice(-2)).toEqual([
      { ts: expect.any(String), kind: 'bug', intent: 'chart does not load', context: 'trends view' },
      {
        ts: expect.any(String),
        kind: 'feature',
        intent: 'export to csv',
        toolsConsidered: ['read_manifest_rows'],
      },
    ]);
    for (const e of log) expect(new Date(e.ts).toISOString()).toBe(e.ts);
  });

  it('drops fields that are not part of the entry', async () => {
    const r = await s.api('/api/feedback', {
      json: {
        intent: 'track sleep',
        email: 'me@example.com',
        values: [120, 80],
        ts: '1999-01-01T00:00:00.000Z',
      },
    });
    expect(r.status).toBe(201);
    const last = readLog(s).at(-1);
    expect(Object.keys(last).sort()).toEqual(['intent', 'kind', 'ts']);
    expect(last.ts).not.toBe('1999-01-01T00:00:00.000Z');
    expect(JSON.stringify(last)).not.toContain('example.com');
  });

  it('clips intent at 280, context at 500 and keeps at most 12 tool names', async () => {
    const r = await s.api('/api/feedback', {
      json: {
        kind: 'feature',
        intent: 'i'.repeat(400),
        context: 'c'.repeat(900),
        toolsConsidered: Array.from({ length: 20 }, (_, i) => `tool_${i}`),
      },
    });
    expect(r.status).toBe(201);
    const last = readLog(s).at(-1);
    expect(last.intent.length).toBeLessThanOrEqual(280);
    expect(last.intent.length).toBeGreaterThanOrEqual(279);
    expect(last.context.length).toBeLessThanOrEqual(500);
    expect(last.context.length).toBeGreaterThanOrEqual(499);
    expect(last.toolsConsidered).toEqual(Array.from({ length: 12 }, (_, i) => `tool_${i}`));
  });

  it('400 without intent (or with an empty one, a bad kind, a non-object body); nothing appended', async () => {
    const count = readLog(s).length;
    const noIntent = await s.api('/api/feedback', { json: { kind: 'bug', context: 'x' } });
    expect(noIntent.status).toBe(400);
    expect(noIntent.body.details.map((d: { path: string }) => d.path)).toContain('body.intent');
    for (const json of [
      { intent: '  ' },
      { intent: 'x', kind: 'praise' },
      ['intent'],
      { intent: 42 },
      { intent: 'x', toolsConsidered: 'all' },
    ]) {
      const r = await s.api('/api/feedback', { json });
      expect(r.status, JSON.stringify(json)).toBe(400);
    }
    expect(readLog(s).length).toBe(count);
  });

  it('admin: 401 without a token, with the agent token, or with a wrong one', async () => {
    expect((await s.api('/api/admin/feedback')).status).toBe(401);
    expect((await s.api('/api/admin/feedback', { token: AGENT })).status).toBe(401);
    expect((await s.api('/api/admin/feedback', { token: `${ADMIN}x` })).status).toBe(401);
    const r = await s.api('/api/admin/feedback', { token: AGENT });
    expect(r.body).not.toHaveProperty('entries');
  });

  it('admin: 200 with every entry, then only those after since', async () => {
    const all = await s.api('/api/admin/feedback', { token: ADMIN });
    expect(all.status).toBe(200);
    expect(all.body.entries).toEqual(readLog(s));
    expect(all.body.cursor).toBe(all.body.entries.at(-1).ts);

    await sleep(5);
    const mark = new Date().toISOString();
    await sleep(5);
    await s.api('/api/feedback', { json: { intent: 'after the mark' } });
    await sleep(5);
    await s.api('/api/feedback', { json: { intent: 'after the mark, too' } });

    const since = await s.api(`/api/admin/feedback?since=${encodeURIComponent(mark)}`, { token: ADMIN });
    expect(since.status).toBe(200);
    expect(since.body.entries.map((e: { intent: string }) => e.intent)).toEqual([
      'after the mark',
      'after the mark, too',
    ]);

    // the cursor of one answer is the since of the next: nothing is returned twice
    const next = await s.api(`/api/admin/feedback?since=${encodeURIComponent(since.body.cursor)}`, {
      token: ADMIN,
    });
    expect(next.status).toBe(200);
    expect(next.body.entries).toEqual([]);

    // a since with an offset is the same instant
    const offset = new Date(Date.parse(mark)).toISOString().replace('Z', '+00:00');
    const same = await s.api(`/api/admin/feedback?since=${encodeURIComponent(offset)}`, { token: ADMIN });
    expect(same.body.entries).toHaveLength(2);
  });

  it('admin: 400 for a since that is not a date-time', async () => {
    for (const bad of ['yesterday', 'not-a-date', '2026-13-45T99:00:00Z']) {
      const r = await s.api(`/api/admin/feedback?since=${encodeURIComponent(bad)}`, { token: ADMIN });
      expect(r.status, bad).toBe(400);
    }
  });
});

describe('GET /api/admin/feedback without KLEBB_ADMIN_TOKEN', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer({ env: { AGENT_API_TOKEN: AGENT } });
  });
  afterAll(async () => {
    await s.close();
  });

  it('is 404 whatever the caller sends', async () => {
    expect((await s.api('/api/admin/feedback')).status).toBe(404);
    expect((await s.api('/api/admin/feedback', { token: AGENT })).status).toBe(404);
    expect((await s.api('/api/admin/feedback', { token: ADMIN })).status).toBe(404);
    expect((await s.api('/api/admin/feedback?since=2026-01-01T00:00:00Z', { token: ADMIN })).status).toBe(
      404,
    );
  });

  it('POST /api/feedback still works', async () => {
    const r = await s.api('/api/feedback', { json: { intent: 'still logged' } });
    expect(r.status).toBe(201);
    expect(readLog(s).map((e) => e.intent)).toEqual(['still logged']);
  });
});

import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_IDS_NAMED, MAX_REORDER_IDS } from '../../src/limits.js';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
const mk = (id: string, meta: Record<string, unknown> = {}) =>
  s.api('/api/manifests', {
    json: { $schema: 'klebb.datafile.v1', meta: { id, label: id.toUpperCase(), ...meta }, data: [] },
  });

beforeEach(async () => {
  s = await startServer();
  await mk('mood', { order: 5, view: { enabled: true, component: 'generic-card' } });
  await mk('weight', {
    view: { enabled: true, component: 'generic-card' },
    trends: { enabled: true, component: 'line-chart' },
  });
  await mk('bp', { order: 1, view: { enabled: true } });
  await mk('peptides', { view: { enabled: false, component: 'schedule-card' } });
});
afterEach(async () => {
  await s.close();
});

const mtimes = (ids: string[]) => ids.map((id) => fs.statSync(path.join(s.dataDir, `${id}.json`)).mtimeMs);

describe('POST /api/manifests/reorder', () => {
  it('writes sparse orders to the listed cards only, and is idempotent', async () => {
    const welcomeBefore = fs.readFileSync(path.join(s.dataDir, 'welcome.json'), 'utf8');
    const r = await s.api('/api/manifests/reorder', {
      json: { order: ['mood', 'weight', 'bp', 'peptides'] },
    });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      ok: true,
      updated: ['mood', 'weight', 'bp', 'peptides'],
      etag: expect.any(String),
    });
    const orders = await Promise.all(
      ['mood', 'weight', 'bp', 'peptides'].map(
        async (id) => (await s.api(`/api/manifests/${id}`)).body.meta.order,
      ),
    );
    expect(orders).toEqual([100, 200, 300, 400]);
    expect(fs.readFileSync(path.join(s.dataDir, 'welcome.json'), 'utf8')).toBe(welcomeBefore);

    const before = mtimes(['mood', 'weight', 'bp', 'peptides', 'welcome']);
    await new Promise((res) => setTimeout(res, 20));
    const again = await s.api('/api/manifests/reorder', {
      json: { order: ['mood', 'weight', 'bp', 'peptides'] },
    });
    expect(again.body).toEqual({ ok: true, updated: [], etag: r.body.etag });
    expect(mtimes(['mood', 'weight', 'bp', 'peptides', 'welcome'])).toEqual(before);
  });

  it('an unknown id is 404 and nothing is written', async () => {
    const before = mtimes(['mood', 'weight']);
    const r = await s.api('/api/manifests/reorder', { json: { order: ['weight', 'ghost', 'mood'] } });
    expect(r.status).toBe(404);
    expect(r.body.error).toContain('ghost');
    expect(mtimes(['mood', 'weight'])).toEqual(before);
    expect((await s.api('/api/manifests/weight')).body.meta.order).toBeUndefined();
  });

  it('a list longer than the limit is 400 naming order, and nothing is written', async () => {
    const before = mtimes(['mood', 'weight']);
    const order = ['weight', 'mood', ...Array.from({ length: MAX_REORDER_IDS }, (_, i) => `ghost-${i}`)];
    const r = await s.api('/api/manifests/reorder', { json: { order } });
    expect(r.status).toBe(400);
    expect(r.body.details).toEqual([
      { path: 'body.order', message: expect.stringContaining(`${MAX_REORDER_IDS}`) },
    ]);
    expect(mtimes(['mood', 'weight'])).toEqual(before);
  });

  it('many unknown ids: the answer names a few and counts them all; the list is read in one pass', async () => {
    const long = 'x'.repeat(5000);
    const order = [long, ...Array.from({ length: MAX_REORDER_IDS - 1 }, (_, i) => `ghost-${i}`)];
    const r = await s.api('/api/manifests/reorder', { json: { order } });
    expect(r.status).toBe(404);
    expect(r.body.count).toBe(MAX_REORDER_IDS);
    expect(r.body.ids).toHaveLength(MAX_IDS_NAMED);
    expect(r.body.error).toContain('ghost-0');
    expect(r.body.error).not.toContain(`ghost-${MAX_IDS_NAMED}`);
    expect(r.body.error).toContain(`and ${MAX_REORDER_IDS - MAX_IDS_NAMED} more`);
    expect(r.text.length).toBeLessThan(1000);
  });

  it('ids listed twice are named a few at a time', async () => {
    const ids = Array.from({ length: 50 }, (_, i) => `twice-${i}`);
    const r = await s.api('/api/manifests/reorder', { json: { order: [...ids, ...ids] } });
    expect(r.status).toBe(400);
    expect(r.body.error).toContain('twice-0');
    expect(r.body.error).not.toContain(`twice-${MAX_IDS_NAMED},`);
    expect(r.body.error).toContain(`and ${50 - MAX_IDS_NAMED} more`);
  });

  it.each([[{ order: 'mood' }], [{ order: [1, 2] }], [{}], [['mood']]])(
    'bad body %j is 400',
    async (body) => {
      expect((await s.api('/api/manifests/reorder', { json: body })).status).toBe(400);
    },
  );
});

describe('GET /api/views/:view', () => {
  it('lists enabled cards with a component, sorted by order then label', async () => {
    const r = await s.api('/api/views/view');
    expect(r.body.cards.map((c: { id: string }) => c.id)).toEqual(['mood', 'weight']);
    expect(r.body.cards[0].viewConfig).toEqual({ enabled: true, component: 'generic-card' });
    expect((await s.api('/api/views/trends')).body.cards.map((c: { id: string }) => c.id)).toEqual([
      'weight',
    ]);
    expect((await s.api('/api/views/nope')).status).toBe(404);
  });

  it('a disabled card leaves every view but stays in settings', async () => {
    const d = await s.api('/api/settings/cards/weight/disable', { method: 'POST' });
    expect(d.body).toEqual({ ok: true, id: 'weight', enabled: false });
    expect((await s.api('/api/views/view')).body.cards.map((c: { id: string }) => c.id)).toEqual(['mood']);
    expect((await s.api('/api/views/trends')).body.cards).toEqual([]);
    const set = await s.api('/api/settings/cards');
    const w = set.body.cards.find((c: { id: string }) => c.id === 'weight');
    expect(w).toEqual({
      id: 'weight',
      label: 'WEIGHT',
      emoji: null,
      description: null,
      enabled: false,
      hasData: false,
    });
    await s.api('/api/settings/cards/weight/enable', { method: 'POST' });
    expect((await s.api('/api/views/trends')).body.cards.map((c: { id: string }) => c.id)).toEqual([
      'weight',
    ]);
    expect((await s.api('/api/settings/cards/ghost/enable', { method: 'POST' })).status).toBe(404);
  });
});

describe('body limits and content types', () => {
  it('a body over the limit is 413 and writes nothing', async () => {
    const big = JSON.stringify({ data: [{ blob: 'x'.repeat(11 * 1024 * 1024) }] });
    const r = await s.api('/api/manifests/mood/data', {
      body: big,
      headers: { 'content-type': 'application/json' },
    });
    expect(r.status).toBe(413);
    expect((await s.api('/api/manifests/mood/data')).body.data).toEqual([]);
  });

  it('application/merge-patch+json is accepted for PATCH', async () => {
    const r = await s.api('/api/manifests/mood', {
      method: 'PATCH',
      body: JSON.stringify({ meta: { emoji: '🙂' } }),
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    expect(r.status).toBe(200);
    expect((await s.api('/api/manifests/mood')).body.meta.emoji).toBe('🙂');
  });

  it('__proto__ in a body is refused without touching anything', async () => {
    const r = await s.api('/api/manifests/mood', {
      method: 'PATCH',
      body: '{"meta":{"__proto__":{"polluted":true}}}',
      headers: { 'content-type': 'application/json' },
    });
    expect(r.status).toBe(400);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

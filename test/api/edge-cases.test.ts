import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

// Regressions found by trying the API as a newcomer would (docs pass).
let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(async () => {
  await s.close();
});

const card = (id: string, extra: Record<string, unknown> = {}) => ({
  $schema: 'klebb.datafile.v1',
  meta: { id, label: id, writeable: { fromWebapp: true } },
  ...extra,
});

describe('edge cases', () => {
  it('framework errors carry our own stable codes', async () => {
    const bad = await s.api('/api/manifests', { body: '{', headers: { 'content-type': 'application/json' } });
    expect(bad.body.code).toBe('INVALID_JSON');
    const empty = await s.api('/api/manifests', {
      body: '',
      headers: { 'content-type': 'application/json' },
    });
    expect(empty.status).toBe(400);
    expect(empty.body.code).toBe('EMPTY_BODY');
    const media = await s.api('/api/manifests', { body: 'x', headers: { 'content-type': 'text/csv' } });
    expect(media.status).toBe(415);
    expect(media.body.code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('an id that would look like a backup file is refused with 422', async () => {
    const r = await s.api('/api/manifests', { json: card('notes.json.old') });
    expect(r.status).toBe(422);
    expect(r.body.details[0].path).toBe('meta.id');
    expect(fs.existsSync(path.join(s.dataDir, 'notes.json.old.json'))).toBe(false);
  });

  it('date-keyed data: the key is the date, also on create', async () => {
    await s.api('/api/manifests', {
      json: card('dk', { data: { '2026-04-21': { mood: 3, date: '1999-01-01' } } }),
    });
    expect((await s.api('/api/manifests/dk/data')).body.data).toEqual([{ mood: 3, date: '2026-04-21' }]);
  });

  it('schema.type is enforced on create as on POST data', async () => {
    const r = await s.api('/api/manifests', {
      json: card('typed', { schema: { type: 'object' }, data: [] }),
    });
    expect(r.status).toBe(422);
    expect(r.body.code).toBe('WRONG_TYPE');
    expect((await s.api('/api/manifests/typed')).status).toBe(404);
  });

  it('reading rows of a card without data gives {value: null}; limit=0 gives only the total', async () => {
    fs.writeFileSync(path.join(s.dataDir, 'bare.json'), JSON.stringify(card('bare')));
    await expect.poll(async () => (await s.api('/api/manifests/bare')).status, { timeout: 3000 }).toBe(200);
    expect((await s.api('/api/manifests/bare/rows')).body).toEqual({ value: null });
    await s.api('/api/manifests', { json: card('few', { data: [{ a: 1 }, { a: 2 }] }) });
    const r = await s.api('/api/manifests/few/rows?limit=0');
    expect(r.body).toMatchObject({ rows: [], total: 2, truncated: true });
  });

  it('reordering rows into their current order writes nothing (ETag unchanged)', async () => {
    await s.api('/api/manifests', { json: card('ro1', { data: [{ k: 'a' }, { k: 'b' }] }) });
    const before = (await s.api('/api/manifests/ro1/data')).headers.get('etag');
    const r = await s.api('/api/manifests/ro1/rows/reorder', { json: { key: 'k', order: ['a', 'b'] } });
    expect(r.body.reordered).toBe(0);
    expect((await s.api('/api/manifests/ro1/data')).headers.get('etag')).toBe(before);
  });

  it('a bad row path on an unknown card is 404, not 400', async () => {
    const r = await s.api('/api/manifests/ghost/rows', {
      method: 'PATCH',
      json: { path: '[x=', changes: {} },
    });
    expect(r.status).toBe(404);
  });

  it('a card loaded with a bad optional field can still be patched elsewhere', async () => {
    const raw = card('half', { meta: { id: 'half', label: 'Half', cadence: { expectDays: 0 } } });
    fs.writeFileSync(path.join(s.dataDir, 'half.json'), JSON.stringify(raw));
    await expect.poll(async () => (await s.api('/api/manifests/half')).status, { timeout: 3000 }).toBe(200);
    const errs = (await s.api('/api/manifests')).body.errors;
    expect(errs).toEqual([
      expect.objectContaining({ id: 'half', code: 'FIELD_DROPPED', path: 'meta.cadence' }),
    ]);
    const p = await s.api('/api/manifests/half', { method: 'PATCH', json: { meta: { label: 'Half done' } } });
    expect(p.status).toBe(200);
    const worse = await s.api('/api/manifests/half', { method: 'PATCH', json: { meta: { order: 'x' } } });
    expect(worse.status).toBe(422);
    expect(worse.body.details.map((d: { path: string }) => d.path)).toEqual(['meta.order']);
  });

  it('a manifest key named version does not collide with the data version', async () => {
    await s.api('/api/manifests', { json: { ...card('vk'), version: 'mine' } });
    const r = await s.api('/api/manifests/vk');
    expect(typeof r.body.version).toBe('number');
    expect(r.text.match(/"version"/g)).toHaveLength(1);
  });

  it('a hand-dropped legacy file: date-keyed data becomes rows, a JSON-string data block is rescued and reported', async () => {
    fs.writeFileSync(
      path.join(s.dataDir, 'oldmood.json'),
      JSON.stringify(card('oldmood', { data: { '2026-04-20': { mood: 4 }, '2026-04-19': { mood: 2 } } })),
    );
    fs.writeFileSync(
      path.join(s.dataDir, 'strdata.json'),
      JSON.stringify(card('strdata', { data: '[{"a":1}]' })),
    );
    await expect
      .poll(async () => (await s.api('/api/manifests/strdata')).status, { timeout: 3000 })
      .toBe(200);
    await expect
      .poll(async () => (await s.api('/api/manifests/oldmood')).status, { timeout: 3000 })
      .toBe(200);
    expect((await s.api('/api/manifests/oldmood/data')).body.data).toEqual([
      { mood: 2, date: '2026-04-19' },
      { mood: 4, date: '2026-04-20' },
    ]);
    expect((await s.api('/api/manifests/strdata/data')).body.data).toEqual([{ a: 1 }]);
    const errs = (await s.api('/api/manifests')).body.errors;
    expect(errs).toContainEqual(expect.objectContaining({ id: 'strdata', code: 'DATA_RESCUED' }));
  });
});

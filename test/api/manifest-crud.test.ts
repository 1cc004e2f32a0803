import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

const bp = {
  $schema: 'klebb.datafile.v1',
  meta: {
    id: 'blood-pressure',
    label: 'Blood Pressure',
    emoji: '🩺',
    view: { enabled: true, component: 'list-card' },
    writeable: {
      fromWebapp: true,
      inputs: [
        { key: 'systolic', label: 'Systolic', type: 'number', required: true },
        { key: 'diastolic', label: 'Diastolic', type: 'number', required: true },
      ],
    },
  },
  description: 'Home BP readings.',
  data: [],
};

let s: TestServer;
beforeEach(async () => {
  s = await startServer();
});
afterEach(async () => {
  await s.close();
});

describe('a fresh home', () => {
  it('has the welcome card and no errors', async () => {
    const r = await s.api('/api/manifests');
    expect(r.status).toBe(200);
    expect(r.body.errors).toEqual([]);
    expect(r.body.entries.map((e: { id: string }) => e.id)).toEqual(['welcome']);
    const w = await s.api('/api/manifests/welcome/data');
    expect(typeof w.body.data.markdown).toBe('string');
  });
});

describe('POST /api/manifests', () => {
  it('creates the blood-pressure example: 201, meta-only file, rows in the store, welcome hidden once', async () => {
    const r = await s.api('/api/manifests', { json: bp });
    expect(r.status).toBe(201);
    expect(r.body).toEqual({
      ok: true,
      id: 'blood-pressure',
      source: 'data/blood-pressure.json',
      welcomeAutoHidden: true,
    });
    const onDisk = JSON.parse(fs.readFileSync(path.join(s.dataDir, 'blood-pressure.json'), 'utf8'));
    expect(onDisk).not.toHaveProperty('data');
    expect(onDisk.meta.label).toBe('Blood Pressure');
    const welcome = await s.api('/api/manifests/welcome');
    expect(welcome.body.meta.enabled).toBe(false);
    const second = await s.api('/api/manifests', { json: { ...bp, meta: { ...bp.meta, id: 'bp2' } } });
    expect(second.body.welcomeAutoHidden).toBe(false);
  });

  it('answers 409 for an id in use and writes nothing', async () => {
    await s.api('/api/manifests', { json: bp });
    const before = fs.readFileSync(path.join(s.dataDir, 'blood-pressure.json'), 'utf8');
    const r = await s.api('/api/manifests', { json: { ...bp, meta: { ...bp.meta, label: 'Other' } } });
    expect(r.status).toBe(409);
    expect(fs.readFileSync(path.join(s.dataDir, 'blood-pressure.json'), 'utf8')).toBe(before);
  });

  it.each([
    ['wrong $schema', { ...bp, $schema: 'nope' }, 400, '$schema'],
    ['missing meta.id', { ...bp, meta: { label: 'x' } }, 400, 'meta.id'],
    ['missing meta.label', { ...bp, meta: { id: 'x' } }, 400, 'meta.label'],
    ['data as a string', { ...bp, data: '[]' }, 400, 'data'],
    ['uppercase id', { ...bp, meta: { ...bp.meta, id: 'BP' } }, 422, 'meta.id'],
    ['reserved id', { ...bp, meta: { ...bp.meta, id: '_meta' } }, 422, 'meta.id'],
    ['65-char id', { ...bp, meta: { ...bp.meta, id: 'a'.repeat(65) } }, 422, 'meta.id'],
    ['path escape', { ...bp, meta: { ...bp.meta, id: '../evil' } }, 422, 'meta.id'],
    ['bad cadence', { ...bp, meta: { ...bp.meta, cadence: { expectDays: 0 } } }, 422, 'meta.cadence'],
  ])('%s → %i naming %s, nothing written', async (_name, body, status, field) => {
    const r = await s.api('/api/manifests', { json: body });
    expect(r.status).toBe(status);
    expect(JSON.stringify(r.body.details ?? r.body.error)).toContain(field);
    expect(fs.readdirSync(s.dataDir).filter((f) => f.endsWith('.json'))).toEqual(['welcome.json']);
  });

  it('answers 400 for malformed JSON and 415 for a non-JSON content type', async () => {
    const bad = await s.api('/api/manifests', {
      body: '{"$schema":',
      headers: { 'content-type': 'application/json' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBeTruthy();
    const text = await s.api('/api/manifests', { body: 'hello', headers: { 'content-type': 'text/plain' } });
    expect(text.status).toBe(415);
  });
});

describe('PATCH and DELETE /api/manifests/:id', () => {
  it('merge-patches meta and description; protected keys are 400', async () => {
    await s.api('/api/manifests', { json: bp });
    const r = await s.api('/api/manifests/blood-pressure', {
      method: 'PATCH',
      json: { meta: { label: 'BP', emoji: null } },
    });
    expect(r.status).toBe(200);
    const got = await s.api('/api/manifests/blood-pressure');
    expect(got.body.meta.label).toBe('BP');
    expect(got.body.meta).not.toHaveProperty('emoji');
    for (const patch of [{ $schema: 'x' }, { data: [] }, { meta: { id: 'other' } }]) {
      const p = await s.api('/api/manifests/blood-pressure', { method: 'PATCH', json: patch });
      expect(p.status).toBe(400);
    }
    const invalid = await s.api('/api/manifests/blood-pressure', {
      method: 'PATCH',
      json: { meta: { order: 'first' } },
    });
    expect(invalid.status).toBe(422);
    expect(invalid.body.details[0].path).toBe('meta.order');
  });

  it('deletes the file and the rows; 404 afterwards', async () => {
    await s.api('/api/manifests', {
      json: { ...bp, data: [{ date: '2026-04-20', systolic: 120, diastolic: 80 }] },
    });
    const d = await s.api('/api/manifests/blood-pressure', { method: 'DELETE' });
    expect(d.body).toEqual({ ok: true, id: 'blood-pressure' });
    expect(fs.existsSync(path.join(s.dataDir, 'blood-pressure.json'))).toBe(false);
    expect((await s.api('/api/manifests/blood-pressure')).status).toBe(404);
    expect((await s.api('/api/manifests/blood-pressure', { method: 'DELETE' })).status).toBe(404);
    // re-created under the same id it starts empty: the old rows went with the delete
    await s.api('/api/manifests', { json: bp });
    expect((await s.api('/api/manifests/blood-pressure/data')).body.data).toEqual([]);
  });
});

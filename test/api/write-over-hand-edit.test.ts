/**
 * An API write must not resurrect a card whose file was just deleted by hand, nor throw away a
 * half-finished hand edit (invalid JSON): both answer 409 and leave the file as the person left it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
let file: string;
beforeEach(async () => {
  // no watcher: the hand edits below are not yet seen by the server, as in the settle window
  s = await startServer({ watch: false });
  await s.api('/api/manifests', {
    json: { $schema: 'klebb.datafile.v1', meta: { id: 'weight', label: 'Weight' } },
  });
  file = path.join(s.dataDir, 'weight.json');
});
afterEach(async () => {
  await s.close();
});

describe('writes over a hand edit', () => {
  it('PATCH of a card whose file is gone is 409 FILE_MISSING and does not recreate it', async () => {
    fs.rmSync(file);
    const r = await s.api('/api/manifests/weight', { method: 'PATCH', json: { meta: { label: 'W' } } });
    expect(r.status).toBe(409);
    expect(r.body.code).toBe('FILE_MISSING');
    expect(fs.existsSync(file)).toBe(false);
    expect((await s.api('/api/settings/cards/weight/disable', { method: 'POST' })).status).toBe(409);
    expect(fs.existsSync(file)).toBe(false);
  });

  it('PATCH of a card whose file is half-edited (invalid JSON) is 409 FILE_INVALID and keeps the bytes', async () => {
    fs.writeFileSync(file, '{"$schema": "klebb.datafile.v1", "meta": {"id": "weight", "label": "Wei');
    const r = await s.api('/api/manifests/weight', { method: 'PATCH', json: { meta: { emoji: '⚖️' } } });
    expect(r.status).toBe(409);
    expect(r.body.code).toBe('FILE_INVALID');
    expect(fs.readFileSync(file, 'utf8')).toContain('"label": "Wei');
    // reads still serve the last good card meanwhile
    expect((await s.api('/api/manifests/weight')).body.meta.label).toBe('Weight');
    const reorder = await s.api('/api/manifests/reorder', { json: { order: ['weight'] } });
    expect(reorder.status).toBe(409);
  });

  it('once the file is fixed, writes go through again', async () => {
    fs.writeFileSync(file, '{"$schema": "klebb.datafile.v1", "meta": {"id": "weight", "label": "Wei');
    await s.api('/api/manifests/weight', { method: 'PATCH', json: { meta: { emoji: '⚖️' } } });
    fs.writeFileSync(
      file,
      JSON.stringify({ $schema: 'klebb.datafile.v1', meta: { id: 'weight', label: 'Weight kg' } }),
    );
    const r = await s.api('/api/manifests/weight', { method: 'PATCH', json: { meta: { emoji: '⚖️' } } });
    expect(r.status).toBe(200);
    expect(JSON.parse(fs.readFileSync(file, 'utf8')).meta).toEqual({
      id: 'weight',
      label: 'Weight kg',
      emoji: '⚖️',
    });
  });
});

/**
 * `writeable.requireAny` names keys the form's inputs fill: a key no input fills (a typo, an
 * input since removed) could never be filled from the form, so a manifest naming one is refused
 * when it is written (422 naming the key, nothing written), by create, by patch (also a patch
 * that removes the input the key names) and by the chat's patch_manifest alike. A card file
 * written by hand whose requireAny no input can fill loads without it, reported.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
const INPUTS = [
  { key: 'systolic', type: 'number' },
  { key: 'pulse', type: 'number' },
];
const card = (id: string, writeable: Record<string, unknown>, view: Record<string, unknown> = {}) => ({
  $schema: 'klebb.datafile.v1',
  meta: {
    id,
    label: 'BP',
    view: { enabled: true, component: 'generic-card', ...view },
    writeable: { fromWebapp: true, ...writeable },
  },
  data: [],
});

beforeAll(async () => {
  s = await startServer({
    before: (_home, dataDir) => {
      fs.mkdirSync(dataDir, { recursive: true });
      fs.writeFileSync(
        path.join(dataDir, 'by-hand.json'),
        JSON.stringify(card('by-hand', { inputs: INPUTS, requireAny: ['sys', 'pluse'] })),
      );
    },
  });
});
afterAll(async () => {
  await s?.close();
});

const paths = (r: { body: { details?: { path: string }[] } }) => (r.body.details ?? []).map((d) => d.path);

describe('requireAny naming a key no input fills', () => {
  it('is refused on create with 422 naming the key', async () => {
    const r = await s.api('/api/manifests', {
      json: card('c', { inputs: INPUTS, requireAny: ['systolic', 'pluse'] }),
    });
    expect(r.status, r.text).toBe(422);
    expect(paths(r)).toEqual(['meta.writeable.requireAny[1]']);
    expect(r.body.error).toContain('"pluse"');
    expect((await s.api('/api/manifests/c')).status).toBe(404);
  });

  it('is refused on create of a card without inputs', async () => {
    const r = await s.api('/api/manifests', { json: card('none', { requireAny: ['mood'] }) });
    expect(r.status, r.text).toBe(422);
    expect(paths(r)).toEqual(['meta.writeable.requireAny[0]']);
  });

  it('is refused in a patch, also one that removes the input a key names', async () => {
    expect(
      (await s.api('/api/manifests', { json: card('p', { inputs: INPUTS, requireAny: ['pulse'] }) })).status,
    ).toBe(201);
    const typo = await s.api('/api/manifests/p', {
      method: 'PATCH',
      json: { meta: { writeable: { requireAny: ['pulse', 'dia'] } } },
    });
    expect(typo.status, typo.text).toBe(422);
    expect(paths(typo)).toEqual(['meta.writeable.requireAny[1]']);
    const drop = await s.api('/api/manifests/p', {
      method: 'PATCH',
      json: { meta: { writeable: { inputs: [INPUTS[0]] } } },
    });
    expect(drop.status, drop.text).toBe(422);
    expect(paths(drop)).toEqual(['meta.writeable.requireAny[0]']);
    const meta = (await s.api('/api/manifests/p')).body.meta;
    expect(meta.writeable).toMatchObject({ inputs: INPUTS, requireAny: ['pulse'] });
  });

  it('is taken when the inputs fill every key, the older view.inputs too', async () => {
    const r = await s.api('/api/manifests', {
      json: card('ok', { inputs: INPUTS, requireAny: ['systolic', 'pulse'] }),
    });
    expect(r.status, r.text).toBe(201);
    const legacy = await s.api('/api/manifests', {
      json: card('legacy', { requireAny: ['mood'] }, { inputs: [{ key: 'mood', type: 'rating' }] }),
    });
    expect(legacy.status, legacy.text).toBe(201);
  });

  it('in a card file written by hand, loads without it, reported', async () => {
    const got = await s.api('/api/manifests/by-hand');
    expect(got.status).toBe(200);
    expect(got.body.meta.writeable.requireAny).toBeUndefined();
    expect((await s.api('/api/manifests')).body.errors).toEqual([
      expect.objectContaining({ id: 'by-hand', code: 'FIELD_DROPPED', path: 'meta.writeable.requireAny' }),
    ]);
    const entry = await s.api('/api/manifests/by-hand/entries', { json: { entry: { systolic: 120 } } });
    expect(entry.status, entry.text).toBe(201);
  });
});
